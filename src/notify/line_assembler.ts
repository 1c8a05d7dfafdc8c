/**
 * Completed lines from a session's raw output (docs/notifications.md), pure.
 *
 * Why raw bytes and not the emulator's buffer: reading a line back from
 * xterm (`translateToString` at each line feed) cost more than the 10%
 * throughput budget for watchers (bench/watchers.ts); slicing the stream
 * the PTY already hands us costs a fraction of it. Each byte is seen once,
 * so each line is tested once, never on a redraw of the screen.
 *
 * A line is the text between two `\n`, rendered the way a terminal would
 * leave it on one row: SGR and other escapes removed, `\r` returns to
 * column 0 and overwrites (progress bars leave their last state), `\b`,
 * CSI G/C/D (cursor column moves) and CSI K (erase in line) applied; a
 * tab stays a tab (`\s` matches it). Vertical cursor moves are not followed (full-screen programs
 * use the alternate screen, where matching pauses anyway).
 *
 * The alternate screen is tracked in-stream (DECSET/DECRST 47, 1047,
 * 1049) so the pause starts and ends at the exact byte. So is shell
 * integration's OSC 133: from a prompt's start (A) to the command's output
 * (C), what shows is the prompt and the command line the user typed, not a
 * program's output, so it is not tested. Escape sequences
 * split across chunks are carried over. A line that never ends is bounded.
 */

/** A line longer than this (no `\n` for a long time) keeps only its tail. */
export const MAX_LINE = 16 * 1024;

