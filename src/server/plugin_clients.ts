/**
 * What plugin tabs reach of the attached clients (docs/plugin-protocol.md):
 * `select_session`, `copy` and an interactive command's terminal go to the
 * client that was active last; a failure in one is that client's
 * (src/util/guard.ts).
 */

import { UserError } from "../errors.ts";
import { osc52 } from "../tui/clipboard.ts";
import { ptyHandover } from "../tui/plugin_handover.ts";
import { guard, type Owner } from "../util/guard.ts";
import type { PluginTabsOptions } from "./plugin_feed.ts";

/** The part of an attached client plugin tabs use. */
export interface PluginClient {
  readonly owner: Owner;
  readonly hello: { readonly tmux: boolean };
  readonly app: {
    dispatch(action: { type: "select"; id: string }): void;
    redraw(): void;
    readonly state: { readonly cols: number; readonly rows: number };
  };
  readonly out: (bytes: string | Uint8Array) => void;
  divert: ((text: string) => void) | null;
  paused: boolean;
  resizeListeners: Set<(cols: number, rows: number) => void>;
  lastActive: number;
}

/** The client a plugin's interactive command and `select_session` go to. */
function latest<C extends PluginClient>(clients: Iterable<C>): C | null {
  let best: C | null = null;
  for (const c of clients) if (!best || c.lastActive > best.lastActive) best = c;
  return best;
}

/** startPluginTabs' hooks into `clients`; `size`: the terminal's when none is attached. */
export function pluginClientHooks(
  clients: ReadonlyMap<string, PluginClient>,
  size: { cols: number; rows: number },
): Pick<PluginTabsOptions, "select" | "copy" | "handover"> {
  const last = () => latest(clients.values());
  return {
    select: (id) => {
      const c = last();
      if (c) guard(c.owner, "select", () => c.app.dispatch({ type: "select", id }));
    },
    copy: (text) => {
      const c = last();
      if (!c) throw new UserError("No client attached: nowhere to copy to");
      c.out(osc52(text, c.hello.tmux));
    },
    handover: ptyHandover({
      write: (t) => last()?.out(t),
      size: () => {
        const c = last();
        return c ? { cols: c.app.state.cols, rows: c.app.state.rows } : size;
      },
      divert: (sink) => {
        const c = last();
        if (c) c.divert = sink;
      },
      pause: () => {
        const c = last();
        if (c) c.paused = true;
      },
      resume: () => {
        for (const c of clients.values()) {
          if (!c.paused) continue;
          c.paused = false;
          c.app.redraw();
        }
      },
      onResize: (listener) => {
        const c = last();
        c?.resizeListeners.add(listener);
        return { [Symbol.dispose]: () => c?.resizeListeners.delete(listener) };
      },
    }),
  };
}
