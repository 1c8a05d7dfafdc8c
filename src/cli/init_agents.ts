/**
 * `lazyshell init --agents [claude|codex|opencode]` (H2): prints the
 * ready-to-paste integration of each agent, commands using the stable
 * absolute path of the running lazyshell (stableCommand in
 * src/plugin/self.ts: the installed command, never a package-manager
 * cache). With an agent name only that piece is printed, as is, so it can
 * be piped into a file.
 */

import { UserError } from "../errors.ts";
import { claudeSettings, codexNotifyLine } from "../ipc/integrations.ts";
import { opencodePlugin } from "../ipc/opencode_plugin.ts";
import { stableCommand } from "../plugin/self.ts";

export const AGENT_INTEGRATIONS = ["claude", "codex", "opencode"] as const;
type Agent = typeof AGENT_INTEGRATIONS[number];

export function agentSnippet(agent: Agent, self: readonly string[]): string {
  switch (agent) {
    case "claude":
      return JSON.stringify(claudeSettings(self), null, 2);
    case "codex":
      return codexNotifyLine(self);
    case "opencode":
      return opencodePlugin();
  }
}

const HEADERS: Record<Agent, string> = {
  claude: [
    '# Claude Code: merge the "hooks" key into ~/.claude/settings.json (or a project\'s',
    "# .claude/settings.json). PermissionRequest reports a prompt at once (Notification comes 6 s",
    "# later); AskUserQuestion is reported as kind question; a Notification that is not a",
    "# permission prompt means idle. Stop never fires on Esc: the screen or OSC 7501 covers it.",
  ].join("\n"),
  codex: [
    "# Codex: add at the top level of ~/.codex/config.toml. Codex only reports the end of a",
    "# turn (agent-turn-complete), so this gives done; its hidden title request is ignored.",
  ].join("\n"),
  opencode: [
    "# opencode: save as ~/.config/opencode/plugin/lazyshell.js",
    "# (lazyshell init --agents opencode > ~/.config/opencode/plugin/lazyshell.js).",
    "# Reports working, blocked (permission/question), done, and idle after an interrupt.",
  ].join("\n"),
};

export function agentsText(
  only: string | undefined,
  self: readonly string[] = stableCommand().command,
): string {
  if (only !== undefined) {
    if (!(AGENT_INTEGRATIONS as readonly string[]).includes(only)) {
      throw new UserError(
        `Unknown agent: ${only} (expected ${AGENT_INTEGRATIONS.join(", ")})`,
      );
    }
    return agentSnippet(only as Agent, self).trimEnd();
  }
  return AGENT_INTEGRATIONS.map((agent) =>
    `${HEADERS[agent]}\n\n${agentSnippet(agent, self).trimEnd()}`
  ).join("\n\n");
}
