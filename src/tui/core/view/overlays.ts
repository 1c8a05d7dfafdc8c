/**
 * Boxes drawn over the body: the help overlay (`?`, generated from the
 * keymap) and the command palette (`:`).
 */

import type { TuiState } from "../../../model/tui.ts";
import { clipLine, type Frame, INVERSE, type Span, type StyledLine } from "../frame.ts";
import { helpRows, type Keymap } from "../keymap.ts";
import type { Rect } from "../layout.ts";
import { stringWidth, truncate } from "../../../util/width.ts";
import { EXITED_MARKER, NO_STATUS_MARKER } from "./marker.ts";
import { theme } from "./theme.ts";

export interface PaletteItem {
  /** Keymap action, `restart-group`, or `<id> <command>` of a plugin tab. */
  readonly name: string;
  readonly help: string;
  /** For a tab command: the tab (1-based) and the command's own name. */
  readonly tab?: number;
  readonly command?: string;
}

const PALETTE_SKIP = new Set(["up", "down", "goto-tab", "palette", "unfocus"]);

/** Every palette entry for the current state, then filtered by the query. */
export function paletteItems(state: TuiState, keymap: Keymap): PaletteItem[] {
  const items: PaletteItem[] = keymap.bindings
    .filter((b) => b.scope === "navigation" && !PALETTE_SKIP.has(b.action))
    .map((b) => ({ name: b.action, help: b.help }));
  items.push({ name: "restart-group", help: "Restart every session of the selected group" });
  // Every tab's commands as `<id> <name>` (P3), the active tab's first.
  const order = state.tabs.map((_, i) => i + 1).sort((a, b) =>
    (b === state.tab ? 1 : 0) - (a === state.tab ? 1 : 0)
  );
  for (const index of order) {
    const tab = state.tabs[index - 1]!;
    const id = tab.id ?? tab.title.toLowerCase();
    for (const c of tab.commands) {
      items.push({ name: `${id} ${c.name}`, help: c.help, tab: index, command: c.name });
    }
  }
  const q = state.overlay?.type === "palette" ? state.overlay.query.toLowerCase() : "";
  return items.filter((i) => i.name.includes(q) || i.help.toLowerCase().includes(q));
}

/** A rounded box with `title` on its top border; `selected` row drawn inverse. */
export function box(
  frame: Frame,
  r: Rect,
  title: string,
  lines: readonly StyledLine[],
  selected = -1,
): void {
  if (r.width < 4 || r.height < 3) return;
  const inner = r.width - 2;
  frame.text(r.x, r.y, "╭" + "─".repeat(inner) + "╮", theme.box);
  frame.text(r.x + 2, r.y, truncate(` ${title} `, inner - 2), theme.title);
  for (let i = 0; i < r.height - 2; i++) {
    const y = r.y + 1 + i;
    frame.text(r.x, y, "│", theme.box);
    // Whatever does not fit ends in `…`, never silently cut.
    const line = clipLine(lines[i] ?? [], inner);
    if (i === selected) {
      const inverse = line.map((s) => ({
        ...s,
        style: { ...s.style, attrs: (s.style?.attrs ?? 0) | INVERSE },
      }));
      frame.line(r.x + 1, y, inner, inverse, theme.paletteSelected);
    } else {
      frame.line(r.x + 1, y, inner, line);
    }
    frame.text(r.x + r.width - 1, y, "│", theme.box);
  }
  frame.text(r.x, r.y + r.height - 1, "╰" + "─".repeat(inner) + "╯", theme.box);
}

/** A rect of at most width × height centred in `body`. */
export function centered(body: Rect, width: number, height: number): Rect {
  const w = Math.min(body.width, width);
  const h = Math.min(body.height, height);
  return {
    x: body.x + Math.floor((body.width - w) / 2),
    y: body.y + Math.floor((body.height - h) / 2),
    width: w,
    height: h,
  };
}

/** Key rows the help box shows in a body `height` rows tall (a border and a 3-line footer). */
function helpRoom(height: number): number {
  return Math.max(1, height - 2 - 3);
}

/** The first key row shown: `top` kept within the list. */
export function helpTop(top: number, rows: number, height: number): number {
  return Math.max(0, Math.min(top, rows - helpRoom(height)));
}

export function drawHelp(frame: Frame, body: Rect, keymap: Keymap, top = 0): void {
  const rows = helpRows(keymap);
  const keyW = Math.max(...rows.map(([k]) => stringWidth(k)));
  const keyLines: Span[][] = rows.map(([k, h]) => [
    { text: " " + k.padEnd(keyW + 2), style: theme.key },
    { text: h },
  ]);
  // The key rows scroll (j/k, pgup/pgdown) when the screen is too short; the footer stays.
  const room = helpRoom(body.height);
  const scrolls = keyLines.length > room;
  const first = helpTop(top, keyLines.length, body.height);
  const shown = keyLines.slice(first, first + room);
  const footer: Span[][] = [
    [],
    [{
      text:
        ` Markers: ‼ blocked  ✗ failed  … working  ✓ done  · idle  ● output  ${NO_STATUS_MARKER} no status  ${EXITED_MARKER} exited`,
      style: theme.dim,
    }],
    [{ text: scrolls ? " j/k scroll · esc or ? closes" : " esc or ? closes", style: theme.dim }],
  ];
  const lines = [...shown, ...footer];
  const width =
    Math.max(...[...keyLines, ...footer].map((l) => stringWidth(l.map((s) => s.text).join("")))) +
    3;
  const title = scrolls
    ? `Keys ${first + 1}–${first + shown.length} of ${keyLines.length}`
    : "Keys";
  box(frame, centered(body, width, lines.length + 2), title, lines);
}

export function drawPalette(frame: Frame, body: Rect, state: TuiState, keymap: Keymap): void {
  if (state.overlay?.type !== "palette") return;
  const items = paletteItems(state, keymap);
  const w = Math.min(body.width, 64);
  const h = Math.min(body.height, items.length + 3);
  const r = { x: body.x + Math.floor((body.width - w) / 2), y: body.y, width: w, height: h };
  const lines: Span[][] = [[{ text: ":", style: theme.key }, { text: state.overlay.query }]];
  const nameW = Math.max(0, ...items.map((i) => stringWidth(i.name)));
  for (const item of items) {
    lines.push([{ text: " " + item.name.padEnd(nameW + 2), style: theme.bold }, {
      text: item.help,
      style: theme.dim,
    }]);
  }
  if (items.length === 0) lines.push([{ text: " no match", style: theme.dim }]);
  box(frame, r, "Command", lines, state.overlay.index + 1);
  if (r.height >= 3 && r.width >= 4) {
    const x = r.x + 2 + stringWidth(state.overlay.query);
    if (x < r.x + r.width - 1) frame.cursor = { x, y: r.y + 1 };
  }
}
