/**
 * Keys while an overlay is open: help, quit confirmation, restart choice,
 * the input line (rename, watcher pattern) and the command palette. Pure.
 */

import type { ResumePolicy } from "../../limits/resume.ts";
import type { Overlay, TuiState } from "../../model/tui.ts";
import type { UserInput } from "./keys.ts";
import { helpRows, type Keymap } from "./keymap.ts";
import { layout } from "./layout.ts";
import { helpTop, paletteItems } from "./view/overlays.ts";
import { act } from "./actions.ts";
import { answerable, blockedRows } from "./view/answer.ts";
import { searchEffect } from "./copy_mode.ts";
import { restoreInput } from "./restore_offer.ts";
import { edit } from "./line_edit.ts";
import { newAgentInput } from "./new_agent.ts";
import type { TuiEffect } from "./events.ts";

/** `P`'s keys (docs/limits.md): off, ask, auto, or default (none set: the next level's). */
const POLICY_KEYS: Readonly<Record<string, ResumePolicy | null>> = {
  o: "off",
  a: "ask",
  u: "auto",
  d: null,
};

/** Keys that scroll the help list (rows a press). */
const HELP_STEPS: Readonly<Record<string, number>> = {
  j: 1,
  down: 1,
  k: -1,
  up: -1,
  pgdown: 10,
  space: 10,
  pgup: -10,
};

export function overlayInput(
  s: TuiState,
  o: Overlay,
  ev: UserInput,
  keymap: Keymap,
  fx: TuiEffect[],
): TuiState {
  if (ev.type === "mouse") return s;
  if (o.type === "new-agent") return newAgentInput(s, o, ev, fx);
  const close = { ...s, overlay: null };
  const name = ev.type === "key" ? ev.name : "";
  switch (o.type) {
    case "help": {
      if (ev.type !== "key") return s;
      if (["esc", "?", "q", "enter"].includes(name)) return close;
      const step = HELP_STEPS[name];
      if (step === undefined) return s;
      const height = layout(s.cols, s.rows).body.height;
      const top = helpTop((o.top ?? 0) + step, helpRows(keymap).length, height);
      return { ...s, overlay: { type: "help", top } };
    }
    // The questions that end something: their keys act, any other key cancels (tmux's
    // confirm-before), so text typed in navigation mode by mistake ends nothing.
    case "confirm-quit":
      if (name === "y" || name === "Y") fx.push({ type: "quit" });
      if (name === "d" || name === "D") fx.push({ type: "detach" });
      return close;
    case "answer": {
      const p = o.prompt;
      const n = /^[1-9]$/.test(name) ? Number(name) : null;
      const choice = n !== null && n <= p.options.length
        ? { type: "option" as const, n }
        : (name === "y" && p.approve !== null)
        ? { type: "approve" as const }
        : (name === "n" && (p.deny !== null || p.cancel !== null))
        ? { type: "deny" as const }
        : null;
      // Any other key closes it unanswered: `oh yes` typed by mistake approves nothing.
      if (choice === null) return close;
      fx.push({ type: "answer", id: o.target, choice, shown: p });
      return close;
    }
    case "inbox": {
      const rows = blockedRows(s.sessions);
      if (name === "esc" || name === "q") return close;
      if (name === "j" || name === "down") {
        return { ...s, overlay: { ...o, index: Math.min(rows.length - 1, o.index + 1) } };
      }
      if (name === "k" || name === "up") {
        return { ...s, overlay: { ...o, index: Math.max(0, o.index - 1) } };
      }
      const row = rows[o.index];
      if (!row) return s;
      if (name === "enter") return { ...close, selected: row.id, tab: 0 };
      if (name === "o") {
        const picked = { ...close, selected: row.id, tab: 0 };
        return answerable(row)
          ? { ...picked, overlay: { type: "answer", target: row.id, prompt: row.prompt } }
          : picked;
      }
      return s;
    }
    case "worktree-choice":
      // k: the session goes as any other (the worktree stays, `ctl worktrees` lists it).
      if (name === "k") {
        fx.push(
          o.running
            ? { type: "kill", id: o.target, confirmed: true }
            : { type: "remove", id: o.target },
        );
      }
      if (name === "w" || name === "b") {
        fx.push({ type: "finish-worktree", id: o.target, keepBranch: name === "w" });
      }
      return close;
    case "confirm-kill":
      if (name === "y" || name === "Y") {
        fx.push(
          o.restart
            ? { type: "restart", ids: o.ids ?? [o.target], confirmed: true }
            : { type: "kill", id: o.target, confirmed: true },
        );
      }
      return close;
    case "restore":
      return restoreInput(s, o, ev, keymap, fx);
    case "limit-policy": {
      if (name === "g" && o.group !== null) return { ...s, overlay: { ...o, scope: "group" } };
      if (name === "s") return { ...s, overlay: { ...o, scope: "session" } };
      const policy = POLICY_KEYS[name];
      if (policy === undefined) return name === "esc" ? close : s;
      fx.push({
        type: "limit-policy",
        id: o.target,
        group: o.scope === "group" ? o.group : null,
        policy,
      });
      return close;
    }
    case "restart-choice":
      if (name === "s") fx.push({ type: "restart", ids: [o.target], confirmed: true });
      if (name === "g") {
        const ids = s.sessions.filter((r) => r.group === o.group).map((r) => r.id);
        fx.push({ type: "restart", ids, confirmed: true });
      }
      return close;
    case "input": {
      if (ev.type === "paste") {
        return { ...s, overlay: { ...o, text: o.text + ev.text.replace(/[\r\n]+/g, " ") } };
      }
      if (name === "esc") return close;
      if (name === "enter") {
        const text = o.text.trim();
        if (o.purpose === "rename") {
          if (text) fx.push({ type: "rename", id: o.target, name: text });
          return close;
        }
        if (o.purpose === "search") {
          if (o.text !== "") fx.push(searchEffect(s, o.target, o.text));
          return close;
        }
        // The session's `watcher` follows the watchers engine, which may refuse a pattern.
        fx.push({ type: "watch", id: o.target, pattern: text || null });
        return close;
      }
      return { ...s, overlay: { ...o, text: edit(o.text, ev) } };
    }
    case "palette": {
      if (ev.type === "paste") return s;
      const items = paletteItems(s, keymap);
      if (name === "esc") return close;
      if (name === "up" || name === "ctrl+p") {
        return { ...s, overlay: { ...o, index: Math.max(0, o.index - 1) } };
      }
      if (name === "down" || name === "ctrl+n" || name === "tab") {
        return { ...s, overlay: { ...o, index: Math.min(items.length - 1, o.index + 1) } };
      }
      if (name === "enter") {
        const item = items[o.index];
        if (!item) return close;
        if (keymap.bindings.some((b) => b.action === item.name) || item.name === "restart-group") {
          return act(close, item.name, null, fx);
        }
        fx.push({ type: "tab-command", tab: item.tab ?? s.tab, name: item.command ?? item.name });
        return close;
      }
      const query = edit(o.query, ev);
      return query === o.query ? s : { ...s, overlay: { ...o, query, index: 0 } };
    }
  }
}
