/**
 * A session's setup command (SessionSpec `prelude`: a new worktree's setup, docs/architecture.md,
 * "Agent sessions and worktrees"): shown and run first in the session's PTY, the session's own
 * command only once it succeeded.
 */

/**
 * `prelude`, shown and run first, then `command` (the shell when empty) in
 * its place: through `sh -c` whatever the user's shell, the prelude passed
 * as an argument (never spliced into the script).
 */
export function withPrelude(prelude: string, command: string): string {
  const script = [
    String.raw`printf '\033[2m$ %s\033[0m\n' "$1"`,
    `sh -c "$1"`,
    `code=$?`,
    String
      .raw`if [ "$code" -ne 0 ]; then printf '\033[31mlazyshell: the setup command failed (exit %s)\033[0m\n' "$code"; exit "$code"; fi`,
    command ? `exec ${command}` : `exec "\${SHELL:-/bin/sh}"`,
  ].join("\n");
  return `exec sh -c ${shellQuote(script)} lazyshell-setup ${shellQuote(prelude)}`;
}

function shellQuote(s: string): string {
  return `'${s.replaceAll("'", `'\\''`)}'`;
}