// deno-lint-ignore no-control-regex -- control characters are the subject here
const CONTROL = /[\x00-\x08\x0b-\x1f\x7f]/;
// deno-lint-ignore no-control-regex -- SGR sequences
const SGR = /\x1b\[[0-9;:]*m/g;
// deno-lint-ignore no-control-regex -- alternate-screen switches and OSC 133 shell marks
const MARKS = /\x1b\[\?([0-9;]*)([hl])|\x1b\]133;([A-D])[^\x07\x1b]*(?:\x07|\x1b\\)/g;
// deno-lint-ignore no-control-regex -- SGR only (the common case of coloured logs)
const SGR_FAST = /\x1b\[[\d;]*m/g;
/**
 * Whether a block (SGR removed) holds something that moves text on its row
 * (an escape, backspace, VT/FF, a `\r` that is not a line end), so that its
 * lines must be rendered one by one. `includes` is a fast scan; a regex
 * alternation here was the hottest thing in a profile. Invisible controls
 * (BEL, NUL, ...) are left alone: a pattern spanning one is the only thing
 * the block search can miss.
 */
function movesText(block: string): boolean {
  return block.includes("\x1b") || block.includes("\b") || block.includes("\x0b") ||
    block.includes("\x0c") || loneCr(block);
}

/** A `\r` not followed by `\r` or `\n` (it returns to column 0: a progress bar). */
function loneCr(block: string): boolean {
  for (let i = block.indexOf("\r"); i >= 0; i = block.indexOf("\r", i + 1)) {
    const next = block.charCodeAt(i + 1);
    if (next !== 13 && next !== 10) return true;
  }
  return false;
}

/**
 * Finds where in a block of plain text (lines ending in `\r\n` or `\n`, SGR
 * removed) a line may match, searching from `from` (a line start): the
 * index of the leftmost possible match, or -1 when no line from there on
 * can match. It may report a place where no single line matches (a match
 * across lines); it must never miss one.
 */
export type BlockSearch = (text: string, from: number) => number;

/** Below this a chunk is cut into lines directly; the block test would not pay. */
const BLOCK_MIN = 512;

export class LineAssembler {
  /** True while the alternate screen is active (lines are dropped). */
  altScreen: boolean;
  /** Between OSC 133;A (prompt) and 133;C (output): the shell's prompt and the typed line. */
  #shellUi = false;
  #partial = "";
  #carry = "";

  readonly #search: BlockSearch | null;

  /**
   * `search` enables the fast path: in a chunk made only of printable text,
   * SGR and line ends, only the lines where `search` finds a possible match
   * are cut out and reported; the others cost one regex scan of the chunk
   * (bench/watchers.ts). Without it every line is reported.
   */
  constructor(altScreen = false, search: BlockSearch | null = null) {
    this.altScreen = altScreen;
    this.#search = search;
  }

  /** Feeds one chunk; calls `onLine` for every line it completes, in order. */
  push(chunk: string, onLine: (line: string) => void): void {
    let data = this.#carry ? this.#carry + chunk : chunk;
    this.#carry = "";
    const cut = incompleteEscape(data);
    if (cut >= 0) {
      this.#carry = data.slice(cut);
      data = data.slice(0, cut);
    }
    // SGR never moves text: drop it once for the whole chunk (not per line) before looking
    // for marks, so that a coloured log has no escape left to look through.
    if (!this.altScreen && data.includes("\x1b")) data = data.replace(SGR_FAST, "");
    if (!data.includes("\x1b[?") && !data.includes("\x1b]133;")) return this.#text(data, onLine);
    let from = 0;
    MARKS.lastIndex = 0;
    for (let m = MARKS.exec(data); m; m = MARKS.exec(data)) {
      const mark = m[3];
      if (mark === undefined) {
        const params = (m[1] ?? "").split(";");
        if (!params.some((p) => p === "1049" || p === "1047" || p === "47")) continue;
        this.#text(data.slice(from, m.index), onLine);
        this.altScreen = m[2] === "h";
      } else {
        this.#text(data.slice(from, m.index), onLine);
        this.#shellMark(mark, onLine);
      }
      from = m.index + m[0].length;
    }
    this.#text(data.slice(from), onLine);
  }

  #shellMark(mark: string, onLine: (line: string) => void): void {
    if (mark === "A") {
      // What a program printed without a last newline is still its output.
      if (this.#partial !== "" && !this.#shellUi) onLine(renderLine(this.#partial));
      this.#partial = "";
      this.#shellUi = true;
    } else if (mark === "B") {
      this.#shellUi = true;
    } else if (mark === "C") {
      this.#partial = "";
      this.#shellUi = false;
    }
  }

  #text(chunk: string, onLine: (line: string) => void): void {
    if (this.altScreen || this.#shellUi || chunk === "") return;
    // SGR left after a switch back from the alternate screen (push drops the rest).
    const data = chunk.includes("\x1b") ? chunk.replace(SGR_FAST, "") : chunk;
    let start = 0;
    if (this.#search !== null && data.length >= BLOCK_MIN) {
      // The line already begun joins this chunk's first piece: cut it the slow way.
      if (this.#partial !== "") {
        const nl = data.indexOf("\n");
        if (nl < 0) return this.#append(data);
        this.#lines(data.slice(0, nl + 1), onLine);
        start = nl + 1;
      }
      const last = data.lastIndexOf("\n");
      if (last < start) return this.#append(data.slice(start));
      const block = data.slice(start, last + 1);
      if (!movesText(block)) {
        this.#matching(block, this.#search, onLine);
        return this.#append(data.slice(last + 1));
      }
    }
    this.#lines(start === 0 ? data : data.slice(start), onLine);
  }

  /** Reports only the lines of `block` (whole lines) where `search` points. */
  #matching(block: string, search: BlockSearch, onLine: (line: string) => void): void {
    for (let from = 0; from < block.length;) {
      const at = search(block, from);
      if (at < 0) return;
      const lineStart = block.lastIndexOf("\n", at - 1) + 1;
      const lineEnd = block.indexOf("\n", at);
      const end = lineEnd < 0 ? block.length : lineEnd;
      onLine(renderLine(block.slice(Math.max(lineStart, from), end)));
      from = end + 1;
    }
  }

  #append(text: string): void {
    if (text === "") return;
    this.#partial += text;
    if (this.#partial.length > MAX_LINE) this.#partial = boundLine(this.#partial);
  }

  #lines(data: string, onLine: (line: string) => void): void {
    let start = 0;
    for (let nl = data.indexOf("\n"); nl >= 0; nl = data.indexOf("\n", start)) {
      const piece = data.slice(start, nl);
      const raw = this.#partial ? this.#partial + piece : piece;
      this.#partial = "";
      onLine(renderLine(raw));
      start = nl + 1;
    }
    if (start < data.length) this.#append(data.slice(start));
  }
}

