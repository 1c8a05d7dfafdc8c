/**
 * What every build of lazyshell shares (tools/dist/pack.ts, compile.ts,
 * install.ts): the repository root, the build record (`build.json`: version
 * and commit, so an installed copy without `.git` can say what it is), the
 * files read at run time besides the modules, and running a command.
 */

import denoJson from "../../deno.json" with { type: "json" };
import { BUILD_FILE, type BuildFile, gitCommit } from "../../src/cli/version.ts";
import { SELF_TEST_FIXTURE } from "../../src/cli/self_check.ts";

/** A file URL as a path Deno's file APIs take (`/C:/x` → `C:/x` on Windows). */
export function pathOf(url: URL): string {
  const path = decodeURIComponent(url.pathname);
  return Deno.build.os === "windows" ? path.replace(/^\/([A-Za-z]:)/, "$1") : path;
}

/** The repository root, with a trailing slash. */
export const ROOT = pathOf(new URL("../../", import.meta.url));

export const VERSION: string = denoJson.version;

/**
 * Files beside main.ts that the program reads at run time: the agent
 * manifests (catalog.ts), the self-test's capture (self_check.ts), the
 * build record (version.ts). Built-in plugins are modules, but compile
 * embeds their folder too (libraryDir() points plugins at it).
 */
export const DATA_FILES = ["manifests", SELF_TEST_FIXTURE] as const;

export interface Output {
  readonly code: number;
  readonly stdout: string;
  readonly stderr: string;
}

/** Runs a command to completion, output captured. */
export async function run(
  program: string,
  args: readonly string[],
  options: { cwd?: string; env?: Record<string, string>; timeoutMs?: number } = {},
): Promise<Output> {
  const child = new Deno.Command(program, {
    args: [...args],
    ...(options.cwd ? { cwd: options.cwd } : {}),
    ...(options.env ? { env: options.env } : {}),
    stdin: "null",
    stdout: "piped",
    stderr: "piped",
  }).spawn();
  const timer = options.timeoutMs === undefined
    ? undefined
    : setTimeout(() => child.kill("SIGKILL"), options.timeoutMs);
  try {
    const out = await child.output();
    const dec = new TextDecoder();
    return { code: out.code, stdout: dec.decode(out.stdout), stderr: dec.decode(out.stderr) };
  } finally {
    clearTimeout(timer);
  }
}

/** The build record of the checkout at `root`: its HEAD, and whether tracked files changed. */
export async function buildRecord(root: string = ROOT): Promise<BuildFile> {
  let modified = false;
  try {
    const status = await run("git", ["status", "--porcelain", "--untracked-files=no"], {
      cwd: root,
    });
    modified = status.code === 0 && status.stdout.trim() !== "";
  } catch { /* no git: a clean export */ }
  return { version: VERSION, commit: gitCommit(root.replace(/\/$/, "")), modified };
}

/** Writes `build.json` into `dir` (beside the main.ts or main.js it describes). */
export async function writeBuildRecord(dir: string, root: string = ROOT): Promise<BuildFile> {
  const record = await buildRecord(root);
  const file = `${dir.replace(/\/$/, "")}/${BUILD_FILE}`;
  Deno.writeTextFileSync(file, JSON.stringify(record, null, 2) + "\n");
  return record;
}

/** Copies a file or a folder (recursively), creating parents. */
export function copy(from: string, to: string): void {
  const info = Deno.statSync(from);
  Deno.mkdirSync(to.slice(0, to.lastIndexOf("/")), { recursive: true });
  if (!info.isDirectory) {
    Deno.copyFileSync(from, to);
    return;
  }
  Deno.mkdirSync(to, { recursive: true });
  for (const entry of Deno.readDirSync(from)) copy(`${from}/${entry.name}`, `${to}/${entry.name}`);
}
