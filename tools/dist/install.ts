/**
 * `deno task setup` (the README's first command): installs the `lazyshell`
 * command for this user, then starts it when run in a terminal.
 *
 * - The compiled binary, when `deno compile` can fetch its runtime from
 *   dl.deno.land and the binary passes `doctor --self-test`:
 *   <data>/<version>/lazyshell, started by a two-line wrapper <bin>/lazyshell.
 * - Otherwise the npm package (tools/dist/pack.ts) installed by npm into
 *   <data>/<version>/ (`npm install -g --prefix`), its launcher linked as
 *   <bin>/lazyshell: Deno 2.9.6 and the pinned npm packages come from the
 *   npm registry (or npm's cache), nothing else from the network.
 *
 * <data> is $XDG_DATA_HOME/lazyshell (default ~/.local/share/lazyshell, beside
 * lazyshell's logs), <bin> is ~/.local/bin unless --bin-dir says otherwise.
 * Hooks and built-in plugins run lazyshell as <bin>/lazyshell, a path that
 * stays the same across upgrades. Installing again replaces the version's
 * folder and the command (an upgrade in place) and removes other versions'
 * folders; `--uninstall` removes both and leaves config, logs and the
 * agents' settings alone.
 *
 *   deno task setup [--no-compile] [--no-start] [--bin-dir DIR] [--uninstall]
 */

import { dataDir, type Env } from "../../src/config/paths.ts";
import { shellQuote } from "../../src/ipc/integrations.ts";
import { exists, which } from "../../src/util/fs.ts";
import { buildRecord, ROOT, run, VERSION, writeBuildRecord } from "./build.ts";
import { compileArgs } from "./compile.ts";
import { packTarball } from "./pack.ts";

/** Written into each installed version's folder: what was installed, how, for whom. */
export const MARKER = "install.json";
/** The line that marks a command file as ours (the compiled binary's wrapper). */
const WRAPPER_MARK = "# Installed by lazyshell's set-up (deno task setup)";

export interface Options {
  readonly compile: boolean;
  readonly start: boolean;
  readonly uninstall: boolean;
  readonly binDir: string;
  readonly dataDir: string;
}

export function parseOptions(args: readonly string[], env: Env): Options {
  const home = env.HOME ?? "/";
  let binDir = `${home}/.local/bin`;
  let compile = true, start = true, uninstall = false;
  for (let i = 0; i < args.length; i++) {
    const arg = args[i]!;
    if (arg === "--no-compile") compile = false;
    else if (arg === "--no-start") start = false;
    else if (arg === "--uninstall") uninstall = true;
    else if (arg === "--bin-dir" && args[i + 1]) binDir = args[++i]!;
    else if (arg.startsWith("--bin-dir=")) binDir = arg.slice("--bin-dir=".length);
    else {
      throw new Error(
        `Unknown option: ${arg} (expected --no-compile, --no-start, --bin-dir DIR, --uninstall)`,
      );
    }
  }
  const abs = (p: string) => (p.startsWith("/") ? p : `${env.INIT_CWD ?? Deno.cwd()}/${p}`);
  return { compile, start, uninstall, binDir: abs(binDir), dataDir: dataDir(env) };
}

/**
 * The command: its stable path for hooks, then the compiled binary or the
 * npm package's launcher, by its real path. A symlink would cost the
 * launcher a `readlink` process per link followed (~5 ms each, on every
 * hook an agent runs).
 */
export function wrapperScript(command: string, binary: string, version: string): string {
  return [
    "#!/bin/sh",
    `${WRAPPER_MARK}: lazyshell ${version}.`,
    `LAZYSHELL_SELF=${shellQuote(command)} exec ${shellQuote(binary)} "$@"`,
    "",
  ].join("\n");
}

/**
 * How to run the set-up again, as this user can: `deno task setup` when a
 * Deno of their own is on PATH, else through npx as the README's first
 * command does (npx puts its own `deno` on PATH while it runs: not theirs).
 */
