/**
 * Which agent event runs which `lazyshell hook` arguments (H2): the one
 * table `init --agents` prints from, the per-launch injection (H3) uses,
 * and the tests replay captured payloads through. Pure data.
 */

/** Claude Code hook events and our arguments for each, in firing order. */
export const CLAUDE_HOOKS: readonly { readonly event: string; readonly args: readonly string[] }[] =
  [
    // 46 ms after Enter; the turn starts.
    { event: "UserPromptSubmit", args: ["working"] },
    // The moment a permission or AskUserQuestion prompt opens (kind from tool_name).
    { event: "PermissionRequest", args: ["blocked", "--kind", "permission"] },
    // After an approved tool ran: back to work.
    { event: "PostToolUse", args: ["working"] },
    // permission_prompt (6 s late) → blocked; any other notification → idle (H3).
    { event: "Notification", args: ["blocked"] },
    // End of turn (never fires on Esc: the screen or OSC 7501 covers interrupts).
    { event: "Stop", args: ["done"] },
    // Instead of Stop when the turn failed on the model API (kind from its `error` type).
    { event: "StopFailure", args: ["error"] },
  ];

/** Codex `notify` only reports agent-turn-complete: done only. */
export const CODEX_NOTIFY_ARGS: readonly string[] = ["done"];

/** Quotes one word for POSIX sh (hook commands are run by `sh -c`). */
export function shellQuote(word: string): string {
  return /^[\w@%+=:,./-]+$/.test(word) ? word : `'${word.replaceAll("'", `'\\''`)}'`;
}

/** `<self> hook <args>` as one shell command line. */
export function hookCommand(self: readonly string[], args: readonly string[]): string {
  return [...self, "hook", ...args].map(shellQuote).join(" ");
}

/** Claude Code `settings.json` content holding lazyshell's hooks. */
export function claudeSettings(self: readonly string[]): {
  hooks: Record<string, { hooks: { type: "command"; command: string; timeout: number }[] }[]>;
} {
  const hooks: Record<
    string,
    { hooks: { type: "command"; command: string; timeout: number }[] }[]
  > = {};
  for (const { event, args } of CLAUDE_HOOKS) {
    // timeout is Claude's, in seconds; ours gives up well before (H1).
    hooks[event] = [{ hooks: [{ type: "command", command: hookCommand(self, args), timeout: 5 }] }];
  }
  return { hooks };
}

/** Codex `config.toml` line: Codex appends its JSON as the last argument. */
export function codexNotifyLine(self: readonly string[]): string {
  const argv = [...self, "hook", ...CODEX_NOTIFY_ARGS];
  return `notify = [${argv.map((a) => JSON.stringify(a)).join(", ")}]`;
}

/**
 * True when a session command launches Claude Code directly (`claude ...`,
 * `/path/to/claude ...`), with no shell syntax around it and no --settings
 * of its own: only then can its hooks be added for that launch (H3).
 */
export function isPlainClaudeCommand(command: string): boolean {
  if (/[|&;<>()$`\\"'*?[\]#~{}\n]/.test(command)) return false;
  const words = command.trim().split(/\s+/);
  const program = words[0] ?? "";
  if (program.split("/").pop() !== "claude") return false;
  return !words.some((w) => w === "--settings" || w.startsWith("--settings="));
}
