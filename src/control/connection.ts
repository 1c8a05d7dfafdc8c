/**
 * One client of the control socket, bounded (docs/control-api.md "Limits"):
 * at most `maxInFlight` of its requests are answered at once and at most
 * `maxQueuedBytes` of replies wait for it; past either, its next lines stay
 * unread in the socket (the kernel then stops the client's writes). A client
 * that takes no byte of a reply for `stallMs` is not reading: it is
 * disconnected, its requests cancelled. So 1000 pipelined `read`s never
 * read back cost at most the bounds, never the sum of the replies.
 *
 * A client that went away is noticed at once: its end of stream with
 * requests still running (a pending `wait`) is answered by a probe, a blank
 * line — a write to a closed peer fails (EPIPE), one that only half-closed
 * reads the blank line and ignores it. Requests then see their signal abort.
 */

import { holdFloods } from "../session/flood_budget.ts";
import { messageOf } from "../errors.ts";
import { CONTROL_LINE_LIMIT, encodeLine, readLines } from "../ipc/jsonl.ts";
import {
  type ControlRequest,
  type ControlResponse,
  parseControlRequest,
  salvageId,
} from "../ipc/protocol.ts";
import type { ControlLimits } from "./limits.ts";

/** `replied` resolves once the reply is written to the client (or dropped with the connection). */
export type Answer = (
  request: ControlRequest,
  signal: AbortSignal,
  replied: Promise<void>,
) => Promise<ControlResponse>;

const PROBE = new TextEncoder().encode("\n");
/** How long one client's pipelined requests may hold the event loop before others get a turn. */
const YIELD_AFTER_MS = 10;
/** How long a farewell line (eviction notice) may take before the socket is closed anyway. */
const NOTICE_MS = 1000;

export class ControlConnection {
  readonly #conn: Deno.UnixConn;
  readonly #limits: ControlLimits;
  readonly #answer: Answer;
  readonly #log: (line: string) => void;
  readonly #abort = new AbortController();
  #inFlight = 0;
  #queue: Uint8Array[] = [];
  /** Per queued chunk: what to call once it is written (a reply's `replied`). */
  #done: ((() => void) | null)[] = [];
  #queued = 0;
  #writing = false;
  #lastActive = Date.now();
  #closed = false;
  /** Wakes the reader waiting for room (or the drain waiting for the last reply). */
  #wake: (() => void) | null = null;
  #idleTimer: ReturnType<typeof setTimeout> | undefined;
  #stallTimer: ReturnType<typeof setTimeout> | undefined;

  constructor(
    conn: Deno.UnixConn,
    limits: ControlLimits,
    answer: Answer,
    log: (line: string) => void,
  ) {
    this.#conn = conn;
    this.#limits = limits;
    this.#answer = answer;
    this.#log = log;
    this.#armIdle(limits.idleMs);
  }

  /** Requests running or replies waiting: not a candidate for closing when idle. */
  get busy(): boolean {
    return this.#inFlight > 0 || this.#queued > 0;
  }

  get inFlight(): number {
    return this.#inFlight;
  }

  get queuedBytes(): number {
    return this.#queued;
  }

  /** When the last request arrived or a reply went out (or the connection opened). */
  get lastActive(): number {
    return this.#lastActive;
  }

  get closed(): boolean {
    return this.#closed;
  }

  /** Reads and answers requests until the client leaves or the connection is closed. */
  async serve(): Promise<void> {
    let slice = performance.now();
    try {
      for await (const item of readLines(this.#conn, CONTROL_LINE_LIMIT)) {
        if (this.#closed) break;
        this.#lastActive = Date.now();
        if (item.type === "oversize") {
          this.#send({
            id: null,
            ok: false,
            error: `Line over ${CONTROL_LINE_LIMIT} bytes (dropped)`,
          });
        } else if (item.text.trim()) {
          this.#take(item.text);
        }
        await this.#room();
        // Lines of one read are handled back to back (a verb like `read` runs
        // synchronously): past a slice, let other clients' requests in first.
        if (performance.now() - slice > YIELD_AFTER_MS) {
          await new Promise((resolve) => setTimeout(resolve, 0));
          slice = performance.now();
        }
      }
    } catch { /* the client went away, or we closed the connection */ }
    await this.#drain();
    this.close();
  }

