/**
 * A session's history, kept like tmux keeps it: the emulator holds the
 * screen and a small margin of scrollback (MARGIN rows), and each row it is
 * about to drop goes into the compact store (scrollback.ts) instead. One
 * 200-column row costs ~3 KB in xterm and ~250 bytes in the store
 * (bench/memory.ts). Readers — the TUI's scroll view (screen_read.ts),
 * `ctl read --tail` (tail.ts) — see one sequence of rows: the store's,
 * then the emulator's; what they read is what they read when xterm kept
 * every row (history_test.ts compares both on the captures and on
 * generated output, resizes included).
 *
 * What keeps it exact:
 * - A row enters the store at the moment xterm would drop it (its scroll
 *   step, xterm_internals.ts), as it is then; rows are never changed in
 *   scrollback, except by the three events below.
 * - Erase of the scrollback (ED 3 on the normal screen) and a full reset
 *   (RIS) empty the store as they empty xterm's.
 * - A resize: xterm reflows its part; the store reflows its own logical
 *   lines the same way (scrollback_reflow.ts). The logical line that
 *   crosses the border, and as many rows as the resize may pull from
 *   scrollback onto the screen, are first handed back to xterm, and during
 *   the resize xterm may hold the whole history (nothing it trims is lost);
 *   then what is above its margin goes back to the store.
 * - The total kept is the configured scrollback, as xterm counts it: rows
 *   above the screen.
 *
 * Must not import tui/. Falls back to xterm keeping everything when its
 * internals are not there (xterm_internals.ts).
 */

import type { TailBuffer } from "./tail.ts";
import { ScrollbackStore } from "./scrollback.ts";
import { lineOf, reflowStore } from "./scrollback_reflow.ts";
import { lineText, WIDTH_SHIFT } from "./row_codec.ts";
import type { DecodedRow } from "./row_codec.ts";
import type { XTerm } from "./terminal.ts";
import {
  activeLine,
  type ScrollbackInternals,
  scrollbackInternals,
  type XtermBuffer,
} from "./xterm_internals.ts";

/**
 * The length of xterm's buffer once a resize has given the screen its new
 * height and before it trims and reflows (the start of Buffer.resize: rows
 * below the cursor go or come, else the screen moves over the scrollback).
 */
function linesAfterRows(buffer: XtermBuffer, oldRows: number, newRows: number): number {
  let length = buffer.lines.length;
  let ybase = buffer.ybase;
  const y = buffer.y;
  if (newRows > oldRows) {
    let addToY = 0;
    for (let r = oldRows; r < newRows; r++) {
      if (length >= newRows + ybase) continue;
      if (ybase > 0 && length <= ybase + y + addToY + 1) {
        ybase--;
        addToY++;
      } else length++;
    }
  } else {
    for (let r = oldRows; r > newRows; r--) {
      if (length <= newRows + ybase) continue;
      if (length > ybase + y + 1) length--;
      else ybase++;
    }
  }
  return length;
}

/** Rows of scrollback the emulator keeps itself: a resize or a new line rarely reaches past them. */
export const MARGIN = 32;

/** One row of history with its cells (History.activeRows). */
export interface HistoryLine {
  readonly isWrapped: boolean;
  translateToString(trimRight: boolean): string;
  /**
   * Visits each cell left to right as xterm's getCell gives it: its column,
   * width (0: the right half of a wide character) and characters ("" when empty).
   */
  cells(visit: (col: number, width: number, chars: string) => void): void;
}

export interface HistoryRows {
  readonly length: number;
  getLine(y: number): HistoryLine | undefined;
}

/** A stored row's cells as xterm would give them at `cols` columns (empty cells past `used`). */
function storedCells(
  row: DecodedRow,
  cols: number,
  visit: (col: number, width: number, chars: string) => void,
): void {
  for (let x = 0; x < cols; x++) {
    if (x >= row.used) visit(x, 1, "");
    else visit(x, row.content[x]! >>> WIDTH_SHIFT, row.chars(x));
  }
}

export class History {
  readonly #term: XTerm;
  readonly #internals: ScrollbackInternals | null;
  readonly #store = new ScrollbackStore();
  /** Rows of scrollback kept in all (config `scrollback`). */
  readonly #limit: number;
  readonly #margin: number;

