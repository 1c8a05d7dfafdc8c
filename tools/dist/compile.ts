/**
 * `deno task compile [--target TRIPLE] [--output FILE] [--self-extracting] [--no-check]`:
 * one lazyshell binary (default dist/lazyshell) with what the program reads
 * at run time embedded — the agent manifests, the built-in plugins, the
 * self-test's capture and the build record (version and commit, written
 * first). `deno compile` downloads its runtime (denort) from dl.deno.land;
 * where that is unreachable it fails, and the caller falls back (see
 * tools/dist/install.ts, .ci/run). The release workflow runs this for each
 * target, then `lazyshell doctor --self-test`.
 */

import { DATA_FILES, ROOT, writeBuildRecord } from "./build.ts";
import { BUILD_FILE } from "../../src/cli/version.ts";

/** Embedded besides the module graph (paths relative to the repository root). */
export const EMBEDDED = [...DATA_FILES, "plugins", BUILD_FILE];

export function compileArgs(args: readonly string[]): string[] {
  let output = "dist/lazyshell";
  const flags: string[] = [];
  for (let i = 0; i < args.length; i++) {
    const arg = args[i]!;
    if (arg === "--output" || arg === "-o") output = args[++i] ?? output;
    else if (arg.startsWith("--output=")) output = arg.slice("--output=".length);
    else if (arg === "--target") flags.push(arg, args[++i] ?? "");
    else if (["--self-extracting", "--no-check"].includes(arg) || arg.startsWith("--target=")) {
      flags.push(arg);
    } else throw new Error(`Unknown option: ${arg}`);
  }
  return [
    "compile",
    "-A",
    ...flags,
    ...EMBEDDED.flatMap((path) => ["--include", path]),
    "--output",
    output,
    "main.ts",
  ];
}

if (import.meta.main) {
  let args: string[];
  try {
    args = compileArgs(Deno.args);
  } catch (error) {
    console.error(`compile: ${(error as Error).message}`);
    Deno.exit(2);
  }
  await writeBuildRecord(ROOT);
  const status = await new Deno.Command(Deno.execPath(), { args, cwd: ROOT }).spawn().status;
  Deno.exit(status.code);
}