export function setupCommand(env: Env, find = which): string {
  const deno = find("deno", env.PATH ?? "");
  const own = deno !== null && !/\/_npx\/|\/node_modules\//.test(deno);
  return own ? "deno task setup" : `npx --yes deno@${Deno.version.deno} task setup`;
}

export function upgradeHint(env: Env, root: string, find = which): string {
  const setup = setupCommand(env, find);
  return `Upgrade: run this again. Uninstall: ${setup} --uninstall, in ${root} (README: Install).`;
}

/** Whether `command` is absent or was put there by this set-up (so it may be replaced). */
export function ownsCommand(command: string, data: string): boolean {
  let info: Deno.FileInfo;
  try {
    info = Deno.lstatSync(command);
  } catch {
    return true;
  }
  if (info.isSymlink) return Deno.readLinkSync(command).startsWith(`${data}/`);
  try {
    return Deno.readTextFileSync(command).includes(WRAPPER_MARK);
  } catch {
    return false;
  }
}

/** What to add to the shell's startup file when `binDir` is not on PATH, else null. */
export function pathAdvice(binDir: string, env: Env): string | null {
  const onPath = (env.PATH ?? "").split(":").some((d) => d.replace(/\/$/, "") === binDir);
  if (onPath) return null;
  const home = env.HOME ?? "";
  const dir = home && binDir.startsWith(`${home}/`) ? `$HOME${binDir.slice(home.length)}` : binDir;
  const shell = (env.SHELL ?? "").split("/").pop();
  if (shell === "fish") return `fish_add_path ${dir}`;
  const rc = shell === "zsh" ? "~/.zshrc" : "~/.bashrc";
  return `echo 'export PATH="${dir}:$PATH"' >> ${rc}   # then open a new shell`;
}

/** Installed versions' folders under `data` (they hold MARKER). */
function installedVersions(data: string): string[] {
  try {
    return [...Deno.readDirSync(data)]
      .filter((e) => e.isDirectory && exists(`${data}/${e.name}/${MARKER}`))
      .map((e) => `${data}/${e.name}`);
  } catch {
    return [];
  }
}

function removeIfPresent(path: string): void {
  try {
    Deno.removeSync(path, { recursive: true });
  } catch (error) {
    if (!(error instanceof Deno.errors.NotFound)) throw error;
  }
}

/** The compiled binary in `dir`, if `deno compile` works here and the binary passes its self-test. */
async function tryCompile(dir: string, say: (line: string) => void): Promise<string | null> {
  const binary = `${dir}/lazyshell`;
  await writeBuildRecord(ROOT);
  const compiled = await run(
    Deno.execPath(),
    // macOS: node-pty's spawn-helper must sit on disk beside its addon (as in the release workflow).
    compileArgs([
      "--no-check",
      ...(Deno.build.os === "darwin" ? ["--self-extracting"] : []),
      "--output",
      binary,
    ]),
    { cwd: ROOT, timeoutMs: 600_000 },
  );
  if (compiled.code !== 0) {
    const offline = /dl\.deno\.land|dns error|error sending request|failed to download/i.test(
      compiled.stderr,
    );
    const why = offline
      ? "deno compile cannot download its runtime from dl.deno.land"
      : `deno compile failed: ${compiled.stderr.trim().split("\n").pop()}`;
    say(`${why}: installing the launcher (Deno 2.9.6 from npm) instead`);
    return null;
  }
  const check = await run(binary, ["doctor", "--self-test"], { timeoutMs: 120_000 });
  if (check.code !== 0) {
    say(`The compiled binary failed its self-test: installing the launcher instead`);
    for (const line of check.stdout.trim().split("\n")) say(`  ${line}`);
    return null;
  }
  return binary;
}

/** The npm package installed into `dir` (an npm prefix); returns its launcher. */
async function installPackage(dir: string): Promise<string> {
  const scratch = Deno.makeTempDirSync({ prefix: "lazyshell-setup-" });
  try {
    const tarball = await packTarball(scratch);
    const out = await run("npm", [
      "install",
      "--global",
      "--prefix",
      dir,
      "--prefer-offline",
      "--no-fund",
      "--no-audit",
      "--no-update-notifier",
      "--loglevel=error",
      tarball,
    ]);
    if (out.code !== 0) throw new Error(`npm install failed: ${out.stderr.trim()}`);
    return `${dir}/bin/lazyshell`;
  } finally {
    removeIfPresent(scratch);
  }
}

