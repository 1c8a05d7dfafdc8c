/**
 * What HeadlessTerminal uses of @xterm/headless's internals, each checked
 * before use (the public path, or nothing, when an upgrade drops it) and
 * covered by terminal_test.ts, which fails if one disappears: the
 * synchronous write path, the rows each write redrew, recovery after the
 * parser throws, a workaround for one crash of 6.0.0, and two states with
 * no public API (cursor hidden, mouse encoding).
 */

import type { XTerm } from "./terminal.ts";

/** xterm's core object, where each internal below lives (fields unknown until checked). */
function core(term: XTerm): Record<string, unknown> | undefined {
  return (term as unknown as { _core?: Record<string, unknown> })._core;
}

function inputHandler<T>(term: XTerm): Partial<T> | undefined {
  return core(term)?._inputHandler as Partial<T> | undefined;
}

/** DECTCEM state (cursor hidden by the child): no public API in headless. */
export function cursorHidden(term: XTerm): boolean {
  const service = core(term)?.coreService as { isCursorHidden?: boolean } | undefined;
  return service?.isCursorHidden === true;
}

/**
 * The emulator's width of one code point (0, 1 or 2) under its active
 * Unicode version: no public API (src/util/width_table.ts is generated
 * from it and checked against it).
 */
export function unicodeWidth(term: XTerm): ((codepoint: number) => number) | null {
  const service = core(term)?.unicodeService as { wcwidth?: (cp: number) => number } | undefined;
  const wcwidth = service?.wcwidth;
  return typeof wcwidth === "function" ? (cp) => wcwidth.call(service, cp) : null;
}

/** The mouse report encoding the child chose: no public API in headless. */
export function mouseEncoding(term: XTerm): string {
  const service = core(term)?.coreMouseService as { activeEncoding?: string } | undefined;
  return service?.activeEncoding ?? "SGR";
}

/**
 * xterm's write queue parses a write at once, instead of after a
 * setTimeout(0) (2–4 ms in Deno: input echo latency, one more event-loop
 * wake-up per chunk), when the write follows user input. Output is written
 * through that path whenever nothing is queued; a long write still yields
 * after xterm's 12 ms slice. Private field of @xterm/headless 6.0.0, checked
 * at construction (the public path when it is missing); terminal_test.ts
 * fails if an upgrade drops it.
 */
export interface WriteQueue {
  _didUserInput: boolean;
  _writeBuffer: unknown[];
  _callbacks: Array<(() => void) | undefined>;
  _pendingData: number;
  _bufferOffset: number;
}

export function writeQueue(term: XTerm): WriteQueue | null {
  const queue = core(term)?._writeBuffer;
  if (typeof queue !== "object" || queue === null) return null;
  const q = queue as Partial<WriteQueue>;
  return typeof q._didUserInput === "boolean" && Array.isArray(q._writeBuffer) &&
      Array.isArray(q._callbacks) && typeof q._bufferOffset === "number"
    ? queue as WriteQueue
    : null;
}

/**
 * After the parser threw: resets the parser (it stopped mid-sequence),
 * drops what is queued (the rest of the failing write included) and calls
 * its callbacks, as xterm does once a write is parsed. Without this every
 * later write stays queued behind the one that threw and the screen never
 * changes again (measured on 6.0.0).
 */
export function unstick(term: XTerm, queue: WriteQueue): void {
  const parser = inputHandler<{ _parser: { reset?(): void } }>(term)?._parser;
  parser?.reset?.();
  const waiting = queue._callbacks.slice(queue._bufferOffset);
  queue._writeBuffer.length = 0;
  queue._callbacks.length = 0;
  queue._pendingData = 0;
  queue._bufferOffset = 0;
  for (const callback of waiting) callback?.();
}

/**
 * xterm's parser reports the viewport rows each write touched (what its
 * renderer repaints; headless has no renderer). Private API of
 * @xterm/headless 6.0.0, checked at construction (every row counts as
 * changed when it is missing); terminal_test.ts fails if an upgrade drops it.
 */
export interface RefreshRows {
  onRequestRefreshRows(listener: (range?: { start: number; end: number }) => void): unknown;
}

export function refreshRows(term: XTerm): RefreshRows | null {
  const handler = inputHandler<RefreshRows>(term);
  return typeof handler?.onRequestRefreshRows === "function" ? handler as RefreshRows : null;
}

/** The parts of xterm's InputHandler the ED 1 workaround below uses. */
interface EraseInternals {
  _restrictCursor(maxCol: number): void;
  _eraseInBufferLine(
    y: number,
    start: number,
    end: number,
    clearWrap: boolean,
    protect: boolean,
  ): void;
  _resetBufferLine(y: number, protect: boolean): void;
}

function eraseInternals(term: XTerm): EraseInternals | null {
  const h = inputHandler<EraseInternals>(term);
  return typeof h?._restrictCursor === "function" &&
      typeof h._eraseInBufferLine === "function" && typeof h._resetBufferLine === "function"
    ? h as EraseInternals
    : null;
}

/**
 * @xterm/headless 6.0.0 throws in ED 1 ("erase above", CSI 1 J, and
 * DECSED CSI ? 1 J) when the cursor is in the last column of the last row
 * of a normal screen whose output has not scrolled yet (a program that
 * starts by clearing what is above it): it clears the next line's wrap
 * flag without checking that the line exists. The throw leaves the lines
 * above as they were and the emulator stuck: no later write shows
 * (measured). Here that case is erased as xterm would (the current line
 * through the cursor, every line above); the others go to xterm's own
 * handler.
 */
export function fixEraseAbove(
  term: XTerm,
  erased: (rows: { start: number; end: number }) => void,
): void {
  const internals = eraseInternals(term);
  if (!internals) return;
  for (const protect of [false, true]) {
    const id = protect ? { prefix: "?", final: "J" } : { final: "J" };
    term.parser.registerCsiHandler(id, (params) => {
      const b = term.buffer.active;
      const cols = term.cols;
      if (params[0] !== 1 || b.cursorX < cols - 1 || b.length > b.cursorY + 1) return false;
      internals._restrictCursor(cols);
      const y = b.cursorY;
      internals._eraseInBufferLine(y, 0, cols, true, protect);
      for (let row = 0; row < y; row++) internals._resetBufferLine(row, protect);
      erased({ start: 0, end: y });
      return true;
    });
  }
}
