/**
 * The plugin part of `lazyshell doctor` (docs/plugin-protocol.md): each plugin's
 * handshake (manifest within 3 s of init, through the real host) and, when
 * its manifest says `doctor: true`, its own `<bin> doctor` — problems on
 * stdout, non-zero exit = problem, killed with its process tree after 30 s.
 */

import type { Env } from "../config/paths.ts";
import { type PluginEntry, pluginEnv } from "./discovery.ts";
import { PluginHost } from "./host.ts";
import type { GroupSpawner } from "./procgroup.ts";
import { DOCTOR_TIMEOUT_MS, type Manifest, MANIFEST_TIMEOUT_MS, type Theme } from "./protocol.ts";

export interface Finding {
  /** False: a problem (the line says what to do). */
  readonly ok: boolean;
  readonly text: string;
}

export interface PluginCheckOptions {
  readonly env: Env;
  readonly sections: Readonly<Record<string, unknown>>;
  readonly spawn: GroupSpawner;
  /** `init.theme`: the TUI's (src/tui/core/view/theme.ts pluginTheme), so a plugin starts as in its tab. */
  readonly theme?: Theme;
  /** The plugin's own doctor limit (default 30 s). */
  readonly doctorTimeoutMs?: number;
}

/** Starts the plugin like the TUI would and waits for its manifest (or failure). */
export async function handshake(
  entry: PluginEntry,
  options: PluginCheckOptions,
): Promise<{ manifest: Manifest | null; error: string | null; ms: number }> {
  let wake: () => void = () => {};
  const changed = new Promise<void>((resolve) => (wake = resolve));
  const config = options.sections[entry.id];
  const host = new PluginHost({
    entry,
    env: options.env,
    ...(config !== undefined ? { config } : {}),
    ...(options.theme ? { theme: options.theme } : {}),
    width: 80,
    height: 24,
    spawn: options.spawn,
    onChange: () => {
      if (host.state.phase !== "starting") wake();
    },
  });
  const started = performance.now();
  try {
    host.start();
    if (host.state.phase === "starting") {
      // The host's own 3 s timer fails the tab; this is only a safety net.
      let timer: ReturnType<typeof setTimeout> | undefined;
      await Promise.race([
        changed,
        new Promise<void>((r) => (timer = setTimeout(r, MANIFEST_TIMEOUT_MS + 2000))),
      ]);
      clearTimeout(timer);
    }
    const ms = performance.now() - started;
    const state = host.state;
    if (state.manifest !== null) return { manifest: state.manifest, error: null, ms };
    const tail = host.stderrTail.trim().split("\n").slice(-3).join(" | ");
    const error = (state.error ?? "No manifest") + (tail ? ` (stderr: ${tail})` : "");
    return { manifest: null, error, ms };
  } finally {
    await host.close();
  }
}

async function collect(stream: ReadableStream<Uint8Array>): Promise<string> {
  let text = "";
  const decoder = new TextDecoder();
  for await (const chunk of stream) {
    if (text.length < 64 * 1024) text += decoder.decode(chunk, { stream: true });
  }
  return text;
}

/** Runs `<bin> doctor`; the whole tree is killed after the limit. */
export async function runPluginDoctor(
  entry: PluginEntry,
  options: PluginCheckOptions,
): Promise<Finding[]> {
  const limit = options.doctorTimeoutMs ?? DOCTOR_TIMEOUT_MS;
  let child;
  try {
    child = options.spawn([...entry.command, "doctor"], {
      env: pluginEnv(options.env, entry.id),
      stdin: "null",
    });
  } catch (error) {
    return [{ ok: false, text: `${entry.id}: doctor cannot start: ${(error as Error).message}` }];
  }
  let timedOut = false;
  const timer = setTimeout(() => {
    timedOut = true;
    child.signal("SIGKILL");
  }, limit);
  const [stdout, , status] = await Promise.all([
    collect(child.stdout),
    collect(child.stderr),
    child.status.finally(() => {
      clearTimeout(timer);
      child.killLeftovers();
    }),
  ]);
  const lines = stdout.split("\n").map((l) => l.trim()).filter((l) => l !== "");
  if (timedOut) {
    return [{
      ok: false,
      text: `${entry.id}: its doctor did not finish within ${
        limit / 1000
      } s and was killed with its process tree: fix the plugin's doctor mode`,
    }];
  }
  if (status.code === 0) return [{ ok: true, text: `${entry.id}: its own doctor passed` }];
  if (lines.length === 0) {
    return [{
      ok: false,
      text: `${entry.id}: its doctor exited with ${
        status.signal ?? `code ${status.code}`
      } and said nothing: run ${entry.source} doctor`,
    }];
  }
  return lines.map((line) => ({ ok: false, text: `${entry.id}: ${line}` }));
}

/** Handshake, then the plugin's own doctor when it has one. */
export async function checkPlugin(
  entry: PluginEntry,
  options: PluginCheckOptions,
): Promise<Finding[]> {
  const { manifest, error, ms } = await handshake(entry, options);
  if (manifest === null) {
    return [{
      ok: false,
      text: `${entry.id}: ${error}: run ${entry.source} serve by hand (docs/plugin-protocol.md)`,
    }];
  }
  const findings: Finding[] = [{
    ok: true,
    text: `${entry.id}: handshake ok ("${manifest.title}", manifest in ${Math.round(ms)} ms)`,
  }];
  if (manifest.doctor) findings.push(...await runPluginDoctor(entry, options));
  return findings;
}
