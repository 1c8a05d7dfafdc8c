/**
 * Runs git (docs/changes.md): one child process per call, `git -C DIR`, with
 * an environment that keeps its output parseable and its side effects nil
 * (no optional index lock taken while an agent works in the same tree, no
 * prompt for credentials, the C locale for messages). Parsing lives in
 * ./parse.ts; every failure becomes a GitError with one line (gitFailure).
 */

import { UserError } from "../errors.ts";

/** A git call that failed, said in one line (`Not a git repository: /x`). */
export class GitError extends UserError {}

export interface GitResult {
  readonly code: number;
  readonly stdout: string;
  readonly stderr: string;
  /** stdout went past maxBytes: it was cut there and git was stopped. */
  readonly truncated: boolean;
}

export interface GitOptions {
  /** Exit codes that are answers, not failures (`rev-parse --verify -q`: 1). Default [0]. */
  readonly ok?: readonly number[];
  /** Keep at most this many bytes of stdout (default 64 MiB); past it git is stopped. */
  readonly maxBytes?: number;
  /** The git executable (tests point it at a missing one). */
  readonly git?: string;
}

const ENV = {
  GIT_OPTIONAL_LOCKS: "0",
  GIT_TERMINAL_PROMPT: "0",
  LC_ALL: "C",
  LANGUAGE: "C",
};

/** Settings that would change the output we parse, pinned whatever the user's config says. */
const PINNED = ["-c", "core.quotePath=false", "-c", "color.ui=false", "--no-pager"];

/** `git -C dir args...`; throws GitError unless its exit code is in `ok`. */
export async function git(
  dir: string,
  args: readonly string[],
  options: GitOptions = {},
): Promise<GitResult> {
  const exe = options.git ?? "git";
  let child: Deno.ChildProcess;
  try {
    child = new Deno.Command(exe, {
      args: ["-C", dir, ...PINNED, ...args],
      env: ENV,
      stdin: "null",
      stdout: "piped",
      stderr: "piped",
    }).spawn();
  } catch (error) {
    if (error instanceof Deno.errors.NotFound) {
      throw new GitError(`Git is not installed: no ${exe} on PATH`);
    }
    throw new GitError(`Cannot run ${exe}: ${(error as Error).message}`);
  }
  const max = options.maxBytes ?? 64 * 1024 * 1024;
  const [out, stderr, status] = await Promise.all([
    readCapped(child, max),
    new Response(child.stderr).text(),
    child.status,
  ]);
  const result = { code: status.code, stdout: out.text, stderr, truncated: out.truncated };
  if (!out.truncated && !(options.ok ?? [0]).includes(status.code)) {
    throw new GitError(gitFailure(dir, args, result));
  }
  return result;
}

async function readCapped(
  child: Deno.ChildProcess,
  max: number,
): Promise<{ text: string; truncated: boolean }> {
  const chunks: Uint8Array[] = [];
  let size = 0;
  let truncated = false;
  const reader = child.stdout.getReader();
  try {
    while (true) {
      const { value, done } = await reader.read();
      if (done) break;
      const room = max - size;
      if (value.length > room) {
        chunks.push(value.subarray(0, room));
        size = max;
        truncated = true;
        try {
          child.kill("SIGTERM");
        } catch { /* already gone */ }
        await reader.cancel();
        break;
      }
      chunks.push(value);
      size += value.length;
    }
  } finally {
    reader.releaseLock();
  }
  const bytes = new Uint8Array(size);
  let at = 0;
  for (const c of chunks) {
    bytes.set(c, at);
    at += c.length;
  }
  // A cut may split a UTF-8 sequence: the decoder replaces the broken tail.
  return { text: new TextDecoder().decode(bytes), truncated };
}

/** The one-line reason a git call failed (pure). */
export function gitFailure(
  dir: string,
  args: readonly string[],
  result: Pick<GitResult, "code" | "stderr">,
): string {
  const stderr = result.stderr;
  if (/not a git repository/i.test(stderr)) return `Not a git repository: ${dir}`;
  if (/cannot change to .*No such file or directory/i.test(stderr)) return `No such folder: ${dir}`;
  if (/cannot change to .*Not a directory/i.test(stderr)) return `Not a folder: ${dir}`;
  if (/dubious ownership/i.test(stderr)) {
    return `Git refuses ${dir}: it belongs to another user (see git config safe.directory)`;
  }
  const line = stderr.split("\n").map((l) => l.trim()).find((l) => l !== "");
  const why = line?.replace(/^(fatal|error): /, "") ?? `exited with code ${result.code}`;
  return `git ${args[0] ?? ""} failed in ${dir}: ${why}`;
}
