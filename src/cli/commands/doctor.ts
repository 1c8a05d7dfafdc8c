/**
 * `lazyshell doctor` (README: Plugin tabs and doctor): checks the whole install and prints one
 * line per finding; every problem line says how to fix it. Exit 1 when
 * anything is wrong, 0 otherwise. Optional things that are absent (an agent
 * not on PATH, its hooks not installed or turned off) are `--`/`note` lines
 * and leave the exit code 0.
 *
 * Checks: the set-up problems the TUI and the server report too (config.yml,
 * keys, shell, agent manifests, plugin files: src/server/problems.ts), the
 * runtime directory and a socket can be created, every plugin (handshake,
 * its own doctor), agent CLIs on PATH with versions, Claude Code hooks
 * installed and not disabled by managed settings, configured hooks that
 * still run (hook_paths.ts), and whether notifications can reach the
 * terminal (tmux passthrough). `--self-test` checks the program instead
 * (../self_check.ts).
 */

import type { Command } from "@commander-js/extra-typings";
import { loadCatalog } from "../../runtime/catalog.ts";
import { loadConfig } from "../../config/load.ts";
import type { Env } from "../../config/paths.ts";
import type { LoadedConfig } from "../../config/config.ts";
import { ConfigError, messageOf } from "../../errors.ts";
import { createInstanceDir, listenPrivate, removeInstanceDir } from "../../ipc/runtime_dir.ts";
import { detectAgents } from "../../plugin/agents.ts";
import { discoverPlugins } from "../../plugin/discovery.ts";
import { checkPlugin, type Finding } from "../../plugin/doctor.ts";
import { setupProblems } from "../../server/problems.ts";
import { groupSpawner } from "../../plugin/procgroup.ts";
import { pluginTheme } from "../../tui/core/view/theme.ts";
import { hookPathFindings } from "../../plugin/hook_paths.ts";
import { opencodePlugin } from "../../ipc/opencode_plugin.ts";
import { exists, readTextOrNull, which } from "../../util/fs.ts";

export function registerDoctor(program: Command): void {
  program
    .command("doctor")
    .description("Check config, manifests, sockets, plugins, agent CLIs, hooks and notifications")
    .option("--no-plugins", "skip starting plugins")
    .option(
      "--self-test",
      "check this copy of lazyshell instead: a PTY session, detection of a built-in fixture, a built-in plugin",
    )
    .action(async (options) => {
      if (options.selfTest) {
        const { selfTest } = await import("../self_check.ts");
        process.exitCode = await selfTest();
        return;
      }
      const names = program.commands.map((c) => c.name());
      process.exitCode = await doctor(Deno.env.toObject(), {
        plugins: options.plugins,
        commands: names,
      });
    });
}

export interface DoctorOptions {
  readonly plugins?: boolean;
  readonly commands?: readonly string[];
  readonly print?: (line: string) => void;
}

