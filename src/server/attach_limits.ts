/**
 * The bounds of the attach socket (docs/architecture.md, "Server and
 * clients", Bounds): what connecting clients, together or one by one, can
 * make the server hold. A client past one is told why in one line (an Exit
 * it prints) and dropped; the other clients and the sessions go on. Pure:
 * the figures and the decisions; admission.ts, link.ts, client_output.ts
 * and server.ts apply them.
 */

export interface AttachLimits {
  /** Connections at once: waiting for their hello, attached, or being answered (`ls`). */
  readonly maxConnections: number;
  /** Connections that have not sent their hello yet. */
  readonly maxPending: number;
  /** A connection that sends no hello this long is told so and closed. */
  readonly helloMs: number;
  /** Longest first frame, the hello (~300 bytes; a restore's names, more); then MAX_FRAME. */
  readonly maxHelloFrame: number;
  /** Clients attached at once. */
  readonly maxClients: number;
  /** Output waiting for all clients together; over it, those holding the most are dropped. */
  readonly maxQueuedTotal: number;
  /**
   * A client whose output is behind skips frames (client_output.ts); one that takes none of
   * what waits for it this long is dropped (it never reads: its queue no longer grows).
   */
  readonly stalledMs: number;
}

export const ATTACH_LIMITS: AttachLimits = {
  maxConnections: 256,
  maxPending: 128,
  helloMs: 5_000,
  maxHelloFrame: 64 * 1024,
  maxClients: 64,
  maxQueuedTotal: 64 * 1024 * 1024,
  stalledMs: 30_000,
};

/** What a newcomer finds open. */
export interface OpenConnections {
  readonly connections: number;
  readonly pending: number;
}

/** The one line a newcomer is refused with, or null: it may say its hello. */
export function connectionRefusal(open: OpenConnections, limits: AttachLimits): string | null {
  if (open.connections >= limits.maxConnections) {
    return `The lazyshell server has ${limits.maxConnections} connections open, the most it ` +
      `takes: try again once a client has left`;
  }
  if (open.pending >= limits.maxPending) {
    return `The lazyshell server has ${limits.maxPending} connections waiting to say hello, ` +
      `the most it takes: try again in a few seconds`;
  }
  return null;
}

/** The one line an attach is refused with when `clients` are attached, or null. */
export function attachRefusal(clients: number, limits: AttachLimits): string | null {
  return clients >= limits.maxClients
    ? `The lazyshell server has ${clients} clients attached, the most it takes: detach one first`
    : null;
}

export function helloTimeout(limits: AttachLimits): string {
  return `No hello within ${limits.helloMs / 1000} s: not a lazyshell client? Closed`;
}

/**
 * The clients to drop so that what waits for all of them (`bytes` each) is
 * back within `max`: those holding the most, largest first. Empty when within.
 */
export function overflow<T extends { readonly bytes: number }>(
  queued: readonly T[],
  max: number,
): T[] {
  let total = 0;
  for (const q of queued) total += q.bytes;
  if (total <= max) return [];
  const drop: T[] = [];
  for (const q of [...queued].sort((a, b) => b.bytes - a.bytes)) {
    if (total <= max) break;
    drop.push(q);
    total -= q.bytes;
  }
  return drop;
}

/** The line a client dropped by `overflow` prints. */
export function overflowMessage(bytes: number, limits: AttachLimits): string {
  return `Disconnected: this terminal did not read ${mib(bytes)} of output, the most of any ` +
    `client while ${mib(limits.maxQueuedTotal)} waited for all of them; the sessions go on ` +
    `(run lazyshell to attach again)`;
}

/** The line a client prints when its own output waited past `bytes` (link.ts, client_output.ts). */
export function unreadMessage(bytes: number): string {
  return `Disconnected: this terminal did not read ${mib(bytes)} of output; the sessions go on ` +
    `(run lazyshell to attach again)`;
}

/** The line a client prints when what waited for it was not taken within `ms` (client_output.ts). */
export function stalledMessage(ms: number): string {
  return `Disconnected: this terminal did not read the output waiting for it within ` +
    `${ms / 1000} s; the sessions go on (run lazyshell to attach again)`;
}

export function mib(bytes: number): string {
  const m = bytes / (1024 * 1024);
  return `${m >= 10 || Number.isInteger(m) ? m.toFixed(0) : m.toFixed(1)} MiB`;
}
