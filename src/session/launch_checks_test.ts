import assert from "node:assert/strict";
import { UserError } from "../errors.ts";
import { checkCommand, checkDirectory, checkShell, checkSize } from "./launch_checks.ts";
import { MAX_COLS, MAX_ROWS } from "./size_limit.ts";

const refused = (f: () => void, message: string) =>
  assert.throws(f, (e) => e instanceof UserError && e.message === message);

Deno.test("a directory that is missing, or a file, is refused naming it", () => {
  const dir = Deno.makeTempDirSync({ prefix: "lazyshell-checks-" });
  try {
    Deno.writeTextFileSync(`${dir}/f`, "");
    checkDirectory(dir);
    refused(() => checkDirectory(`${dir}/none`), `Working directory does not exist: ${dir}/none`);
    refused(() => checkDirectory(`${dir}/f`), `Working directory is not a directory: ${dir}/f`);
  } finally {
    Deno.removeSync(dir, { recursive: true });
  }
});

Deno.test("a size is whole, at least 2x2 and at most the largest", () => {
  checkSize(2, 2);
  checkSize(MAX_COLS, MAX_ROWS);
  const bounds = `(2x2 to ${MAX_COLS}x${MAX_ROWS})`;
  refused(() => checkSize(1, 24), `Invalid size: 1x24 ${bounds}`);
  refused(() => checkSize(80, MAX_ROWS + 1), `Invalid size: 80x${MAX_ROWS + 1} ${bounds}`);
  refused(() => checkSize(80.5, 24), `Invalid size: 80.5x24 ${bounds}`);
});

Deno.test("a shell or a simple command not on PATH is refused; shell syntax and words are the shell's", () => {
  const path = "/usr/bin:/bin";
  checkShell("sh", path);
  checkShell("/bin/sh", "");
  refused(
    () => checkShell("no-such-shell-xyz", path),
    "Shell not found: no-such-shell-xyz (config.yml shell, else $SHELL)",
  );
  checkCommand("sleep 1", path);
  refused(
    () => checkCommand("no-such-command-xyz --flag", path),
    "Command not found: no-such-command-xyz",
  );
  refused(() => checkCommand("sleep 1", undefined), "Command not found: sleep");
  // Syntax, a builtin or a keyword: the shell decides what they mean.
  checkCommand("no-such-command-xyz | cat", path);
  checkCommand("FOO=1 no-such-command-xyz", path);
  checkCommand("exec no-such-command-xyz", path);
  checkCommand("cd /tmp", "");
});