export async function install(options: Options, say: (line: string) => void): Promise<string> {
  const command = `${options.binDir}/lazyshell`;
  if (!ownsCommand(command, options.dataDir)) {
    throw new Error(
      `${command} exists and was not installed by this set-up: move it away, or pass --bin-dir DIR`,
    );
  }
  const record = await buildRecord();
  const target = `${options.dataDir}/${VERSION}`;
  const staging = `${options.dataDir}/.install-${Deno.pid}`;
  Deno.mkdirSync(staging, { recursive: true });
  try {
    const binary = options.compile ? await tryCompile(staging, say) : null;
    const mode = binary ? "binary" : "launcher";
    if (!binary) await installPackage(staging);
    Deno.writeTextFileSync(
      `${staging}/${MARKER}`,
      JSON.stringify({ ...record, mode, command }, null, 2) + "\n",
    );
    // Swap the version's folder, then point the command at it.
    removeIfPresent(target);
    Deno.renameSync(staging, target);
    Deno.mkdirSync(options.binDir, { recursive: true });
    removeIfPresent(command);
    const program = binary ? `${target}/lazyshell` : Deno.realPathSync(`${target}/bin/lazyshell`);
    Deno.writeTextFileSync(command, wrapperScript(command, program, VERSION), { mode: 0o755 });
    for (const old of installedVersions(options.dataDir)) {
      if (old !== target) {
        removeIfPresent(old);
        say(`Removed the previous version's folder ${old}`);
      }
    }
    const version = await run(command, ["--version"]);
    if (version.code !== 0) {
      throw new Error(`${command} --version failed: ${(version.stderr || version.stdout).trim()}`);
    }
    say(`Installed ${version.stdout.trim()} as ${command}`);
    say(
      binary
        ? `  the compiled binary: ${target}/lazyshell`
        : `  launcher: Deno 2.9.6 and the npm packages it runs with, in ${target}`,
    );
    return command;
  } finally {
    removeIfPresent(staging);
  }
}

export function uninstall(options: Options, say: (line: string) => void): void {
  const command = `${options.binDir}/lazyshell`;
  if (exists(command) || isSymlink(command)) {
    if (!ownsCommand(command, options.dataDir)) {
      throw new Error(`${command} was not installed by this set-up: left alone`);
    }
    Deno.removeSync(command);
    say(`Removed ${command}`);
  }
  for (const dir of installedVersions(options.dataDir)) {
    removeIfPresent(dir);
    say(`Removed ${dir}`);
  }
  say(
    `Left alone: config (~/.config/lazyshell), logs and plugin data (${options.dataDir}), and hooks added to agents' settings (remove the lines that run lazyshell hook)`,
  );
}

function isSymlink(path: string): boolean {
  try {
    return Deno.lstatSync(path).isSymlink;
  } catch {
    return false;
  }
}

if (import.meta.main) {
  const env = Deno.env.toObject();
  const say = (line: string) => console.log(line);
  try {
    const options = parseOptions(Deno.args, env);
    if (options.uninstall) {
      uninstall(options, say);
      Deno.exit(0);
    }
    const command = await install(options, say);
    const advice = pathAdvice(options.binDir, env);
    if (advice !== null) {
      say(`${options.binDir} is not on your PATH; add it:`);
      say(`  ${advice}`);
    }
    say(upgradeHint(env, ROOT));
    if (options.start && Deno.stdin.isTerminal() && Deno.stdout.isTerminal()) {
      // `deno task` runs in the repository; lazyshell starts where you were.
      const status = await new Deno.Command(command, { cwd: env.INIT_CWD ?? Deno.cwd() })
        .spawn().status;
      Deno.exit(status.code);
    }
  } catch (error) {
    console.error(`lazyshell setup: ${(error as Error).message}`);
    Deno.exit(1);
  }
}
