/**
 * The restore offer (docs/restore.md): the saved sessions of an earlier
 * server in a list, all checked; restore all, none, or the checked ones.
 * Its keys are the keymap's `restore` scope, moving uses the sessions
 * list's up/down. Pure, like the reducer that calls it.
 */

import type { Overlay, RestoreChoice, TuiState } from "../../model/tui.ts";
import type { UserInput } from "./keys.ts";
import type { Keymap } from "./keymap.ts";
import type { TuiEffect } from "./events.ts";

type RestoreOverlay = Extract<Overlay, { type: "restore" }>;

/** Opens the offer (nothing waits: says so). */
export function offerRestore(
  s: TuiState,
  items: readonly Omit<RestoreChoice, "picked">[],
  problem: string | null,
): TuiState {
  if (items.length === 0) {
    const text = problem ?? "Nothing to restore: no saved session is waiting";
    return { ...s, message: { text, error: problem !== null } };
  }
  if (s.overlay !== null && s.overlay.type !== "restore") return s;
  const choices = items.map((i) => ({ ...i, picked: true }));
  return { ...s, overlay: { type: "restore", items: choices, index: 0, problem } };
}

export function restoreInput(
  s: TuiState,
  o: RestoreOverlay,
  ev: UserInput,
  keymap: Keymap,
  fx: TuiEffect[],
): TuiState {
  if (ev.type !== "key") return s;
  const names = (pick: (c: RestoreChoice) => boolean) => o.items.filter(pick).map((c) => c.name);
  const close = { ...s, overlay: null };
  if (o.forgetting) {
    // `N` is also the new-agent key, pressed as a client attaches: forgetting asks first. Any key
    // but y keeps them, and counts as typing elsewhere in mind (as below).
    if (ev.name !== "y" && ev.name !== "Y") {
      return { ...s, overlay: { ...o, forgetting: false, typed: true } };
    }
    fx.push({ type: "restore", names: [], forget: names(() => true) });
    return close;
  }
  const own = keymap.restore.get(ev.name);
  const nav = keymap.navigation.get(ev.name);
  const action = own ?? (nav === "up" || nav === "down" ? nav : undefined);
  // The offer takes only its own keys; any other means the user is typing elsewhere in mind
  // (`claude`, whose `a` is restore-all): from then on only esc and the arrows act, and an
  // arrow key (never typed in a word) gives the offer its keys back.
  if (action === undefined) return o.typed ? s : { ...s, overlay: { ...o, typed: true } };
  if (o.typed && action !== "restore-later") {
    if (ev.name !== "up" && ev.name !== "down") return s;
    o = { ...o, typed: false };
  }
  switch (action) {
    case "down":
      return { ...s, overlay: { ...o, index: Math.min(o.items.length - 1, o.index + 1) } };
    case "up":
      return { ...s, overlay: { ...o, index: Math.max(0, o.index - 1) } };
    case "restore-toggle": {
      const items = o.items.map((c, i) => (i === o.index ? { ...c, picked: !c.picked } : c));
      return { ...s, overlay: { ...o, items } };
    }
    case "restore-picked":
      fx.push({ type: "restore", names: names((c) => c.picked), forget: names((c) => !c.picked) });
      return close;
    case "restore-all":
      fx.push({ type: "restore", names: names(() => true), forget: [] });
      return close;
    case "restore-none":
      return { ...s, overlay: { ...o, forgetting: true } };
    case "restore-later":
      return close;
    default:
      return s;
  }
}