  constructor(term: XTerm, limit: number, margin = MARGIN) {
    this.#term = term;
    this.#limit = limit;
    // At least one row: xterm still writes to the row it has just scrolled up (the rest of a row
    // a wide character did not fit in is filled after the scroll).
    this.#margin = Math.max(1, margin);
    const internals = limit > this.#margin ? scrollbackInternals(term) : null;
    this.#internals = internals;
    if (!internals) return;
    term.options.scrollback = this.#margin;
    internals.onScroll((buffer) => this.#beforeScroll(buffer));
    // ED 3 (and DECSED 3) on the normal screen erases the scrollback; RIS everything.
    for (const id of [{ final: "J" }, { prefix: "?", final: "J" }]) {
      term.parser.registerCsiHandler(id, (params) => {
        if (params[0] === 3 && internals.normalActive()) {
          this.#storeChange(() => this.#store.clear());
        }
        return false;
      });
    }
    term.parser.registerEscHandler({ final: "c" }, () => {
      this.#store.clear();
      return false;
    });
  }

  /** Rows of history in the store, above the emulator's own buffer. */
  get stored(): number {
    return this.#store.length;
  }

  /** Stored row `i` (0: the oldest), decoded (valid until the next read). */
  row(i: number): DecodedRow {
    return this.#store.decode(i);
  }

  /**
   * Every row of the normal buffer, oldest first — the store's, then the
   * emulator's — as tail.ts reads them.
   */
  normalRows(): TailBuffer {
    const store = this.#store;
    const stored = store.length;
    const cols = this.#term.cols;
    const internals = this.#internals;
    if (!internals) return this.#term.buffer.normal;
    const lines = internals.normal().lines;
    return {
      length: stored + lines.length,
      getLine: (y) => {
        if (y < stored) {
          return {
            isWrapped: store.wrapped(y),
            translateToString: (trimRight: boolean) => store.text(y, cols, trimRight),
          };
        }
        const line = lines.get(y - stored);
        if (!line) return undefined;
        // Read through the codec: a tenth of the garbage of translateToString (bench/memory.ts).
        return {
          isWrapped: line.isWrapped,
          translateToString: (trimRight: boolean) => lineText(line, cols, trimRight),
        };
      },
    };
  }

  /**
   * Every row of the active buffer, oldest first: on the normal screen the
   * store's then the emulator's, on the alternate screen the emulator's
   * (it has no scrollback). With each row's cells, for readers that map
   * text back to columns (search, buffer_text.ts).
   */
  activeRows(): HistoryRows {
    const active = this.#term.buffer.active;
    const stored = active.type === "normal" && this.#internals ? this.#store.length : 0;
    const text = stored > 0 ? this.normalRows() : active;
    const store = this.#store;
    const cols = this.#term.cols;
    return {
      length: stored + active.length,
      getLine: (y) => {
        const line = text.getLine(y);
        if (!line) return undefined;
        return {
          isWrapped: line.isWrapped,
          translateToString: (trimRight: boolean) => line.translateToString(trimRight),
          cells: (visit) => {
            if (y < stored) return storedCells(store.decode(y), cols, visit);
            const row = active.getLine(y - stored);
            if (!row) return;
            const cell = active.getNullCell();
            for (let x = 0; x < row.length; x++) {
              if (!row.getCell(x, cell)) break;
              visit(x, cell.getWidth(), cell.getChars());
            }
          },
        };
      },
    };
  }

  /**
   * Clears the wrap flag of row `index` of the active buffer, counted as
   * if xterm held the whole history (the store's rows first), if it exists.
   */
  clearWrap(index: number): void {
    const stored = this.#internals?.normalActive() ? this.#store.length : 0;
    if (index < stored) return this.#store.unwrap(index);
    const line = activeLine(this.#term, index - stored);
    if (line) line.isWrapped = false;
  }

  /** Resizes the emulator, and the history with it (see the module comment). */
  resize(cols: number, rows: number): void {
    const term = this.#term;
    const internals = this.#internals;
    const newCols = Math.max(2, cols);
    const newRows = Math.max(1, rows);
    if (newCols === term.cols && newRows === term.rows) return;
    if (!internals) return term.resize(newCols, newRows);
    const oldCols = term.cols;
    // Room for all of it: nothing xterm trims while it resizes is lost.
    const normal = internals.normal();
    internals.setScrollback(this.#limit);
    normal.lines.maxLength = term.rows + this.#limit;
    this.#handBack(this.#handBackCount(newCols, newRows), oldCols);
    // xterm trims the rows past the scrollback once the screen has its new height, before it
    // reflows (a logical line may lose its first rows): so does the store.
    const length = linesAfterRows(normal, term.rows, newRows) + this.#store.length;
    this.#trimOldest(Math.min(this.#store.length, length - (newRows + this.#limit)));
    this.#reflow(oldCols, newCols, () => term.resize(newCols, newRows));
    // What is above the margin goes to the store, and leaves xterm's buffer as its trim would
    // take it (the saved cursor as an index from the store's end, not clamped at 0).
    const excess = Math.max(0, normal.lines.length - (newRows + this.#margin));
    for (let i = 0; i < excess; i++) this.#store.append(normal.lines.get(i)!);
    internals.setScrollback(this.#margin);
    normal.lines.trimStart(excess);
    normal.lines.maxLength = newRows + this.#margin;
    normal.ybase -= excess;
    normal.ydisp -= excess;
    normal.savedY -= excess;
    // A narrower screen made more rows: the oldest go, as xterm trims them after its reflow.
    this.#trimOldest(this.#store.length + normal.ybase - this.#limit);
  }

  /**
   * Reflows the store, then xterm (`resize`), moving the saved cursor as
   * xterm holding every row would. xterm keeps it as a row index; here it
   * counts from the store's end (history.ts #storeChange). A wider screen
   * moves it up by the rows joined, not above row 0 of the whole history:
   * xterm sees it counted from the top for that. A narrower one moves it
   * down by the rows each logical line gains, not below the screen's
   * bottom row; the store's lines, above all of xterm's, then only clamp it.
   */
  #reflow(oldCols: number, newCols: number, resize: () => void): void {
    const normal = this.#internals!.normal();
    const store = this.#store;
    const before = store.length;
    if (newCols > oldCols) {
      const whole = normal.savedY + before;
      reflowStore(store, oldCols, newCols, this.#internals!.newLine);
      normal.savedY = Math.max(whole - (before - store.length), 0);
      resize();
      normal.savedY -= store.length;
      return;
    }
    reflowStore(store, oldCols, newCols, this.#internals!.newLine);
    resize();
    if (store.length > before) {
      normal.savedY = Math.min(normal.savedY, normal.ybase + this.#term.rows - 1);
    }
  }

  /** Drops the `n` oldest rows, moving the saved cursor as xterm's trim does (not below row 0). */
  #trimOldest(n: number): void {
    if (n <= 0) return;
    const normal = this.#internals!.normal();
    const whole = normal.savedY + this.#store.length;
    this.#store.dropOldest(n);
    normal.savedY = Math.max(whole - n, 0) - this.#store.length;
  }

  #beforeScroll(buffer: XtermBuffer): void {
    const internals = this.#internals!;
    if (buffer !== internals.normal() || buffer.scrollTop !== 0) return;
    if (buffer.lines.isFull) {
      // xterm is about to drop its oldest row: it becomes the store's newest.
      this.#storeChange(() => {
        this.#store.append(buffer.lines.get(0)!);
        this.#cap(buffer);
      });
    } else if (this.#store.length > 0 && this.#store.length + buffer.ybase + 1 > this.#limit) {
      // xterm's part grows by one row (after a resize left it under its margin).
      this.#storeChange(() => this.#store.dropOldest(1));
    }
  }

  /**
   * Changes the store's size by `change()`, keeping the saved cursor
   * (DECSC) where xterm holding the whole history would have it. xterm
   * keeps it as an index into its buffer: with the store, that index
   * counts from the store's end (it may go below zero: the saved row is in
   * the store; xterm then restores to the top row, as it would).
   */
  #storeChange(change: () => void): void {
    const normal = this.#internals!.normal();
    const before = this.#store.length;
    change();
    normal.savedY -= this.#store.length - before;
  }

  /** Keeps the rows above the screen within the configured scrollback. */
  #cap(buffer: XtermBuffer): void {
    const over = this.#store.length + buffer.ybase - this.#limit;
    if (over > 0) this.#store.dropOldest(over);
  }

  /**
   * How many of the store's newest rows xterm needs before a resize: those
   * it may pull onto the screen (rows added, wrapped rows joined by a wider
   * screen), and the whole logical line crossing the border.
   */
  #handBackCount(newCols: number, newRows: number): number {
    const store = this.#store;
    const stored = store.length;
    if (stored === 0) return 0;
    const normal = this.#internals!.normal();
    const widen = newCols > this.#term.cols;
    let need = Math.max(0, newRows - this.#term.rows);
    if (widen) {
      for (let i = 0; i < normal.lines.length; i++) if (normal.lines.get(i)!.isWrapped) need++;
    }
    let k = 0;
    const topWrapped = () => (k === 0 ? normal.lines.get(0)!.isWrapped : store.wrapped(stored - k));
    while (k < stored && (normal.ybase + k < need || topWrapped())) {
      k++;
      if (widen && store.wrapped(stored - k)) need++;
    }
    return k;
  }

  /** Moves the store's `count` newest rows back to the top of xterm's buffer. */
  #handBack(count: number, cols: number): void {
    if (count === 0) return;
    const internals = this.#internals!;
    const store = this.#store;
    const from = store.length - count;
    const lines = [];
    for (let i = from; i < store.length; i++) {
      lines.push(lineOf(store.decode(i), cols, internals.newLine));
    }
    const normal = internals.normal();
    normal.lines.splice(0, 0, ...lines);
    normal.ybase += count;
    normal.ydisp += count;
    this.#storeChange(() => store.dropNewest(count));
  }
}
