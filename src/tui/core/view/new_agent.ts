/**
 * The new agent session form (`N`, src/tui/core/new_agent.ts): the agents with
 * their versions (installed first; the chosen one marked), the folder, the
 * first prompt, the name it gives (dim while it comes from the prompt) and
 * the worktree choice with the branch it would make. The focused field's
 * label is highlighted and the cursor sits at the end of its text.
 */

import type { NewAgentForm } from "../../../model/tui.ts";
import type { Frame, Span } from "../frame.ts";
import type { Rect } from "../layout.ts";
import { stringWidth, truncate } from "../../../util/width.ts";
import { formName } from "../new_agent.ts";
import { branchName } from "../../../git/branch_name.ts";
import { box, centered } from "./overlays.ts";
import { theme } from "./theme.ts";

const LABEL = 10;
const LIST_ROWS = 4;

export function drawNewAgent(frame: Frame, body: Rect, o: NewAgentForm): void {
  const width = Math.min(body.width, 76);
  const inner = width - 2;
  const label = (text: string, field: NewAgentForm["field"]): Span => ({
    text: ` ${text}`.padEnd(LABEL),
    style: o.field === field ? theme.tabActive : theme.key,
  });
  const lines: Span[][] = [];
  const agents = o.agents;
  if (agents === null) {
    lines.push([label("Agent", "agent"), { text: "looking for agents…", style: theme.dim }]);
  } else {
    const at = Math.max(0, agents.findIndex((a) => a.id === o.agent));
    const from = Math.max(0, Math.min(at - 1, agents.length - LIST_ROWS));
    agents.slice(from, from + LIST_ROWS).forEach((a, k) => {
      const chosen = a.id === o.agent;
      const what = a.installed ? (a.version ?? "installed") : "not installed";
      lines.push([
        k === 0 ? label("Agent", "agent") : { text: " ".repeat(LABEL) },
        { text: chosen ? "▸ " : "  ", style: theme.key },
        {
          text: a.name.padEnd(16),
          style: chosen ? theme.bold : a.installed ? theme.text : theme.dim,
        },
        { text: " " + what, style: theme.dim },
      ]);
    });
    if (agents.length > LIST_ROWS) {
      lines.push([{
        text: " ".repeat(LABEL + 2) + `↑↓ ${agents.length} agents`,
        style: theme.dim,
      }]);
    }
  }
  const fields: [string, NewAgentForm["field"], string, boolean][] = [
    ["Folder", "folder", o.folder, false],
    [
      "Prompt",
      "prompt",
      o.prompt || (o.field === "prompt" ? "" : "(none: just start it)"),
      !o.prompt,
    ],
    ["Name", "name", o.name || formName(o), !o.name],
  ];
  const cursorRow: Record<string, number> = {};
  for (const [text, field, value, dim] of fields) {
    cursorRow[field] = lines.length;
    lines.push([label(text, field), { text: value, style: dim ? theme.dim : theme.text }]);
  }
  const branch = branchName(o.branchPrefix, formName(o));
  lines.push([
    label("Worktree", "worktree"),
    { text: o.worktree ? "[x] " : "[ ] ", style: theme.key },
    {
      text: o.worktree ? `a new one, on branch ${branch}` : "no: in the folder itself (space: yes)",
      style: o.worktree ? theme.text : theme.dim,
    },
  ]);
  lines.push([]);
  lines.push([{
    text: " enter start · tab/↑↓ field · ↑↓ agent · space worktree · esc cancel",
    style: theme.dim,
  }]);
  const r = centered(body, width, lines.length + 2);
  box(frame, r, "New agent session", lines);
  // The cursor at the end of the focused text field, when it fits.
  const row = cursorRow[o.field];
  if (row !== undefined && row + 1 < r.height - 1) {
    const value = o.field === "folder" ? o.folder : o.field === "prompt" ? o.prompt : o.name;
    const x = r.x + 1 + LABEL + stringWidth(truncate(value, inner - LABEL));
    if (x < r.x + r.width - 1) frame.cursor = { x, y: r.y + 1 + row };
  } else {
    frame.cursor = null;
  }
}
