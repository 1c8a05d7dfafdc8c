/**
 * Host terminal input: bytes → keys, pastes and mouse events, named the
 * Bubble Tea way (`a`, `enter`, `space`, `esc`, `ctrl+x`, `alt+x`,
 * `shift+tab`, `up`, `ctrl+up`, `f5`, ...), as the plugin protocol (P3)
 * and the keymap use them. Pure: the caller owns the Esc timeout and calls
 * flush() when no byte followed a lone ESC in time.
 *
 * Every event keeps its `raw` bytes so terminal mode can forward keys
 * exactly as typed.
 */

export interface KeyEvent {
  readonly type: "key";
  /** Bubble Tea name, e.g. `ctrl+c`, `alt+x`, `f5`, `a`, `é`. */
  readonly name: string;
  /** Printable text of the key (`a`, `A`, `é`, ` `), "" for others. */
  readonly text: string;
  readonly raw: string;
}

export interface PasteEvent {
  readonly type: "paste";
  readonly text: string;
}

export type MouseKind = "press" | "release" | "drag" | "move" | "wheel";

export interface MouseEvent {
  readonly type: "mouse";
  readonly kind: MouseKind;
  /** 0 left, 1 middle, 2 right; for wheel: -1 up, 1 down. */
  readonly button: number;
  /** 0-based host cell. */
  readonly x: number;
  readonly y: number;
  readonly shift: boolean;
  readonly alt: boolean;
  readonly ctrl: boolean;
  readonly raw: string;
}

/** A DECRQM reply (`CSI ? mode ; value $ y`): how the host terminal answered a mode query. */
export interface ModeReportEvent {
  readonly type: "mode-report";
  readonly mode: number;
  /** 1 set, 2 reset, 3 permanently set, 4 permanently reset, 0 unknown mode. */
  readonly value: number;
}

/** What the user did: the reducer's input. */
export type UserInput = KeyEvent | PasteEvent | MouseEvent;
export type InputEvent = UserInput | ModeReportEvent;

const PASTE_START = "\x1b[200~";
const PASTE_END = "\x1b[201~";

const CSI_LETTERS: Readonly<Record<string, string>> = {
  A: "up",
  B: "down",
  C: "right",
  D: "left",
  E: "begin",
  F: "end",
  H: "home",
  P: "f1",
  Q: "f2",
  R: "f3",
  S: "f4",
};

const CSI_TILDE: Readonly<Record<string, string>> = {
  "1": "home",
  "2": "insert",
  "3": "delete",
  "4": "end",
  "5": "pgup",
  "6": "pgdown",
  "7": "home",
  "8": "end",
  "11": "f1",
  "12": "f2",
  "13": "f3",
  "14": "f4",
  "15": "f5",
  "17": "f6",
  "18": "f7",
  "19": "f8",
  "20": "f9",
  "21": "f10",
  "23": "f11",
  "24": "f12",
  "25": "f13",
  "26": "f14",
  "28": "f15",
  "29": "f16",
  "31": "f17",
  "32": "f18",
  "33": "f19",
  "34": "f20",
};

/** Names of C0 control bytes. */
function controlName(code: number): string {
  switch (code) {
    case 0:
      return "ctrl+@";
    case 9:
      return "tab";
    case 13:
      return "enter";
    case 27:
      return "esc";
    case 28:
      return "ctrl+\\";
    case 29:
      return "ctrl+]";
    case 30:
      return "ctrl+^";
    case 31:
      return "ctrl+_";
    case 127:
      return "backspace";
    default:
      return "ctrl+" + String.fromCharCode(code + 96);
  }
}

function withMods(name: string, mod: number): string {
  const m = mod - 1;
  if (m <= 0) return name;
  let prefix = "";
  if (m & 4) prefix += "ctrl+";
  if (m & 2) prefix += "alt+";
  if (m & 1) prefix += "shift+";
  return prefix + name;
}

/** Stateful decoder: feed chunks as they arrive; events come out whole. */
export class KeyDecoder {
  #buf = "";
  #paste: string[] | null = null;

  /** True while a lone ESC (or an unfinished sequence) waits for the timeout. */
  get pending(): boolean {
    return this.#buf.length > 0 && this.#paste === null;
  }

  feed(chunk: string): InputEvent[] {
    const out: InputEvent[] = [];
    this.#buf += chunk;
    this.#drain(out, false);
    return out;
  }

  /** The Esc timeout expired: whatever is buffered is taken literally. */
  flush(): InputEvent[] {
    const out: InputEvent[] = [];
    this.#drain(out, true);
    return out;
  }

