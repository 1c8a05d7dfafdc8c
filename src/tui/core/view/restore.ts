/**
 * The restore offer's box (docs/restore.md): each saved session with a
 * check mark, its group and what restoring it does; the keys from the
 * keymap's `restore` scope underneath.
 */

import type { Overlay } from "../../../model/tui.ts";
import type { Frame, Span } from "../frame.ts";
import { hints, type Keymap } from "../keymap.ts";
import type { Rect } from "../layout.ts";
import { stringWidth } from "../../../util/width.ts";
import { box, centered } from "./overlays.ts";
import { theme } from "./theme.ts";

type RestoreOverlay = Extract<Overlay, { type: "restore" }>;

export function drawRestore(frame: Frame, body: Rect, o: RestoreOverlay, keymap: Keymap): void {
  const lines: Span[][] = [];
  if (o.problem) lines.push([{ text: ` ${o.problem}`, style: theme.messageError }]);
  const nameW = Math.max(...o.items.map((c) => stringWidth(c.name)));
  const groupW = Math.max(0, ...o.items.map((c) => (c.group ? stringWidth(c.group) + 3 : 0)));
  const first = lines.length;
  for (const c of o.items) {
    lines.push([
      { text: c.picked ? " [x] " : " [ ] ", style: theme.key },
      { text: c.name.padEnd(nameW + 1), style: theme.bold },
      { text: (c.group ? `[${c.group}] ` : "").padEnd(groupW), style: theme.group },
      { text: c.how, style: theme.dim },
    ]);
  }
  lines.push([]);
  if (o.typed) {
    lines.push([{
      text: " Typed keys do nothing here: ↑ or ↓ first, esc closes",
      style: theme.messageError,
    }]);
  }
  const keys: Span[] = [{ text: " " }];
  for (const h of hints(keymap, "restore")) {
    keys.push({ text: h.key, style: theme.key }, { text: ` ${h.label}  `, style: theme.hint });
  }
  const all = o.items.length === 1 ? "the saved session" : `all ${o.items.length} saved sessions`;
  lines.push(
    o.forgetting
      ? [
        { text: ` Forget ${all} for good? `, style: theme.messageError },
        { text: "y", style: theme.key },
        { text: " forget · any other key keeps them", style: theme.hint },
      ]
      : keys,
  );
  const width = Math.max(...lines.map((l) => stringWidth(l.map((s) => s.text).join("")))) + 3;
  const n = o.items.length;
  const title = `Restore ${n} session${n === 1 ? "" : "s"} saved before the server ended`;
  const r = centered(body, Math.max(width, stringWidth(title) + 6), lines.length + 2);
  // Long lists: keep the selected row in the box (rows above it scroll away).
  const room = r.height - 2 - (lines.length - n - first);
  const skip = Math.max(0, Math.min(o.index - room + 1, n - room));
  const shown = skip > 0 ? [...lines.slice(0, first), ...lines.slice(first + skip)] : lines;
  // A blank cell around the box (within the body): the pane's text never runs up to its border.
  const x0 = Math.max(body.x, r.x - 1);
  const y0 = Math.max(body.y, r.y - 1);
  const x1 = Math.min(body.x + body.width, r.x + r.width + 1);
  const y1 = Math.min(body.y + body.height, r.y + r.height + 1);
  frame.fill(x0, y0, x1 - x0, y1 - y0);
  box(frame, r, title, shown, first + o.index - skip);
}
