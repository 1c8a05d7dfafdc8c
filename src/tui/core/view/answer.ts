/**
 * Answering from the list: what the selected blocked session asks, drawn
 * at the bottom of its pane (the whole pane width, not the sidebar's); the
 * answer overlay (`o`: a digit, `y` approve, `n` deny); and the inbox (`I`):
 * every blocked session with its question. Pure.
 */

import type { Prompt } from "../../../model/prompt.ts";
import type { SessionView } from "../../../model/session.ts";
import type { TuiState } from "../../../model/tui.ts";
import { clipLine, type Frame, type Span, type StyledLine } from "../frame.ts";
import { bindingOf, type Keymap } from "../keymap.ts";
import type { Rect } from "../layout.ts";
import { box, centered } from "./overlays.ts";
import { stringWidth, truncate } from "../../../util/width.ts";
import { theme } from "./theme.ts";
import { remoteRow } from "../remote_rows.ts";

/** Options shown in the panel; more are listed by the answer overlay. */
const PANEL_OPTIONS = 6;

/** A running session blocked on a prompt lazyshell could read. */
export function answerable(row: SessionView | null | undefined): row is SessionView & {
  prompt: Prompt;
} {
  return !!row && row.status === "running" && row.agentStatus?.state === "blocked" &&
    row.prompt !== null;
}

/**
 * What a blocked session asks, in one line: the agent's own message, else
 * the prompt read from its screen (what it is about, else the question),
 * else its kind.
 */
export function askedText(row: SessionView): string {
  const st = row.agentStatus;
  if (st?.msg) return st.msg;
  const p = row.prompt;
  if (p) return p.subject ? `${p.question} ${p.subject}` : p.question;
  return `needs you${st?.kind ? `: ${st.kind}` : ""}`;
}

/** The sessions that wait for an answer, in list order. */
export function blockedRows(sessions: readonly SessionView[]): SessionView[] {
  return sessions.filter((s) => s.status === "running" && s.agentStatus?.state === "blocked");
}

function keyLabel(keys: readonly string[]): string {
  return keys.length === 1 ? keys[0]! : keys.join(" ");
}

/** The prompt's lines, `width` columns wide: a long option label is cut, never its keys. */
function promptLines(prompt: Prompt, max: number, width: number): StyledLine[] {
  const lines: StyledLine[] = [[{ text: ` ${prompt.question}`, style: theme.bold }]];
  if (prompt.subject) lines.push([{ text: `   ${prompt.subject}`, style: theme.dim }]);
  prompt.options.slice(0, max).forEach((o, i) => {
    const tags: Span[] = [];
    if (prompt.approve === i + 1) tags.push({ text: "  (y)", style: theme.dim });
    if (prompt.deny === i + 1) tags.push({ text: "  (n)", style: theme.dim });
    const head = { text: `   ${i + 1} `, style: theme.key };
    const keys = { text: `  [${keyLabel(o.keys)}]`, style: theme.hint };
    const fixed = [head, keys, ...tags].reduce((w, s) => w + stringWidth(s.text), 0);
    lines.push([head, { text: truncate(o.label, Math.max(1, width - fixed)) }, keys, ...tags]);
  });
  if (prompt.options.length > max) {
    lines.push([{ text: `   … ${prompt.options.length - max} more (o)`, style: theme.dim }]);
  }
  if (prompt.cancel) {
    lines.push([{ text: `   Esc cancels [${keyLabel(prompt.cancel)}]`, style: theme.hint }]);
  }
  return lines;
}

