/**
 * Which catalogued agent a process is (docs/detection.md, Identity). Pure: takes a ProcessInfo
 * and the catalog's identity data (manifests/), returns an agent id.
 *
 * Wrappers (node, bun, deno, python) are resolved through their script
 * path; `-e`, `-c`, `-m` (inline code or a module) never designate an agent.
 */

import type { ProcessInfo } from "../model/snapshot.ts";

export interface AgentIdentity {
  readonly id: string;
  /** Executable names (argv[0] basename, comm, exe basename). */
  readonly processes: readonly string[];
  /** Script basenames, extension dropped (`.bin/codex` → `codex`). */
  readonly scripts: readonly string[];
  /** npm package names found in the script or exe path (`node_modules/<pkg>/`). */
  readonly packages: readonly string[];
}

const WRAPPERS = /^(node|nodejs|bun|deno|python|python\d(\.\d+)?|pypy3?|tsx|ts-node|npx|bunx)$/;
const INLINE_FLAGS = new Set(["-e", "--eval", "-p", "--print", "-c", "-m"]);
/** Wrapper options that consume the next argument. */
const OPTIONS_WITH_VALUE = new Set(["-r", "--require", "--import", "--loader", "-W", "-X"]);

export function basename(path: string): string {
  const slash = path.lastIndexOf("/");
  return slash < 0 ? path : path.slice(slash + 1);
}

function stripScriptExt(name: string): string {
  return name.replace(/\.(m?js|cjs|ts|mts|py|exe)$/, "");
}

/**
 * The script a wrapper runs, or null when the process is not a wrapper or
 * runs inline code. `deno run [flags] script`, `node [flags] script`.
 */
export function wrappedScript(argv: readonly string[]): string | null | "inline" {
  const program = basename(argv[0] ?? "");
  if (!WRAPPERS.test(program)) return null;
  let i = 1;
  if (program === "deno" && argv[1] === "run") i = 2;
  for (; i < argv.length; i++) {
    const arg = argv[i] ?? "";
    if (INLINE_FLAGS.has(arg)) return "inline";
    if (OPTIONS_WITH_VALUE.has(arg)) {
      i++;
      continue;
    }
    if (arg.startsWith("-")) continue;
    return arg;
  }
  return null;
}

/** Shells: a launcher when they run a script or a command string, not when interactive. */
const SHELLS = /^-?(sh|bash|dash|zsh|ksh|mksh|ash|fish|busybox)$/;
/**
 * Programs that replace themselves with the program they start (exec in
 * place, same pid and process group): `env`, `nice`, version-manager
 * launchers (pyenv, asdf and mise shims end in one of these or in a shell
 * script).
 */
const EXEC_LAUNCHERS =
  /^(env|nice|nohup|stdbuf|ionice|chrt|taskset|pyenv|asdf|mise|rtx|nodenv|rbenv|goenv|jenv)$/;

/**
 * True when `proc` may still become another program in place: a shell
 * running a script or `-c` command (a shim, a wrapper script that `exec`s),
 * or a launcher such as `env`. Its identity must be looked at again even
 * when nothing is printed, and no answer about it may be reused for long.
 */
export function isLauncher(proc: ProcessInfo): boolean {
  const names = [basename(proc.argv[0] ?? ""), proc.comm, basename(proc.exe ?? "")];
  if (names.some((n) => EXEC_LAUNCHERS.test(n))) return true;
  if (!SHELLS.test(basename(proc.exe ?? proc.argv[0] ?? ""))) return false;
  // An operand (a script) or -c: not the interactive shell of a session.
  return proc.argv.slice(1).some((a) => !a.startsWith("-") || a === "-c" || /^-[a-z]*c/.test(a));
}

function packageMatches(path: string, pkg: string): boolean {
  return path.includes(`/node_modules/${pkg}/`);
}

/** The catalog id of the agent `proc` is running, or null. */
export function identify(
  proc: ProcessInfo,
  catalog: readonly AgentIdentity[],
): string | null {
  const script = wrappedScript(proc.argv);
  if (script === "inline") return null;
  if (script !== null) {
    const name = stripScriptExt(basename(script));
    for (const agent of catalog) {
      if (agent.scripts.includes(name) || agent.processes.includes(name)) return agent.id;
      if (agent.packages.some((pkg) => packageMatches(script, pkg))) return agent.id;
    }
    return null;
  }
  const names = [basename(proc.argv[0] ?? ""), proc.comm, basename(proc.exe ?? "")]
    .map(stripScriptExt);
  for (const agent of catalog) {
    if (names.some((n) => n !== "" && agent.processes.includes(n))) return agent.id;
    if (proc.exe && agent.packages.some((pkg) => packageMatches(proc.exe ?? "", pkg))) {
      return agent.id;
    }
  }
  return null;
}
