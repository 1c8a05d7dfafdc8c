/**
 * When the Enter after scripted text may go (typing.ts): ENTER_GAP_MS after
 * the child READ the text, not after we wrote it. Agent CLIs take a burst
 * with Enter in it for a paste, and the Enter for a newline in their input
 * box; a child slow to read (an agent just started, a loaded machine) got
 * the text and an Enter written 250 ms later in one read: Gemini CLI 0.61
 * kept the text in its box 3 times in 10 (tools/live/README.md, `live-enter`).
 *
 * Pure: fed samples of the bytes still waiting for the child (our queue plus
 * the terminal's input queue, FIONREAD), it says how long to wait before the
 * next sample, or that Enter may go. Bytes just written take a moment to
 * reach the terminal's queue (a kernel worker passes them on), so an empty
 * queue counts as read only after it was seen holding them, or else from the
 * write on — the old fixed gap, which is also the answer where the queue
 * cannot be read. A child that reads nothing for READ_WAIT_MS gets its
 * Enter anyway, as before.
 */

/** Pause between the child's read of the text and its Enter: longer than Codex's 120 ms paste-Enter window. */
export const ENTER_GAP_MS = 250;
/** How often the queue is sampled while waiting. */
export const SAMPLE_MS = 10;
/** How long a child may leave the text unread before the Enter goes anyway. */
export const READ_WAIT_MS = 5000;

export type EnterStep =
  | { readonly type: "wait"; readonly ms: number }
  | { readonly type: "enter"; readonly readAt: number | null };

export class EnterWait {
  readonly #writtenAt: number;
  /** The first sample that found the queue empty after it held the text. */
  #readAt: number | null = null;
  #seenQueued = false;

  /** `writtenAt`: when the text was written (the clock of the samples). */
  constructor(writtenAt: number) {
    this.#writtenAt = writtenAt;
  }

  /**
   * A sample at `at`: `unread`, the bytes the child has not read yet, or null
   * when they cannot be read (then only the gap from the write counts).
   */
  next(at: number, unread: number | null): EnterStep {
    const since = at - this.#writtenAt;
    if (unread === null) {
      return since >= ENTER_GAP_MS
        ? { type: "enter", readAt: null }
        : { type: "wait", ms: ENTER_GAP_MS - since };
    }
    if (unread > 0) {
      this.#seenQueued = true;
      this.#readAt = null;
      return since >= READ_WAIT_MS
        ? { type: "enter", readAt: null }
        : { type: "wait", ms: SAMPLE_MS };
    }
    if (this.#seenQueued) this.#readAt ??= at;
    const readAt = this.#readAt ?? this.#writtenAt;
    const left = readAt + ENTER_GAP_MS - at;
    // Keep sampling until then: the text may still show up in the queue, unread.
    return left <= 0 ? { type: "enter", readAt } : { type: "wait", ms: Math.min(left, SAMPLE_MS) };
  }
}
