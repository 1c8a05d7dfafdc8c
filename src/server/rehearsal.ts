/**
 * The first attach rehearsed, before anyone attaches (docs/architecture.md,
 * Start-up): V8 compiles a function the first time it runs, and the first
 * attach to a server spent ~8 ms compiling the attach's own code (the
 * connection, the hello, the client's TUI and its renderer, the output
 * queue) on top of the frame the next attach drew in ~5 ms. A client
 * attaches over a connection in memory, no socket and no terminal: its
 * hello, its first frame, then `d`'s Detach. The server serves it as any
 * client but on a runtime that is read and never acted on
 * (src/runtime/read_only.ts), and counts it nowhere: not among the clients,
 * their sizes, notifications or plugin tabs, nor where the last one left.
 */

import { duplexPair } from "../ipc/memory_duplex.ts";
import {
  frame,
  FrameReader,
  FrameType,
  type HelloMessage,
  SERVER_PROTOCOL,
} from "../wire/protocol.ts";
import { Link } from "./link.ts";

/**
 * Attaches as a `cols`×`rows` client would and detaches once its first frame came; `serve` is
 * the server's side of the connection. Resolves with the Output bytes drawn for it; gives up
 * (closes the connection) after `ms`.
 */
export async function rehearse(
  serve: (link: Link) => Promise<void>,
  options: { version: string; cols: number; rows: number; cwd: string },
  ms = 2_000,
): Promise<number> {
  const [client, server] = duplexPair();
  const served = serve(new Link(server));
  const timer = setTimeout(() => client.close(), ms);
  const hello: HelloMessage = {
    protocol: SERVER_PROTOCOL,
    version: options.version,
    mode: "attach",
    cols: options.cols,
    rows: options.rows,
    tmux: false,
    cwd: options.cwd,
  };
  let drawn = 0;
  let exit = false;
  try {
    await client.write(frame(FrameType.Hello, hello));
    const reader = new FrameReader();
    const buf = new Uint8Array(64 * 1024);
    for (let n = await client.read(buf); n !== null && !exit; n = await client.read(buf)) {
      for (const f of reader.push(buf.subarray(0, n))) {
        if (f.type === FrameType.Exit) exit = true;
        if (f.type !== FrameType.Output) continue;
        if (drawn === 0) await client.write(frame(FrameType.Detach, {}));
        drawn += f.payload.length;
      }
    }
  } catch {
    /* closed: the time was up */
  } finally {
    clearTimeout(timer);
    client.close();
    await served;
  }
  return drawn;
}
