/**
 * What HeadlessTerminal uses of @xterm/headless's internals, each checked
 * before use (the public path, or nothing, when an upgrade drops it) and
 * covered by terminal_test.ts or history_test.ts, which fail if one
 * disappears: the synchronous write path, the rows each write redrew,
 * recovery after the parser throws, ED 1 without two faults of 6.0.0, two
 * states with no public API (cursor hidden, mouse encoding), the buffers
 * and scroll step the compact scrollback store needs (history.ts), and the
 * cell words of the active buffer's rows (screen_read.ts).
 */

import type { RowSource } from "./row_codec.ts";
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
 * ED 1 ("erase above", CSI 1 J, and DECSED CSI ? 1 J), done here as
 * @xterm/headless 6.0.0 does it, less two faults of its code:
 * - When the cursor sits in the last column, xterm clears the wrap flag of
 *   the row at *buffer* index cursorY + 1 (a screen row used as a buffer
 *   index: in a buffer with scrollback, a row of the scrollback). On a
 *   normal screen whose output has not scrolled yet, with the cursor on its
 *   last row, that row does not exist and xterm throws, which leaves the
 *   lines above as they were and the emulator stuck: no later write shows
 *   (measured).
 * - That buffer index counts the rows of xterm's buffer; with the compact
 *   store (history.ts) the first rows of the history are not in it.
 * `clearWrap(index)` clears the wrap flag of the row xterm would have
 * touched, counted in the whole history, if it exists.
 */
export function fixEraseAbove(
  term: XTerm,
  erased: (rows: { start: number; end: number }) => void,
  clearWrap: (index: number) => void,
): void {
  const internals = eraseInternals(term);
  if (!internals) return;
  for (const protect of [false, true]) {
    const id = protect ? { prefix: "?", final: "J" } : { final: "J" };
    term.parser.registerCsiHandler(id, (params) => {
      if (params[0] !== 1) return false;
      const cols = term.cols;
      internals._restrictCursor(cols);
      const b = term.buffer.active;
      const y = b.cursorY;
      internals._eraseInBufferLine(y, 0, b.cursorX + 1, true, protect);
      if (b.cursorX + 1 >= cols) clearWrap(y + 1);
      for (let row = 0; row < y; row++) internals._resetBufferLine(row, protect);
      erased({ start: 0, end: y });
      return true;
    });
  }
}

/** Row `index` of the active buffer, as xterm keeps it (to change its wrap flag). */
export function activeLine(term: XTerm, index: number): { isWrapped: boolean } | undefined {
  const service = core(term)?._bufferService as
    | { buffers?: { active?: { lines?: { get?(i: number): { isWrapped: boolean } | undefined } } } }
    | undefined;
  return service?.buffers?.active?.lines?.get?.(index);
}

/**
 * Cuts the alternate screen's rows to `cols`, once the screen narrowed.
 * xterm cuts rows to a narrower screen only where it reflows, in the normal
 * buffer: on the alternate screen the cells past the new right edge stayed
 * in each row (an erase of the row, EL, clears only up to the edge), and
 * every reader of a row's text read them — `ctl read`, the detection's
 * rules (tests/alt_screen_narrow_test.ts) — though no terminal shows them;
 * a wider screen later showed them again. Private API of @xterm/headless
 * 6.0.0 (the buffer set's `alt`, BufferLine.resize), checked; that test
 * fails if an upgrade drops it.
 */
export function trimAlternate(term: XTerm, cols: number): void {
  const service = core(term)?._bufferService as
    | { buffers?: { alt?: { lines?: { length: number; get(i: number): unknown } } } }
    | undefined;
  const lines = service?.buffers?.alt?.lines;
  if (!lines || typeof lines.get !== "function") return;
  for (let i = 0; i < lines.length; i++) {
    const line = lines.get(i) as
      | { length?: number; resize?(cols: number, fill: NullCell): boolean }
      | undefined;
    if (typeof line?.resize === "function" && (line.length ?? 0) > cols) {
      line.resize(cols, NULL_CELL);
    }
  }
}

