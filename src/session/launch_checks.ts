/**
 * What a new session is checked against before its child is spawned (docs/architecture.md,
 * Sessions): its directory, its size, its shell and its command. Each throws a UserError naming
 * what is wrong, where the PTY child would only print execvp's "No such file or directory" or
 * the shell's "command not found" and exit.
 */

import { UserError } from "../errors.ts";
import { which } from "../util/fs.ts";
import { MAX_COLS, MAX_ROWS } from "./size_limit.ts";

export function checkDirectory(cwd: string): void {
  let info: Deno.FileInfo;
  try {
    info = Deno.statSync(cwd);
  } catch {
    throw new UserError(`Working directory does not exist: ${cwd}`);
  }
  if (!info.isDirectory) throw new UserError(`Working directory is not a directory: ${cwd}`);
}

export function checkSize(cols: number, rows: number): void {
  if (
    !Number.isInteger(cols) || !Number.isInteger(rows) || cols < 2 || rows < 2 ||
    cols > MAX_COLS || rows > MAX_ROWS
  ) {
    throw new UserError(`Invalid size: ${cols}x${rows} (2x2 to ${MAX_COLS}x${MAX_ROWS})`);
  }
}

/** The shell every session runs in, found on `path`. */
export function checkShell(shell: string, path: string | undefined): void {
  if (which(shell, path ?? "") === null) {
    throw new UserError(`Shell not found: ${shell} (config.yml shell, else $SHELL)`);
  }
}

const SHELL_SYNTAX = /[|&;<>()$`\\"'*?[\]#~=%{}\n]/;
const SHELL_WORDS = new Set([
  "exec",
  "cd",
  "export",
  "source",
  ".",
  "set",
  "if",
  "for",
  "while",
  "until",
  "case",
  "time",
  "eval",
  "command",
  "builtin",
  "echo",
  "printf",
  "read",
  "exit",
  "true",
  "false",
  "test",
  "[",
  "ulimit",
  "umask",
  "wait",
  "trap",
  "nohup",
  "env",
  "!",
]);

/**
 * A simple command (no shell syntax) whose program is not on PATH is
 * refused up front with a clear error instead of a session that prints
 * "command not found" and exits 127. Anything with shell syntax is the
 * shell's to judge.
 */
export function checkCommand(command: string, path: string | undefined): void {
  if (SHELL_SYNTAX.test(command)) return;
  const program = command.split(/\s+/)[0] ?? "";
  if (SHELL_WORDS.has(program)) return;
  if (which(program, path ?? "") === null) throw new UserError(`Command not found: ${program}`);
}
