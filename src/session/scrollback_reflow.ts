/**
 * Reflows the scrollback store when the columns change, the way xterm
 * reflows its own buffer, so that history that left the emulator looks
 * after a resize exactly as it would have had the emulator kept it: a
 * logical line (a row and the rows soft-wrapped after it) is joined when
 * the screen widens and cut again when it narrows, wide characters never
 * split. The algorithm is a port of @xterm/xterm 6.0.0's
 * `common/buffer/BufferReflow.ts` and `Buffer._reflowSmaller` (MIT, the
 * xterm.js authors), applied one logical line at a time to rows decoded
 * into xterm's own BufferLine objects, so every cell copy is xterm's code;
 * rows no reflow touches are copied as bytes. history_test.ts checks the
 * result against xterm holding the whole history.
 *
 * What xterm does around it (the rows that move between scrollback and
 * screen, the cursor's own line, which xterm leaves alone) stays in the
 * emulator: history.ts hands it the logical line that crosses the border
 * first.
 */

import type { DecodedRow } from "./row_codec.ts";
import { ScrollbackStore } from "./scrollback.ts";
import { NULL_CELL, type XtermLine } from "./xterm_internals.ts";

export type NewLine = (cols: number, wrapped: boolean) => XtermLine;

/** Reflows every logical line of `store` from `oldCols` to `newCols`. */
export function reflowStore(
  store: ScrollbackStore,
  oldCols: number,
  newCols: number,
  newLine: NewLine,
): void {
  if (oldCols === newCols || store.length === 0) return;
  const out = new ScrollbackStore();
  const n = store.length;
  for (let y = 0; y < n;) {
    let end = y + 1;
    while (end < n && store.wrapped(end)) end++;
    if (newCols > oldCols) widen(store, out, y, end, oldCols, newCols, newLine);
    else narrow(store, out, y, end, oldCols, newCols, newLine);
    y = end;
  }
  store.replaceWith(out);
}

/** A stored row as an xterm row of `cols` cells. */
export function lineOf(row: DecodedRow, cols: number, newLine: NewLine): XtermLine {
  const line = newLine(cols, row.wrapped);
  const d = line._data;
  const n = Math.min(row.used, cols);
  for (let i = 0, j = 0; i < n; i++, j += 3) {
    d[j] = row.content[i]!;
    d[j + 1] = row.fg[i]!;
    d[j + 2] = row.bg[i]!;
  }
  for (const [i, text] of row.combined) if (i < cols) line._combined[i] = text;
  return line;
}

function group(
  store: ScrollbackStore,
  from: number,
  to: number,
  cols: number,
  newLine: NewLine,
): XtermLine[] {
  const lines: XtermLine[] = [];
  for (let i = from; i < to; i++) lines.push(lineOf(store.decode(i), cols, newLine));
  return lines;
}

/** Wider: xterm pads every row, then joins each wrapped logical line (reflowLargerGetLinesToRemove). */
function widen(
  store: ScrollbackStore,
  out: ScrollbackStore,
  from: number,
  to: number,
  oldCols: number,
  newCols: number,
  newLine: NewLine,
): void {
  if (to - from === 1) return out.appendFrom(store, from);
  const lines = group(store, from, to, newCols, newLine);
  let destLineIndex = 0;
  let destCol = wrappedLineTrimmedLength(lines, destLineIndex, oldCols);
  let srcLineIndex = 1;
  let srcCol = 0;
  while (srcLineIndex < lines.length) {
    const srcTrimmed = wrappedLineTrimmedLength(lines, srcLineIndex, oldCols);
    const cellsToCopy = Math.min(srcTrimmed - srcCol, newCols - destCol);
    lines[destLineIndex]!.copyCellsFrom(lines[srcLineIndex]!, srcCol, destCol, cellsToCopy, false);
    destCol += cellsToCopy;
    if (destCol === newCols) {
      destLineIndex++;
      destCol = 0;
    }
    srcCol += cellsToCopy;
    if (srcCol === srcTrimmed) {
      srcLineIndex++;
      srcCol = 0;
    }
    // Make sure the last cell isn't wide; if it is, copy it to the current dest.
    if (destCol === 0 && destLineIndex !== 0) {
      if (lines[destLineIndex - 1]!.getWidth(newCols - 1) === 2) {
        lines[destLineIndex]!.copyCellsFrom(
          lines[destLineIndex - 1]!,
          newCols - 1,
          destCol++,
          1,
          false,
        );
        lines[destLineIndex - 1]!.setCell(newCols - 1, NULL_CELL);
      }
    }
  }
  lines[destLineIndex]!.replaceCells(destCol, newCols, NULL_CELL);
  // Rows at the end that only hold empty cells go.
  let remove = 0;
  for (let i = lines.length - 1; i > 0; i--) {
    if (i > destLineIndex || lines[i]!.getTrimmedLength() === 0) remove++;
    else break;
  }
  for (let i = 0; i < lines.length - remove; i++) out.append(lines[i]!);
}

