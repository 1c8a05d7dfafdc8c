/**
 * Enter on another host's row (docs/remote.md, "In the TUI"): this
 * client's terminal is handed to `lazyshell -H HOST attach -t ID` (the plugin
 * handover: the TUI stops drawing and leaves its screen, the command runs in
 * a PTY whose output goes to this client and which gets every key typed)
 * until it ends — `d` there detaches it — and the local list is drawn
 * again. Only this client's terminal: the others go on drawing. A client that leaves meanwhile
 * takes the attach with it (SIGHUP, as a terminal hanging up). Meanwhile this server's
 * notifications about that host skip the terminal: the host's own server notifies it there.
 */

import { ptyHandover } from "../tui/plugin_handover.ts";
import { selfCommand } from "../plugin/self.ts";
import { printable } from "../model/printable.ts";

/** What of a server's client the handover needs (server.ts Client). */
export interface HandoverClient {
  readonly out: (bytes: string) => void;
  divert: ((text: string) => void) | null;
  paused: boolean;
  readonly resizeListeners: Set<(cols: number, rows: number) => void>;
  readonly app: { readonly state: { cols: number; rows: number }; redraw(): void };
  /** Aborted once the client left: the attach there is ended with it. */
  readonly gone: AbortSignal;
  /** The host attached to meanwhile: this server's notifications about it skip this terminal. */
  attachedTo: string | null;
}

/** Attaches `host` on the client's terminal; resolves with a problem line, or null. */
export async function attachOnClient(
  client: HandoverClient,
  host: string,
  id: string,
  env: Record<string, string | undefined>,
): Promise<string | null> {
  const handover = ptyHandover({
    write: (t) => client.out(t),
    size: () => ({ cols: client.app.state.cols, rows: client.app.state.rows }),
    divert: (sink) => (client.divert = sink),
    pause: () => (client.paused = true),
    resume: () => {
      client.paused = false;
      client.app.redraw();
    },
    gone: client.gone,
    onResize: (listener) => {
      client.resizeListeners.add(listener);
      return { [Symbol.dispose]: () => client.resizeListeners.delete(listener) };
    },
  });
  const childEnv: Record<string, string> = {};
  for (const [k, v] of Object.entries(env)) if (v !== undefined) childEnv[k] = v;
  client.attachedTo = host;
  let outcome;
  try {
    outcome = await handover.run([...selfCommand(), "-H", host, "attach", "-t", id], {
      env: childEnv,
    });
  } finally {
    client.attachedTo = null;
  }
  if (outcome.error) return `lazyshell -H ${printable(host)} attach: ${outcome.error}`;
  if (outcome.code !== 0) {
    return `lazyshell -H ${
      printable(host)
    } attach ended with ${outcome.code} (run it here to see why)`;
  }
  return null;
}

/** `attach -t TARGET` (hello `select`): where the client starts, when that session exists. */
export function selectedFirst(
  hello: { readonly select?: string },
  sessions: readonly { readonly id: string; readonly name: string }[],
): { selected: string; tab: number } | null {
  const want = hello.select;
  if (want === undefined) return null;
  const s = sessions.find((x) => x.id === want) ?? sessions.find((x) => x.name === want);
  return s ? { selected: s.id, tab: 0 } : null;
}
