/**
 * Who may connect to the attach socket, and for how long without a hello
 * (docs/architecture.md, "Server and clients", Bounds). Each connection is
 * counted from accept to close. Its first frame, the hello, may be small
 * only (`maxHelloFrame`); one that sends none within `helloMs` is told so
 * and closed. Past `maxPending` connections waiting for their hello, or
 * `maxConnections` in all, a newcomer is told why and closed at once: the
 * server keeps accepting, so the socket's backlog never fills (a client
 * that cannot connect would think no server runs). A real client's hello
 * is in as soon as it connects; `maxPending` leaves room for bursts of them
 * (the server may accept faster than it reads). Time the server itself was
 * busy (its loop held past the deadline) is not counted against a client.
 */

import { type AttachLimits, connectionRefusal, helloTimeout } from "./attach_limits.ts";
import { Link } from "./link.ts";

/** One log line per this long at most when newcomers are refused. */
const CROWD_LOG_MS = 10_000;
/**
 * When the hello's time is up, the refusal waits this long more: a hello
 * sent in time may be waiting unread in the socket (the server was busy),
 * and the expired timer would run before the read that takes it. A wait
 * that itself ends this much late starts again.
 */
export const HELLO_LATE_MS = 250;

export class Admission implements Disposable {
  readonly limits: AttachLimits;
  readonly #log: (line: string) => void;
  /** The connections still to say hello, with their timers. */
  readonly #waiting = new Map<Link, ReturnType<typeof setTimeout>>();
  /** Every connection open, refused ones until their Exit is written. */
  readonly #links = new Set<Link>();
  #refused = 0;
  #crowdLogged = -Infinity;

  constructor(limits: AttachLimits, log: (line: string) => void) {
    this.limits = limits;
    this.#log = log;
  }

  /** Connections open now (refused ones until their Exit is written). */
  get connections(): number {
    return this.#links.size;
  }

  /** Newcomers refused since start. */
  get refused(): number {
    return this.#refused;
  }

  /**
   * A new connection: its Link, its hello awaited (small frames only, a
   * timer running), or null when it was refused (told why, then closed).
   */
  admit(conn: Deno.UnixConn): Link | null {
    const limits = this.limits;
    const link = new Link(conn, limits.maxHelloFrame);
    const open = { connections: this.#links.size, pending: this.#waiting.size };
    this.#links.add(link);
    void link.whenClosed.then(() => {
      this.#links.delete(link);
      this.helloed(link);
    });
    const refusal = connectionRefusal(open, limits);
    if (refusal) {
      this.#refused++;
      this.#crowded(refusal);
      link.refuse(refusal);
      return null;
    }
    this.#wait(link, performance.now() + limits.helloMs);
    return link;
  }

  /**
   * Refuses `link` at `due` unless its hello came. The refusal itself waits
   * HELLO_LATE_MS more, a turn of the loop at least: a hello read in the same
   * turn as the timer fired is taken first. A timer that fires late (the
   * server was busy) starts that wait again.
   */
  #wait(link: Link, due: number, lastCall = false): void {
    const timer = setTimeout(() => {
      const now = performance.now();
      if (!lastCall || now - due > HELLO_LATE_MS) this.#wait(link, now + HELLO_LATE_MS, true);
      else link.refuse(helloTimeout(this.limits));
    }, Math.max(0, due - performance.now()));
    this.#waiting.set(link, timer);
  }

  /** The link's first frame is in (or it closed): its timer stops, its slot frees. */
  helloed(link: Link): void {
    clearTimeout(this.#waiting.get(link));
    this.#waiting.delete(link);
  }

  /** The server ends: every connection closes now. */
  [Symbol.dispose](): void {
    for (const link of this.#links) link[Symbol.dispose]();
  }

  #crowded(what: string): void {
    const now = performance.now();
    if (now - this.#crowdLogged < CROWD_LOG_MS) return;
    this.#crowdLogged = now;
    this.#log(`attach server: refusing newcomers (${this.#refused} so far): ${what}`);
  }
}
