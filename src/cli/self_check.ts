/**
 * `lazyshell doctor --self-test`: proves this copy of lazyshell works, not
 * the user's setup — a compiled binary or an installed package runs code
 * paths that `--version` never touches (npm packages, the native PTY addon,
 * embedded files, self-invocation). One line per check, exit 1 when one
 * fails. Reads no user config, manifest or plugin: the same answer on any
 * machine, so the release workflow and CI can run it after building.
 *
 * 1. A PTY session: /bin/sh runs in a real PTY (node-pty) and its output
 *    reaches the terminal emulator (xterm headless).
 * 2. Detection: a captured Claude Code run (SELF_TEST_FIXTURE, shipped
 *    beside the program) replayed through the emulator with the built-in
 *    manifests reads every labelled state right.
 * 3. A built-in plugin: `<self> __plugin env serve` answers its handshake,
 *    through the same self-invocation the TUI uses.
 */

import { messageOf } from "../errors.ts";

/** A capture small enough to ship in every build (output.raw, meta, truth, chunks). */
export const SELF_TEST_FIXTURE = "fixtures/captures/claude-tool";

const FIXTURE = new URL(`../../${SELF_TEST_FIXTURE}/`, import.meta.url);
const DEADLINE_MS = 15_000;

export interface Check {
  readonly name: string;
  readonly run: () => Promise<string>;
}

/** The checks, in order; each resolves with what it saw or throws why it failed. */
export const CHECKS: readonly Check[] = [
  { name: "PTY session", run: ptyCheck },
  { name: "detection", run: detectionCheck },
  { name: "built-in plugin", run: pluginCheck },
];

/** Runs every check, printing one line each; returns the exit code. */
export async function selfTest(
  print: (line: string) => void = (line) => console.log(line),
  checks: readonly Check[] = CHECKS,
): Promise<number> {
  let failed = 0;
  for (const check of checks) {
    const started = performance.now();
    try {
      const what = await deadline(check.run(), DEADLINE_MS, check.name);
      print(`ok   ${check.name}: ${what} (${Math.round(performance.now() - started)} ms)`);
    } catch (error) {
      failed++;
      print(`FAIL ${check.name}: ${messageOf(error)}`);
    }
  }
  print(
    failed === 0
      ? `Self-test passed (${checks.length} checks)`
      : `Self-test failed: ${failed} of ${checks.length} checks`,
  );
  return failed === 0 ? 0 : 1;
}

function deadline<T>(work: Promise<T>, ms: number, what: string): Promise<T> {
  let timer: ReturnType<typeof setTimeout> | undefined;
  const late = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`${what} did not finish within ${ms} ms`)), ms);
  });
  return Promise.race([work, late]).finally(() => clearTimeout(timer));
}

async function ptyCheck(): Promise<string> {
  const { SessionStore } = await import("../session/store.ts");
  let cwd = "/";
  try {
    cwd = Deno.cwd();
  } catch { /* a deleted cwd: the root will do */ }
  await using store = new SessionStore({
    shell: "/bin/sh",
    cwd,
    env: { PATH: Deno.env.get("PATH") ?? "/usr/bin:/bin", HOME: Deno.env.get("HOME") ?? "/" },
    cols: 80,
    rows: 24,
  });
  const session = store.create({
    command:
      `if [ -t 1 ]; then t=pty; else t=pipe; fi; printf 'self-test %s %s\\n' "$((6*7))" "$t"`,
  });
  await session.exited;
  const screen = session.terminal.visibleLines().join("\n");
  if (!screen.includes("self-test 42 pty")) {
    throw new Error(`/bin/sh's output did not reach the emulator as expected: ${screen.trim()}`);
  }
  if (session.exitCode !== 0) throw new Error(`/bin/sh exited with code ${session.exitCode}`);
  return "/bin/sh ran in a PTY and its output reached the emulator";
}

async function detectionCheck(): Promise<string> {
  const { loadCatalog } = await import("../runtime/catalog.ts");
  const { replay } = await import("../replay/replay.ts");
  const { captureReplay, expectations, readCapture } = await import("../replay/fixtures.ts");
  const catalog = await loadCatalog({ userDir: null });
  if (catalog.errors.length > 0) throw new Error(catalog.errors[0]!.message);
  let capture: Awaited<ReturnType<typeof readCapture>>;
  try {
    capture = await readCapture(FIXTURE);
  } catch (error) {
    throw new Error(`Cannot read the built-in fixture ${SELF_TEST_FIXTURE}: ${messageOf(error)}`);
  }
  const wanted = expectations(capture.truth);
  const points = await replay(
    capture.bytes,
    wanted.map((w) => w.offset),
    captureReplay(capture, catalog),
  );
  points.forEach((p, i) => {
    const w = wanted[i]!;
    const kind = p.status?.kind ?? null;
    if (p.status?.state !== w.state || (w.kind !== undefined && kind !== w.kind)) {
      throw new Error(
        `${SELF_TEST_FIXTURE} at byte ${w.offset} (${w.label}): read ${
          p.status?.state ?? "nothing"
        }${kind ? `/${kind}` : ""}, expected ${w.state}${w.kind ? `/${w.kind}` : ""}`,
      );
    }
  });
  return `${wanted.length} labelled states of ${SELF_TEST_FIXTURE} read right with the ${catalog.manifests.length} built-in manifests`;
}

async function pluginCheck(): Promise<string> {
  const { builtinEntry } = await import("../plugin/discovery.ts");
  const { handshake } = await import("../plugin/doctor.ts");
  const { groupSpawner } = await import("../plugin/procgroup.ts");
  const { pluginTheme } = await import("../tui/core/view/theme.ts");
  const entry = builtinEntry("env");
  const result = await handshake(entry, {
    env: Deno.env.toObject(),
    sections: {},
    spawn: await groupSpawner(),
    theme: pluginTheme(),
  });
  if (result.manifest === null) throw new Error(`${entry.command.join(" ")}: ${result.error}`);
  return `${entry.command.join(" ")} answered its handshake ("${result.manifest.title}")`;
}