/** Runs every check, printing as it goes; returns the exit code. */
export async function doctor(env: Env, options: DoctorOptions = {}): Promise<number> {
  const print = options.print ?? ((line: string) => console.log(line));
  let problems = 0;
  const report = (findings: readonly Finding[]) => {
    for (const f of findings) {
      if (!f.ok) problems++;
      print(`${f.ok ? "ok  " : "FAIL"} ${f.text}`);
    }
  };

  const config = readConfig(env);
  const loaded = config instanceof ConfigError ? null : config;
  if (loaded) report([{ ok: true, text: "config.yml parses" }]);
  const catalog = await loadCatalog({ env });
  const discovered = discoverPlugins({
    env,
    ...(options.commands ? { commands: options.commands } : {}),
  });
  // The same list the TUI and serve show (src/server/problems.ts).
  report(
    setupProblems({ env, config, catalog, plugins: discovered }).map((text) => ({
      ok: false,
      text,
    })),
  );
  if (catalog.errors.length === 0) {
    report([{ ok: true, text: `${catalog.manifests.length} agent manifests parse` }]);
  }
  report(await checkSockets(env));

  if (options.plugins !== false) {
    const spawn = await groupSpawner();
    const sections = loaded?.sections ?? {};
    // One at a time: each may take up to 30 s, and output stays in order.
    for (const entry of discovered.plugins) {
      report(await checkPlugin(entry, { env, sections, spawn, theme: pluginTheme() }));
    }
  }

  const agents = await detectAgents(catalog.detectable(env), {
    env,
    injectClaude: loaded?.config.agents.claude.inject_hooks ?? false,
  });
  for (const a of agents) {
    if (!a.installed) {
      print(`--   ${a.name}: not on PATH (${a.id})`);
      continue;
    }
    report([{ ok: true, text: `${a.name}: ${a.path} ${a.version ?? "(version unknown)"}` }]);
    if (a.hookStatus.state === "missing" || a.hookStatus.state === "disabled") {
      // Optional (docs/hooks.md): states come from the screen and resume from the agent's own
      // store without them, so a note, not a problem.
      print(`note ${a.name} hooks (optional): ${a.hookStatus.detail}`);
    } else if (a.hookStatus.state !== "unsupported") {
      report([{ ok: true, text: `${a.name} hooks: ${a.hookStatus.detail}` }]);
    }
  }
  report(hookPathFindings({
    home: env.HOME ?? env.USERPROFILE ?? "/",
    read: readTextOrNull,
    exists,
    opencodePlugin: opencodePlugin(),
  }));
  report(await checkNotifications(env, loaded));

  print(
    problems === 0 ? "No problems found" : `${problems} problem${problems === 1 ? "" : "s"} found`,
  );
  return problems === 0 ? 0 : 1;
}

function readConfig(env: Env): LoadedConfig | ConfigError {
  try {
    return loadConfig(env);
  } catch (error) {
    if (error instanceof ConfigError) return error;
    return new ConfigError("config.yml", null, messageOf(error));
  }
}

async function checkSockets(env: Env): Promise<Finding[]> {
  let dir: string | null = null;
  try {
    dir = await createInstanceDir(env);
    const listener = await listenPrivate(`${dir}/doctor.sock`);
    listener.close();
    return [{ ok: true, text: `runtime directory and sockets work (${dir})` }];
  } catch (error) {
    return [{
      ok: false,
      text: `Cannot create the runtime directory or a socket: ${
        messageOf(error)
      }: check XDG_RUNTIME_DIR / TMPDIR permissions`,
    }];
  } finally {
    if (dir !== null) removeInstanceDir(dir);
  }
}

async function checkNotifications(env: Env, loaded: LoadedConfig | null): Promise<Finding[]> {
  const fallback = loaded?.config.notify.fallback_command ?? null;
  if (fallback !== null) {
    const program = fallback.trim().split(/\s+/)[0] ?? "";
    return which(program, env.PATH ?? "") || program.includes("/")
      ? [{ ok: true, text: `notifications run ${program} (notify.fallback_command)` }]
      : [{
        ok: false,
        text: `notify.fallback_command: ${program} is not on PATH: install it or fix the command`,
      }];
  }
  if (!env.TMUX) {
    return [{ ok: true, text: "notifications go to the terminal as OSC 9 and OSC 777" }];
  }
  let value = "";
  try {
    const out = await new Deno.Command("tmux", {
      args: ["show-options", "-gv", "allow-passthrough"],
      stdout: "piped",
      stderr: "piped",
      stdin: "null",
    }).output();
    value = new TextDecoder().decode(out.stdout).trim();
  } catch (error) {
    return [{
      ok: false,
      text: `Inside tmux but cannot run tmux: ${messageOf(error)}: check PATH`,
    }];
  }
  if (value === "on" || value === "all") {
    return [{ ok: true, text: `tmux passes notifications through (allow-passthrough ${value})` }];
  }
  return [{
    ok: false,
    text: `tmux blocks notifications (allow-passthrough ${
      value || "off"
    }): add "set -g allow-passthrough on" to ~/.tmux.conf`,
  }];
}