/** The panel under a blocked session's screen: its question, what it is about, the options. */
export function drawAnswerPanel(frame: Frame, r: Rect, row: SessionView, keymap: Keymap): void {
  if (!answerable(row) || r.height < 4 || r.width < 10) return;
  const answer = bindingOf(keymap, "answer")?.keys[0] ?? "o";
  const inbox = bindingOf(keymap, "inbox")?.keys[0] ?? "I";
  const body = promptLines(row.prompt, PANEL_OPTIONS, r.width);
  // The longest wording that fits: every key stays readable in a narrow pane.
  const hints = (here: string, all: string, type: string): StyledLine => [
    { text: " " },
    { text: answer, style: theme.key },
    { text: here },
    { text: inbox, style: theme.key },
    { text: all },
    { text: "enter", style: theme.key },
    { text: type },
  ];
  const hint = [
    hints(" answer here · ", " every blocked session · ", " type into it"),
    hints(" answer · ", " inbox · ", " type into it"),
    hints(" answer · ", " inbox · ", " type"),
  ].find((h) => h.reduce((w, s) => w + stringWidth(s.text), 0) <= r.width) ??
    hints(" answer · ", " inbox · ", " type");
  const lines = [...body, hint];
  const height = Math.min(lines.length + 1, Math.floor(r.height / 2));
  const top = r.y + r.height - height;
  const rule = `‼ ${row.name} needs you `;
  frame.line(r.x, top, r.width, [
    { text: rule, style: theme.blockedBanner },
    { text: "─".repeat(Math.max(0, r.width - rule.length)), style: theme.blocked },
  ]);
  // When the pane is short, the hint and the first options matter most.
  const shown = lines.length > height - 1 ? [...body.slice(0, height - 2), hint] : lines;
  shown.forEach((line, i) => frame.line(r.x, top + 1 + i, r.width, clipLine(line, r.width)));
}

/** `o`: the prompt with every option; a digit chooses, `y` approves, `n` denies, esc closes. */
export function drawAnswerOverlay(frame: Frame, body: Rect, state: TuiState): void {
  const o = state.overlay;
  if (o?.type !== "answer" || body.width < 12 || body.height < 5) return;
  const row = state.sessions.find((s) => s.id === o.target) ?? remoteRow(state, o.target)?.row;
  const width = Math.min(body.width, 72);
  const lines = promptLines(o.prompt, 9, width - 2);
  const keys: Span[] = [{ text: " " }, {
    text: `1–${Math.min(9, o.prompt.options.length)}`,
    style: theme.key,
  }, {
    text: " choose",
  }];
  if (o.prompt.approve !== null) {
    keys.push({ text: " · " }, { text: "y", style: theme.key }, { text: " approve" });
  }
  if (o.prompt.deny !== null || o.prompt.cancel !== null) {
    keys.push({ text: " · " }, { text: "n", style: theme.key }, { text: " deny" });
  }
  keys.push({ text: " · " }, { text: "esc", style: theme.key }, { text: " close" });
  lines.push([], keys);
  box(frame, centered(body, width, lines.length + 2), `Answer ${row?.name ?? o.target}`, lines);
}

/** `I`: every blocked session with what it asks; enter jumps, `o` answers. */
export function drawInbox(frame: Frame, body: Rect, state: TuiState): void {
  const o = state.overlay;
  if (o?.type !== "inbox" || body.width < 12 || body.height < 5) return;
  const rows = blockedRows(state.sessions);
  const lines: StyledLine[] = rows.length === 0
    ? [[{ text: " No session waits for you", style: theme.dim }]]
    : rows.map((s, i) => {
      const asks = askedText(s);
      const line: StyledLine = [
        { text: ` ‼ ${s.name}`, style: theme.blocked },
        { text: `  ${asks}` },
      ];
      return i === o.index ? line.map((sp) => ({ ...sp, style: theme.paletteSelected })) : line;
    });
  lines.push([], [
    { text: " j/k", style: theme.key },
    { text: " move · " },
    { text: "enter", style: theme.key },
    { text: " go there · " },
    { text: "o", style: theme.key },
    { text: " answer · " },
    { text: "esc", style: theme.key },
    { text: " close" },
  ]);
  box(frame, centered(body, Math.min(body.width, 100), lines.length + 2), "Waiting for you", lines);
}
