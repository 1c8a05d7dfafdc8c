/** Helpers for the TUI's pure tests: host bytes as input events, a run of the reducer. */

import type { TuiState } from "../../model/tui.ts";
import { KeyDecoder, type UserInput } from "./keys.ts";
import { resolveKeymap } from "./keymap.ts";
import type { TuiEffect, TuiEvent } from "./events.ts";
import { update } from "./update.ts";

export const { keymap } = resolveKeymap();

/** Host terminal bytes as the input events the decoder makes of them. */
export function keys(text: string): TuiEvent[] {
  const d = new KeyDecoder();
  return [...d.feed(text), ...d.flush()].map((input) => ({
    type: "input",
    input: input as UserInput,
  }));
}

/** The reducer over `events`, from `s`: the last state and every effect. */
export function run(s: TuiState, ...events: TuiEvent[]): { state: TuiState; effects: TuiEffect[] } {
  const effects: TuiEffect[] = [];
  for (const e of events) {
    const u = update(s, e, keymap);
    s = u.state;
    effects.push(...u.effects);
  }
  return { state: s, effects };
}
