/** The client's end of the connection to a server (src/client/client.ts): ordered writes, frames in. */

import { frame, FrameReader, FrameType } from "../wire/protocol.ts";
import type { Duplex } from "../ipc/duplex.ts";

export class ClientLink {
  readonly #conn: Duplex;
  #chain: Promise<void> = Promise.resolve();
  #inFlight = 0;
  #closed = false;
  /** Input frames sent since the server last sent anything: not known to have arrived. */
  #unanswered = 0;

  constructor(conn: Duplex) {
    this.#conn = conn;
  }

  /**
   * Writes in order. With nothing in flight the write starts in this call
   * (Deno writes a socket at once), so the hello reaches the server while
   * the client still sets up its terminal, and a key goes out without
   * waiting for a microtask.
   */
  send(type: FrameType, payload: Uint8Array | object): void {
    if (type === FrameType.Input) this.#unanswered++;
    if (this.#closed) return;
    const data = frame(type, payload);
    const write = async () => {
      try {
        for (let n = 0; n < data.length && !this.#closed;) {
          n += await this.#conn.write(data.subarray(n));
        }
      } catch {
        /* the connection is gone: frames() ends */
      } finally {
        this.#inFlight--;
      }
    };
    this.#chain = this.#inFlight++ === 0 ? write() : this.#chain.then(write);
  }

  async *frames() {
    const reader = new FrameReader();
    const buf = new Uint8Array(256 * 1024);
    for (;;) {
      let n: number | null;
      try {
        n = await this.#conn.read(buf);
      } catch {
        return;
      }
      if (n === null) return;
      this.#unanswered = 0;
      yield* reader.push(buf.subarray(0, n));
    }
  }

  get unanswered(): number {
    return this.#unanswered;
  }

  close(): void {
    if (this.#closed) return;
    this.#closed = true;
    try {
      this.#conn.close();
    } catch { /* closed */ }
  }
}