/** Index where an escape sequence cut by the chunk boundary starts, or -1. */
function incompleteEscape(data: string): number {
  const esc = data.lastIndexOf("\x1b");
  if (esc < 0 || data.length - esc > 256) return -1;
  const rest = data.slice(esc + 1);
  if (rest === "") return esc;
  const kind = rest[0];
  if (kind === "[") return /^\[[0-?]*[ -/]*[@-~]/.test(rest) ? -1 : esc;
  if (kind === "]" || kind === "P" || kind === "_" || kind === "^") {
    return rest.includes("\x07") || rest.includes("\x1b\\") ? -1 : esc;
  }
  return -1;
}

/** Keeps what a never-ending line would still show: after its last `\r`, else its tail. */
function boundLine(partial: string): string {
  const cr = partial.lastIndexOf("\r");
  const tail = cr >= 0 ? partial.slice(cr + 1) : partial;
  return tail.length > MAX_LINE ? tail.slice(tail.length - MAX_LINE) : tail;
}

/** The text one raw line leaves on its row (see the module comment). */
export function renderLine(raw: string): string {
  let end = raw.length;
  // "\r\n", and "\r\r\n" when a program's own \r\n meets the PTY's onlcr.
  while (end > 0 && raw.charCodeAt(end - 1) === 13) end--;
  const line = end === raw.length ? raw : raw.slice(0, end);
  if (!CONTROL.test(line)) return line;
  const plain = line.includes("\x1b[") ? line.replace(SGR, "") : line;
  if (!CONTROL.test(plain)) return plain;
  return emulateRow(plain);
}

/** One row of a terminal, for the lines that need more than SGR removal. */
function emulateRow(line: string): string {
  const cells: string[] = [];
  let col = 0;
  const put = (ch: string) => {
    while (cells.length < col) cells.push(" ");
    cells[col++] = ch;
  };
  for (let i = 0; i < line.length; i++) {
    const ch = line[i]!;
    const code = ch.charCodeAt(0);
    if (code >= 0x20 && code !== 0x7f) {
      put(ch);
      continue;
    }
    if (ch === "\r") col = 0;
    else if (ch === "\b") col = Math.max(0, col - 1);
    else if (ch === "\t") put(ch); // kept as is, like on the fast path
    else if (ch === "\x1b") i = escape(line, i, cells, (c) => (col = c), () => col);
  }
  return cells.join("").trimEnd();
}

/** Applies the escape at `i` to the row; returns the index of its last character. */
function escape(
  line: string,
  i: number,
  cells: string[],
  setCol: (c: number) => void,
  col: () => number,
): number {
  const kind = line[i + 1];
  if (kind === "[") {
    const m = /^\[([0-?]*)[ -/]*([@-~])/.exec(line.slice(i + 1, i + 64));
    if (!m) return i;
    const n = Math.max(1, Number((m[1] ?? "").split(";")[0]) || 1);
    const p = Number(m[1]) || 0;
    switch (m[2]) {
      case "G":
        setCol(Math.min(n - 1, 4096));
        break;
      case "C":
        setCol(Math.min(col() + n, 4096));
        break;
      case "D":
        setCol(Math.max(0, col() - n));
        break;
      case "K":
        if (p === 0) cells.length = Math.min(cells.length, col());
        else if (p === 1) { for (let c = 0; c <= col() && c < cells.length; c++) cells[c] = " "; }
        else cells.length = 0;
        break;
    }
    return i + m[0].length;
  }
  if (kind === "]" || kind === "P" || kind === "_" || kind === "^") {
    const bel = line.indexOf("\x07", i + 2);
    const st = line.indexOf("\x1b\\", i + 2);
    const end = [bel, st >= 0 ? st + 1 : -1].filter((x) => x >= 0);
    return end.length ? Math.min(...end) : line.length;
  }
  return kind === undefined ? i : i + 1;
}