/** One row of xterm's buffer (its BufferLine): three words a cell, and the methods reflow uses. */
export interface XtermLine {
  readonly length: number;
  isWrapped: boolean;
  readonly _data: Uint32Array;
  readonly _combined: Record<number, string>;
  readonly _extendedAttrs: Record<number, { readonly underlineStyle: number } | undefined>;
  getTrimmedLength(): number;
  hasContent(index: number): number;
  getWidth(index: number): number;
  copyCellsFrom(
    src: XtermLine,
    srcCol: number,
    destCol: number,
    length: number,
    applyInReverse: boolean,
  ): void;
  setCell(index: number, cell: NullCell): void;
  replaceCells(start: number, end: number, cell: NullCell): void;
}

/** The empty cell xterm fills and erases with (code point 0, width 1, default colours). */
export interface NullCell {
  readonly content: number;
  readonly fg: number;
  readonly bg: number;
  readonly combinedData: string;
  readonly extended: undefined;
}

export const NULL_CELL: NullCell = {
  content: 0x400000,
  fg: 0,
  bg: 0,
  combinedData: "",
  extended: undefined,
};

/** xterm's normal buffer (Buffer): its lines and the positions that count rows in them. */
export interface XtermBuffer {
  readonly lines: {
    readonly length: number;
    readonly isFull: boolean;
    /** Rows it holds at most (screen and scrollback); setting it keeps the first rows. */
    maxLength: number;
    get(index: number): XtermLine | undefined;
    splice(start: number, deleteCount: number, ...items: XtermLine[]): void;
    trimStart(count: number): void;
  };
  ybase: number;
  ydisp: number;
  readonly y: number;
  savedY: number;
  readonly scrollTop: number;
}

/** What the scrollback store (history.ts) needs of xterm's buffers. */
export interface ScrollbackInternals {
  /** The normal buffer (a new object after a full reset). */
  normal(): XtermBuffer;
  /** True while the normal buffer is the active one. */
  normalActive(): boolean;
  /** Calls `before` each time the emulator scrolls a line up, before it does. */
  onScroll(before: (buffer: XtermBuffer) => void): void;
  /** A new row of `cols` empty cells. */
  newLine(cols: number, wrapped: boolean): XtermLine;
  /**
   * Sets the scrollback option without the resize of both buffers to their
   * own size that setting it through `term.options` does (which moves a
   * cursor waiting to wrap and drops rows the alternate screen still holds).
   */
  setScrollback(rows: number): void;
}

interface BufferService {
  scroll(attr: unknown, isWrapped?: boolean): void;
  buffers: { normal: XtermBuffer; active: XtermBuffer };
}

/**
 * xterm's buffers and its scroll step, which lazyshell needs to take the
 * lines that leave the emulator's buffer into its own compact store
 * (history.ts). Private API of @xterm/headless 6.0.0, checked at
 * construction; null when missing (the emulator then keeps the whole
 * scrollback itself, as before); history_test.ts fails if an upgrade drops it.
 */
