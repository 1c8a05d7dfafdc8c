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
  ];

/** Codex `notify` only reports agent-turn-complete: done only. */
export const CODEX_NOTIFY_ARGS: readonly string[] = ["done"];