  #drain(out: InputEvent[], final: boolean): void {
    for (;;) {
      if (this.#paste !== null) {
        const end = this.#buf.indexOf(PASTE_END);
        if (end < 0) {
          // Keep a tail that might be the start of the end marker.
          const keep = Math.min(this.#buf.length, PASTE_END.length - 1);
          this.#paste.push(this.#buf.slice(0, this.#buf.length - keep));
          this.#buf = this.#buf.slice(this.#buf.length - keep);
          return;
        }
        this.#paste.push(this.#buf.slice(0, end));
        out.push({ type: "paste", text: this.#paste.join("") });
        this.#paste = null;
        this.#buf = this.#buf.slice(end + PASTE_END.length);
        continue;
      }
      if (this.#buf.length === 0) return;
      const n = this.#one(out, final);
      if (n === 0) return; // incomplete: wait for more bytes or the timeout
      this.#buf = this.#buf.slice(n);
    }
  }

  /** Decodes one event at the start of the buffer; returns bytes used (0 = incomplete). */
  #one(out: InputEvent[], final: boolean): number {
    const b = this.#buf;
    const c = b.charCodeAt(0);
    if (c !== 27) {
      const ch = String.fromCodePoint(b.codePointAt(0)!);
      out.push(plainKey(ch));
      return ch.length;
    }
    if (b.length === 1) {
      if (!final) return 0;
      out.push({ type: "key", name: "esc", text: "", raw: "\x1b" });
      return 1;
    }
    const second = b[1]!;
    if (second === "[") {
      const n = this.#csi(out);
      if (n > 0 || (n === 0 && !final)) return n;
    } else if (second === "O") {
      if (b.length >= 3) {
        const name = CSI_LETTERS[b[2]!];
        if (name) {
          out.push({ type: "key", name, text: "", raw: b.slice(0, 3) });
          return 3;
        }
      } else if (!final) {
        return 0;
      }
    }
    // ESC followed by a key: alt+key (ESC ESC is alt+esc).
    const ch = String.fromCodePoint(b.codePointAt(1)!);
    const inner = plainKey(ch);
    out.push({ type: "key", name: "alt+" + inner.name, text: "", raw: "\x1b" + ch });
    return 1 + ch.length;
  }

  /** ESC [ ...: bytes used; 0 when incomplete; -1 when not a sequence. */
  #csi(out: InputEvent[]): number {
    const b = this.#buf;
    let end = 2;
    while (end < b.length) {
      const code = b.charCodeAt(end);
      if (code >= 0x40 && code <= 0x7e) break;
      if (code < 0x20 || code > 0x3f) return -1; // not a CSI: ESC then `[`
      end++;
    }
    if (end >= b.length) return b.length > 32 ? this.#garbage(out, b.length) : 0;
    const raw = b.slice(0, end + 1);
    if (raw === PASTE_START) {
      this.#paste = [];
      return raw.length;
    }
    const params = b.slice(2, end);
    const final = b[end]!;
    if (params.startsWith("<") && (final === "M" || final === "m")) {
      const mouse = parseSgrMouse(params.slice(1), final, raw);
      if (mouse) out.push(mouse);
      return raw.length;
    }
    if (final === "I" || final === "O") return raw.length; // focus in/out
    const report = /^\?(\d+);(\d+)\$$/.exec(params);
    if (final === "y" && report) {
      out.push({ type: "mode-report", mode: Number(report[1]), value: Number(report[2]) });
      return raw.length;
    }
    if (final === "Z") {
      out.push({ type: "key", name: "shift+tab", text: "", raw });
      return raw.length;
    }
    const parts = params.split(";");
    const mod = Number(parts[1] ?? "1") || 1;
    if (final === "~") {
      const name = CSI_TILDE[parts[0] ?? ""];
      out.push({ type: "key", name: name ? withMods(name, mod) : "unknown", text: "", raw });
      return raw.length;
    }
    const name = CSI_LETTERS[final];
    out.push({ type: "key", name: name ? withMods(name, mod) : "unknown", text: "", raw });
    return raw.length;
  }

  #garbage(out: InputEvent[], n: number): number {
    out.push({ type: "key", name: "unknown", text: "", raw: this.#buf.slice(0, n) });
    return n;
  }
}

function plainKey(ch: string): KeyEvent {
  const code = ch.codePointAt(0)!;
  if (code < 32 || code === 127) return { type: "key", name: controlName(code), text: "", raw: ch };
  if (ch === " ") return { type: "key", name: "space", text: " ", raw: ch };
  return { type: "key", name: ch, text: ch, raw: ch };
}

function parseSgrMouse(params: string, final: string, raw: string): MouseEvent | null {
  const [cb, cx, cy] = params.split(";").map(Number);
  if (cb === undefined || cx === undefined || cy === undefined || [cb, cx, cy].some(isNaN)) {
    return null;
  }
  const shift = (cb & 4) !== 0;
  const alt = (cb & 8) !== 0;
  const ctrl = (cb & 16) !== 0;
  const low = cb & 3;
  let kind: MouseKind;
  let button = low;
  if (cb & 64) {
    kind = "wheel";
    button = low === 0 ? -1 : 1;
  } else if (cb & 32) {
    kind = low === 3 ? "move" : "drag";
  } else {
    kind = final === "m" ? "release" : "press";
  }
  return { type: "mouse", kind, button, x: cx - 1, y: cy - 1, shift, alt, ctrl, raw };
}

/** The SGR (1006) report of a mouse event at another position (for a child's pane). */
export function encodeSgrMouse(e: MouseEvent, x: number, y: number): string {
  let cb = e.kind === "wheel" ? 64 + (e.button < 0 ? 0 : 1) : e.button;
  if (e.kind === "drag") cb += 32;
  if (e.kind === "move") cb = 35;
  if (e.shift) cb += 4;
  if (e.alt) cb += 8;
  if (e.ctrl) cb += 16;
  return `\x1b[<${cb};${x + 1};${y + 1}${e.kind === "release" ? "m" : "M"}`;
}

/**
 * The legacy (X10/normal, `CSI M`) report of a mouse event, for a child that
 * asked for the mouse without SGR encoding; null beyond column/row 223.
 */
export function encodeLegacyMouse(e: MouseEvent, x: number, y: number): string | null {
  if (x > 222 || y > 222) return null;
  let cb = e.kind === "wheel" ? 64 + (e.button < 0 ? 0 : 1) : e.kind === "release" ? 3 : e.button;
  if (e.kind === "drag") cb += 32;
  if (e.kind === "move") cb = 35;
  if (e.shift) cb += 4;
  if (e.alt) cb += 8;
  if (e.ctrl) cb += 16;
  return `\x1b[M${String.fromCharCode(cb + 32, x + 33, y + 33)}`;
}

/**
 * The bytes a key sends to a child: as typed, except unmodified arrows,
 * home and end in SS3 form when the child enabled application cursor keys.
 */
export function keyBytes(key: KeyEvent, appCursor: boolean): string {
  if (appCursor) {
    const r = key.raw;
    if (r.length === 3 && r.startsWith("\x1b[") && "ABCDHF".includes(r[2]!)) return "\x1bO" + r[2];
  }
  return key.raw;
}

/** Every name a plain byte can decode to (plainKey): C0 controls, space, DEL. */
const CONTROL_NAMES: ReadonlySet<string> = new Set(
  [...Array(32).keys(), 127].map((code) => controlName(code)).concat("space"),
);
/** Keys with a name of their own that take ctrl/alt/shift modifiers (CSI sequences). */
const MODIFIABLE: ReadonlySet<string> = new Set([
  ...Object.values(CSI_LETTERS),
  ...Object.values(CSI_TILDE),
]);
/** Names a terminal can never send apart: what it sends instead. */
const ALIASES: Readonly<Record<string, string>> = {
  "ctrl+i": "tab",
  "ctrl+m": "enter",
  "ctrl+j": "ctrl+j (a terminal sends enter as ctrl+m: enter)",
  "ctrl+[": "esc",
  "ctrl+?": "backspace",
  "return": "enter",
  "escape": "esc",
  "spacebar": "space",
  "pageup": "pgup",
  "pagedown": "pgdown",
  "del": "delete",
  "ins": "insert",
};

/**
 * Whether KeyDecoder can ever produce `name`: a printable character, a
 * control's name (`enter`, `ctrl+x`, `ctrl+]`), `alt+` one of those, or a
 * named key (`up`, `pgdown`, `f5`) with `ctrl+`, `alt+`, `shift+` in that order.
 */
export function isKeyName(name: string): boolean {
  const plain = (k: string) =>
    CONTROL_NAMES.has(k) || ([...k].length === 1 && k.codePointAt(0)! > 32 && k !== "\x7f" &&
      !(k.codePointAt(0)! >= 0x80 && k.codePointAt(0)! < 0xa0));
  if (plain(name) || name === "shift+tab") return true;
  if (name.startsWith("alt+") && plain(name.slice(4))) return true;
  const m = /^(ctrl\+)?(alt\+)?(shift\+)?([a-z0-9]+)$/.exec(name);
  return m !== null && MODIFIABLE.has(m[4]!);
}

/** Why `name` is no key name, with what to write instead when known; null when it is one. */
export function keyNameProblem(name: string): string | null {
  if (isKeyName(name)) return null;
  const alias = ALIASES[name.toLowerCase()];
  if (alias !== undefined && alias !== name) {
    return `${JSON.stringify(name)} is not a key name: write ${alias}`;
  }
  if (isKeyName(name.toLowerCase())) {
    return `${JSON.stringify(name)} is not a key name: write ${name.toLowerCase()}`;
  }
  return `${JSON.stringify(name)} is not a key name`;
}

/** The names a user may write (for suggestions): controls, named keys and their usual forms. */
export const KEY_NAMES: readonly string[] = [
  ...CONTROL_NAMES,
  ...MODIFIABLE,
  "shift+tab",
];
