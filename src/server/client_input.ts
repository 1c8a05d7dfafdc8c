/**
 * What an attached client sends, frame by frame (docs/architecture.md,
 * "Server and clients"): typed text, Ready (its terminal is in raw mode on
 * the alternate screen: a terminal drawn on here starts being read,
 * client_tty.ts), its sizes, its Acks (client_output.ts), Redraw (its
 * terminal was given back after a stop: drawn whole) and Detach. Each
 * frame is an entry point of that client (util/guard.ts, client_faults.ts).
 * A terminal over the largest size is drawn at that size, its person told
 * once (session/size_limit.ts).
 */

import { clampSize, oversizeNotice } from "../session/size_limit.ts";
import type { TuiApp } from "../tui/app.ts";
import { guard, guarded, type Owner } from "../util/guard.ts";
import { type Frame, FrameType, parseAck, parseResize, text } from "../wire/protocol.ts";
import type { ClientOutput } from "./client_output.ts";
import type { ClientTty } from "./client_tty.ts";

/** The client the frames come from. */
export interface InputClient {
  readonly owner: Owner;
  readonly app: TuiApp;
  readonly output: ClientOutput;
  readonly tty: ClientTty | null;
  /** Its size from its hello. */
  readonly size: { readonly cols: number; readonly rows: number };
  /** Typed text, from a frame or from its terminal. */
  readonly input: (text: string) => void;
  /** It leaves, the sessions stay (Detach, its terminal hung up). */
  readonly leave: () => Promise<void>;
  /** Told each new size after the app (a plugin command holding the terminal). */
  readonly resizeListeners: ReadonlySet<(cols: number, rows: number) => void>;
  /** It did something (the client a plugin's command goes to is the latest active). */
  readonly active: () => void;
}

/** Acts on each frame until the client leaves or its output is cut off. */
export async function readFrames(
  frames: AsyncIterable<Frame>,
  client: InputClient,
): Promise<void> {
  const { owner, app, output, tty } = client;
  let notice = sizeNotice(app, client.size, null);
  for await (const f of frames) {
    if (output.gone) break;
    client.active();
    if (f.type === FrameType.Input) guard(owner, "input", () => client.input(text(f.payload)));
    else if (f.type === FrameType.Ready && tty && output.ready()) {
      tty.start({
        data: guarded(owner, "input", client.input),
        hangup: () => void client.leave(),
        back: () => guard(owner, "redraw", () => app.redraw()),
      });
    } else if (f.type === FrameType.Resize) {
      const asked = parseResize(f.payload);
      notice = sizeNotice(app, asked, notice);
      const { cols, rows } = clampSize(asked.cols, asked.rows);
      guard(owner, "resize", () => {
        app.resize(cols, rows);
        for (const listener of client.resizeListeners) listener(cols, rows);
      });
    } else if (f.type === FrameType.Ack) {
      output.acked(parseAck(f.payload).frames);
    } else if (f.type === FrameType.Redraw) {
      tty?.resume();
      guard(owner, "redraw", () => app.redraw());
    } else if (f.type === FrameType.Detach) {
      await client.leave();
      break;
    }
  }
}

/** A terminal over the largest size is drawn at that size, its person told once. */
function sizeNotice(app: TuiApp, size: { cols: number; rows: number }, shown: string | null) {
  const notice = oversizeNotice(size.cols, size.rows);
  if (notice && notice !== shown) app.dispatch({ type: "message", text: notice, error: false });
  return notice;
}