  /**
   * Ends the connection and cancels its requests. A notice (one line,
   * `id: null`) is written first when given; the client is idle then, so
   * it fits the socket's buffer.
   */
  close(notice?: string): void {
    if (this.#closed) return;
    this.#closed = true;
    this.#abort.abort();
    clearTimeout(this.#idleTimer);
    clearTimeout(this.#stallTimer);
    this.#queue = [];
    this.#queued = 0;
    // Replies never to be written: whoever waits on them goes on.
    for (const done of this.#done.splice(0)) done?.();
    this.#wakeUp();
    if (notice === undefined) return closeQuietly(this.#conn);
    let timer: ReturnType<typeof setTimeout> | undefined;
    const write = this.#conn.write(encodeLine({ id: null, ok: false, error: notice }));
    const late = new Promise((resolve) => (timer = setTimeout(resolve, NOTICE_MS)));
    Promise.race([write, late]).catch(() => {}).finally(() => {
      clearTimeout(timer);
      closeQuietly(this.#conn);
    });
  }

  #take(line: string): void {
    let request: ControlRequest;
    try {
      request = parseControlRequest(line);
    } catch (error) {
      this.#send({ id: salvageId(line), ok: false, error: messageOf(error) });
      return;
    }
    this.#inFlight++;
    const written = Promise.withResolvers<void>();
    // Answered ahead of floods: they pause until the reply is out (HOLD_MS at most).
    const release = holdFloods();
    void written.promise.then(release);
    this.#answer(request, this.#abort.signal, written.promise)
      .then((response) => this.#send(response, written.resolve))
      .catch(() => written.resolve()) // answer() never rejects; a reply to a closed connection is dropped
      .finally(() => {
        this.#inFlight--;
        this.#wakeUp();
      });
  }

  /** Resolves once another request may be taken (or the connection closed). */
  async #room(): Promise<void> {
    const full = () =>
      this.#inFlight >= this.#limits.maxInFlight || this.#queued > this.#limits.maxQueuedBytes;
    while (!this.#closed && full()) await this.#sleep();
  }

  /**
   * The client finished writing: answer what runs, probing that it is still
   * there (a blank line) while requests are pending, then let the replies out.
   */
  async #drain(): Promise<void> {
    while (!this.#closed && this.#inFlight > 0) {
      if (this.#queued === 0) this.#enqueue(PROBE);
      await this.#sleep(this.#limits.probeMs);
    }
    while (!this.#closed && this.#queued > 0) await this.#sleep();
  }

  /** Until woken (a request finished, a write progressed, close) or `ms` passed. */
  #sleep(ms?: number): Promise<void> {
    return new Promise((resolve) => {
      let timer: ReturnType<typeof setTimeout> | undefined;
      this.#wake = () => {
        clearTimeout(timer);
        this.#wake = null;
        resolve();
      };
      if (ms !== undefined) timer = setTimeout(() => this.#wakeUp(), ms);
    });
  }

  #wakeUp(): void {
    this.#wake?.();
  }

  /** Queues a reply; `written` runs once it is written, or at once when it never will be. */
  #send(response: ControlResponse, written?: () => void): void {
    if (this.#closed) return written?.();
    this.#enqueue(encodeLine(response), written);
  }

  #enqueue(bytes: Uint8Array, written?: () => void): void {
    this.#queue.push(bytes);
    this.#done.push(written ?? null);
    this.#queued += bytes.length;
    void this.#pump();
  }

  async #pump(): Promise<void> {
    if (this.#writing) return;
    this.#writing = true;
    try {
      while (this.#queue.length > 0 && !this.#closed) {
        const head = this.#queue[0]!;
        this.#stallTimer = setTimeout(() => this.#stalled(), this.#limits.stallMs);
        const n = await this.#conn.write(head);
        clearTimeout(this.#stallTimer);
        if (this.#closed) break;
        this.#queued -= n;
        this.#lastActive = Date.now();
        if (n >= head.length) {
          this.#queue.shift();
          this.#done.shift()?.();
        } else this.#queue[0] = head.subarray(n);
        this.#wakeUp();
      }
    } catch {
      this.close(); // the client went away: cancel what it asked for
    } finally {
      clearTimeout(this.#stallTimer);
      this.#writing = false;
    }
  }

  #stalled(): void {
    this.#log(
      `control: closed a client that read none of its replies for ${
        this.#limits.stallMs / 1000
      } s (${this.#queued} bytes waiting, ${this.#inFlight} requests running)`,
    );
    this.close();
  }

  /** Closes the connection once it has been idle (nothing in flight) for idleMs. */
  #armIdle(ms: number): void {
    this.#idleTimer = setTimeout(() => {
      const left = this.#lastActive + this.#limits.idleMs - Date.now();
      if (this.busy || left > 0) return this.#armIdle(this.busy ? this.#limits.idleMs : left);
      this.close(`Closed after ${this.#limits.idleMs / 1000} s without a request`);
    }, ms);
  }
}

export function closeQuietly(conn: Deno.Conn): void {
  try {
    conn.close();
  } catch { /* already closed */ }
}
