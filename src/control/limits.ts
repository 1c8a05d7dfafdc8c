/**
 * The bounds of the control socket (docs/control-api.md "Limits"): what one
 * client, or many, can make lazyshell hold. Each is hit with a one-line
 * error to the client or, when the client is not reading, a one-line log
 * entry and a closed connection.
 */

export interface ControlLimits {
  /** Open connections; past it the longest-idle one is closed, or the newcomer refused. */
  readonly maxConnections: number;
  /** Only a connection idle this long may be closed for a newcomer (one just opened is not). */
  readonly evictIdleMs: number;
  /** Requests of one connection being answered at once; further lines wait unread. */
  readonly maxInFlight: number;
  /** Reply bytes waiting for one client to read; above it its next lines wait unread. */
  readonly maxQueuedBytes: number;
  /** A reply the client has not taken any byte of for this long: the client is not reading. */
  readonly stallMs: number;
  /** Nothing in flight and no request received for this long: the connection is closed. */
  readonly idleMs: number;
  /**
   * `wait`s pending at once, all connections together; past it a `wait` is
   * refused at once. Below maxConnections, so waits alone never fill the
   * socket: their connections are not idle and could not be closed for
   * anyone else.
   */
  readonly maxWaits: number;
  /** After the client half-closed with requests in flight, how often to check it is still there. */
  readonly probeMs: number;
}

export const CONTROL_LIMITS: ControlLimits = {
  maxConnections: 256,
  evictIdleMs: 1_000,
  maxInFlight: 32,
  maxWaits: 64,
  maxQueuedBytes: 8 * 1024 * 1024,
  stallMs: 15_000,
  idleMs: 120_000,
  probeMs: 1_000,
};