export function scrollbackInternals(term: XTerm): ScrollbackInternals | null {
  const service = core(term)?._bufferService as Partial<BufferService> | undefined;
  const options = (core(term)?.optionsService as { rawOptions?: { scrollback?: number } })
    ?.rawOptions;
  if (typeof service?.scroll !== "function" || !service.buffers) return null;
  if (typeof options?.scrollback !== "number") return null;
  const buffers = service.buffers;
  const normal = buffers.normal as Partial<XtermBuffer> | undefined;
  const lines = normal?.lines;
  const line = lines?.get(0) as Partial<XtermLine> | undefined;
  const fine = typeof normal?.ybase === "number" && typeof normal.savedY === "number" &&
    typeof normal.y === "number" &&
    typeof lines?.splice === "function" && typeof lines.isFull === "boolean" &&
    typeof lines.trimStart === "function" && typeof lines.maxLength === "number" &&
    line?._data instanceof Uint32Array && typeof line._combined === "object" &&
    typeof line._extendedAttrs === "object" && typeof line.copyCellsFrom === "function" &&
    typeof line.getTrimmedLength === "function" && typeof line.replaceCells === "function";
  if (!fine) return null;
  const Line = (line as object).constructor as new (
    cols: number,
    fill: NullCell,
    wrapped: boolean,
  ) => XtermLine;
  const bs = service as BufferService;
  return {
    normal: () => bs.buffers.normal,
    normalActive: () => bs.buffers.active === bs.buffers.normal,
    onScroll(before) {
      const scroll = bs.scroll;
      bs.scroll = function (attr, isWrapped) {
        before(bs.buffers.active);
        scroll.call(bs, attr, isWrapped);
      };
    },
    newLine: (cols, wrapped) => new Line(cols, NULL_CELL, wrapped),
    setScrollback: (rows) => (options.scrollback = rows),
  };
}

/**
 * Row `index` of the active buffer as xterm keeps it: three words a cell
 * (row_codec.ts), which screen_read.ts decodes directly: a CellData read
 * per cell (getCell and a dozen getters) made reading the row a key's echo
 * changed cost more than the rest of drawing it. Private API of
 * @xterm/headless 6.0.0, checked at construction; null when missing (the
 * public getCell path then); screen_read_test.ts fails if an upgrade drops it.
 */
export function activeLines(term: XTerm): ((index: number) => RowSource | undefined) | null {
  const service = core(term)?._bufferService as Partial<BufferService> | undefined;
  const line = service?.buffers?.active?.lines?.get(0) as Partial<XtermLine> | undefined;
  const fine = line?._data instanceof Uint32Array && typeof line._combined === "object" &&
    typeof line._extendedAttrs === "object" && typeof line.length === "number";
  if (!fine) return null;
  // The buffers are read each time: a full reset makes new ones.
  const bs = service as BufferService;
  return (index) => bs.buffers.active.lines.get(index);
}

/** The parts of xterm's state that decide how printable ASCII written now is drawn. */
interface PrintState {
  _parser: { currentState: number };
  _curAttrData: { fg: number; bg: number };
  _charsetService: { charset?: unknown };
  _coreService: { modes: { insertMode: boolean } };
  _activeBuffer: { x: number; y: number };
}

/**
 * Where printable ASCII written now would go, drawn as it is in the
 * default pen: the cursor, when the parser is between sequences (not
 * inside an escape, CSI or OSC), the pen is the default one, no character
 * set maps ASCII (DEC graphics) and insert mode is off; null otherwise.
 * What a key's echo is drawn ahead of the parse on (docs/tui.md, "The
 * echo"). Private API of @xterm/headless 6.0.0 (its InputHandler.print
 * reads the same fields), checked at construction; null when missing
 * (nothing is drawn ahead); terminal_test.ts fails if an upgrade drops it.
 */
export function plainPrintAt(term: XTerm): (() => { x: number; y: number } | null) | null {
  const handler = inputHandler<PrintState>(term);
  const fine = typeof handler?._parser?.currentState === "number" &&
    typeof handler._curAttrData?.fg === "number" && typeof handler._charsetService === "object" &&
    typeof handler._coreService?.modes?.insertMode === "boolean" &&
    typeof handler._activeBuffer?.x === "number";
  if (!fine) return null;
  // Each read through the handler: a full reset makes a new pen, modes and buffers.
  const h = handler as PrintState;
  return () => {
    const pen = h._curAttrData;
    if (
      h._parser.currentState !== GROUND || pen.fg !== 0 || pen.bg !== 0 ||
      h._charsetService.charset || h._coreService.modes.insertMode
    ) {
      return null;
    }
    return { x: h._activeBuffer.x, y: h._activeBuffer.y };
  };
}

/** xterm's ParserState.GROUND: between sequences, printable bytes print. */
const GROUND = 0;
