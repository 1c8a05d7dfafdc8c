/**
 * The bounds of the web view (docs/web.md, "Bounds"), like the attach
 * socket's (src/server/attach_limits.ts): what pages, many or slow, can
 * make the server hold.
 */

export interface WebLimits {
  /** Live connections at once; a newcomer past it is refused (503). */
  readonly maxConnections: number;
  /**
   * Bytes a page has not taken yet: above it its screen waits (the rows are
   * read again once it drained) and list changes fold into one list.
   */
  readonly maxQueuedBytes: number;
  /** A page that took nothing for this long with bytes waiting is closed. */
  readonly stallMs: number;
  /** Requests (answer, send, diff) of one page being answered at once; more are refused. */
  readonly maxInFlight: number;
  /**
   * Least time between two screen frames of one page (the changes between
   * go together in the next one; the first after a quiet spell goes at once).
   */
  readonly frameMs: number;
  /** How long a due frame waits for the page's socket to write out the last one. */
  readonly frameDrainWaitMs: number;
}

export const WEB_LIMITS: WebLimits = {
  maxConnections: 16,
  maxQueuedBytes: 512 * 1024,
  stallMs: 30_000,
  maxInFlight: 4,
  frameMs: 200,
  frameDrainWaitMs: 1000,
};