/** Narrower: a logical line too long for the new width is cut again (Buffer._reflowSmaller). */
function narrow(
  store: ScrollbackStore,
  out: ScrollbackStore,
  from: number,
  to: number,
  oldCols: number,
  newCols: number,
  newLine: NewLine,
): void {
  const last = store.decode(to - 1);
  if (!last.wrapped && last.trimmedLength() <= newCols) {
    // Untouched, but cut to the new width like every row (cells past it may hold colours).
    if (last.used <= newCols) return out.appendFrom(store, from);
    return out.append(lineOf(last, oldCols, newLine), newCols);
  }
  const wrapped = group(store, from, to, oldCols, newLine);
  const lastLineLength = wrapped[wrapped.length - 1]!.getTrimmedLength();
  const destLineLengths = newLineLengths(wrapped, oldCols, newCols);
  const linesToAdd = destLineLengths.length - wrapped.length;
  for (let i = 0; i < linesToAdd; i++) wrapped.push(newLine(newCols, true));
  // Copy backwards, in place.
  let destLineIndex = destLineLengths.length - 1;
  let destCol = destLineLengths[destLineIndex]!;
  if (destCol === 0) {
    destLineIndex--;
    destCol = destLineLengths[destLineIndex]!;
  }
  let srcLineIndex = wrapped.length - linesToAdd - 1;
  let srcCol = lastLineLength;
  while (srcLineIndex >= 0) {
    const cellsToCopy = Math.min(srcCol, destCol);
    if (wrapped[destLineIndex] === undefined) break; // xterm's own sanity check
    wrapped[destLineIndex]!.copyCellsFrom(
      wrapped[srcLineIndex]!,
      srcCol - cellsToCopy,
      destCol - cellsToCopy,
      cellsToCopy,
      true,
    );
    destCol -= cellsToCopy;
    if (destCol === 0) {
      destLineIndex--;
      destCol = destLineLengths[destLineIndex]!;
    }
    srcCol -= cellsToCopy;
    if (srcCol === 0) {
      srcLineIndex--;
      srcCol = wrappedLineTrimmedLength(wrapped, Math.max(srcLineIndex, 0), oldCols);
    }
  }
  // Null out the end of rows whose wide character moved to the next one.
  for (let i = 0; i < wrapped.length; i++) {
    const length = destLineLengths[i];
    if (length !== undefined && length < newCols) wrapped[i]!.setCell(length, NULL_CELL);
  }
  for (const line of wrapped) out.append(line, newCols);
}

/** reflowSmallerGetNewLineLengths: where each new row ends (one cell short before a wide character). */
function newLineLengths(wrapped: readonly XtermLine[], oldCols: number, newCols: number): number[] {
  const lengths: number[] = [];
  let cellsNeeded = 0;
  for (let i = 0; i < wrapped.length; i++) {
    cellsNeeded += wrappedLineTrimmedLength(wrapped, i, oldCols);
  }
  let srcCol = 0;
  let srcLine = 0;
  let cellsAvailable = 0;
  while (cellsAvailable < cellsNeeded) {
    if (cellsNeeded - cellsAvailable < newCols) {
      lengths.push(cellsNeeded - cellsAvailable);
      break;
    }
    srcCol += newCols;
    const oldTrimmed = wrappedLineTrimmedLength(wrapped, srcLine, oldCols);
    if (srcCol > oldTrimmed) {
      srcCol -= oldTrimmed;
      srcLine++;
    }
    const endsWithWide = wrapped[srcLine]!.getWidth(srcCol - 1) === 2;
    if (endsWithWide) srcCol--;
    const length = endsWithWide ? newCols - 1 : newCols;
    lengths.push(length);
    cellsAvailable += length;
  }
  return lengths;
}

/** getWrappedLineTrimmedLength: a row's length in its logical line (not counting a gap before a wide character). */
function wrappedLineTrimmedLength(lines: readonly XtermLine[], i: number, cols: number): number {
  const line = lines[i]!;
  if (i === lines.length - 1) return line.getTrimmedLength();
  const endsInNull = !line.hasContent(cols - 1) && line.getWidth(cols - 1) === 1;
  const followingStartsWithWide = lines[i + 1]!.getWidth(0) === 2;
  return endsInNull && followingStartsWithWide ? cols - 1 : cols;
}
