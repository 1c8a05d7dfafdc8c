/**
 * Reads a pattern in JavaScript regex syntax (docs/manifests.md, Regexes) for the linear-time
 * matcher (regex.ts): writes the same pattern in RE2 syntax as it goes, refuses with the reason
 * what has no linear-time algorithm (lookahead, back-references), and keeps the parse tree of
 * items, each with its V8 spelling and weight, from which regex.ts picks the prefilter. Pure.
 */

/** A pattern that cannot be read, or has no linear-time match: the message says why. */
export class RegexError extends Error {}

/** JavaScript's `\s` (RE2's is ASCII only). */
const JS_SPACE =
  "\\t\\n\\x{b}\\f\\r \\x{a0}\\x{1680}\\x{2000}-\\x{200a}\\x{2028}\\x{2029}\\x{202f}\\x{205f}\\x{3000}\\x{feff}";
/** JavaScript's `.`: anything but line terminators. */
const JS_DOT = "[^\\n\\r\\x{2028}\\x{2029}]";

/** A parsed item: how it reads in RE2 and, when it can join a prefilter, in V8. */
export interface Item {
  readonly re2: string;
  /** V8 source of one occurrence; null: cannot be part of a prefilter. */
  readonly v8: string | null;
  /** How much a prefilter gains from it: a literal 3, a class 1, an assertion 0. */
  readonly weight: number;
  /** Group contents (unquantified single-branch groups are looked into). */
  readonly branches?: Item[][];
  readonly min: number;
  readonly quantified: boolean;
}

/** A recursive-descent reader of JavaScript regex syntax, writing RE2 syntax as it goes. */
export class PatternParser {
  #i = 0;
  #opaque = false;

  constructor(private readonly src: string) {}

  parse(): { re2: string; tree: Item[][]; opaque: boolean } {
    const tree = this.#alternation();
    if (this.#i < this.src.length) this.#fail("Unmatched )");
    return { re2: joinBranches(tree), tree, opaque: this.#opaque };
  }

  #fail(reason: string): never {
    throw new RegexError(reason);
  }

  #alternation(): Item[][] {
    const branches = [this.#sequence()];
    while (this.src[this.#i] === "|") {
      this.#i++;
      branches.push(this.#sequence());
    }
    return branches;
  }

  #sequence(): Item[] {
    const items: Item[] = [];
    while (this.#i < this.src.length && this.src[this.#i] !== "|" && this.src[this.#i] !== ")") {
      items.push(this.#quantified(this.#atom()));
    }
    return items;
  }

  #quantified(item: Item): Item {
    const rest = this.src.slice(this.#i);
    const m = /^(?:[*+?]|\{(\d+)(,(\d*))?\})\??/.exec(rest);
    if (!m) return item;
    this.#i += m[0].length;
    const min = m[0][0] === "+" ? 1 : m[0][0] === "{" ? Number(m[1]) : 0;
    return { ...item, re2: `${item.re2}${m[0]}`, min, quantified: true };
  }

  #atom(): Item {
    const c = this.src[this.#i]!;
    if (c === "(") return this.#group();
    if (c === "[") return this.#class();
    if (c === "\\") return this.#escape();
    this.#i++;
    if (c === ".") return item(JS_DOT, ".", 0);
    if (c === "^" || c === "$") return item(c, c, 0);
    if (c === "*" || c === "+" || c === "?") this.#fail(`Nothing to repeat before ${c}`);
    const cp = this.src.codePointAt(this.#i - 1)!;
    if (cp > 0xffff) this.#i++;
    return literal(cp);
  }

  #group(): Item {
    const rest = this.src.slice(this.#i);
    let open: string;
    let length: number | null = null; // of the opening in the pattern, when not open's
    let lookbehind = false;
    if (rest.startsWith("(?=") || rest.startsWith("(?!")) {
      this.#fail(`Lookahead ${rest.slice(0, 3)} is not supported (patterns match in linear time)`);
    } else if (rest.startsWith("(?<=") || rest.startsWith("(?<!")) {
      open = rest.slice(0, 4);
      lookbehind = true;
    } else if (/^\(\?<[A-Za-z_]\w*>/.test(rest)) {
      open = `(?P<${/^\(\?<(\w+)>/.exec(rest)![1]}>`;
      length = rest.indexOf(">") + 1;
    } else if (rest.startsWith("(?:")) {
      open = "(?:";
    } else if (/^\(\?[a-zA-Z-]+[:)]/.test(rest)) {
      open = /^\(\?[a-zA-Z-]+[:)]/.exec(rest)![0]; // inline flags: RE2's, no prefilter
      this.#opaque = true;
      if (open.endsWith(")")) {
        this.#i += open.length;
        return { re2: open, v8: null, weight: 0, min: 1, quantified: false };
      }
    } else {
      open = "(";
    }
    this.#i += length ?? open.length;
    const branches = this.#alternation();
    if (this.src[this.#i] !== ")") this.#fail("Unterminated group");
    this.#i++;
    const re2 = `${open}${joinBranches(branches)})`;
    if (lookbehind) return { re2, v8: null, weight: 0, min: 1, quantified: false };
    return { re2, v8: null, weight: 0, branches, min: 1, quantified: false };
  }

  /** `[...]`: members translated one by one; `\S` inside is RE2's (ASCII) one. */
  #class(): Item {
    this.#i++;
    let re2 = "[";
    let v8 = "[";
    let wide = false; // holds a member V8 reads narrower than RE2 (`\S`)
    if (this.src[this.#i] === "^") {
      re2 += "^";
      v8 += "^";
      this.#i++;
    }
    const negated = re2 === "[^";
    if (this.src[this.#i] === "]") {
      // JavaScript's `[]` matches nothing, `[^]` anything.
      if (!negated) this.#fail("Empty character class []");
      this.#i++;
      return item("[\\x{0}-\\x{10ffff}]", "[^]", 0);
    }
    while (this.#i < this.src.length && this.src[this.#i] !== "]") {
      const c = this.src[this.#i]!;
      if (c === "\\") {
        const esc = this.#classEscape();
        re2 += esc.re2;
        v8 += esc.v8;
        wide ||= esc.wide;
      } else if (c === "-") {
        this.#i++;
        re2 += "-";
        v8 += "-";
      } else {
        const cp = this.src.codePointAt(this.#i)!;
        this.#i += cp > 0xffff ? 2 : 1;
        re2 += hex(cp);
        v8 += uni(cp);
      }
    }
    if (this.src[this.#i] !== "]") this.#fail("Unterminated character class");
    this.#i++;
    return item(`${re2}]`, wide && !negated ? "[^]" : `${v8}]`, 1);
  }

  #classEscape(): { re2: string; v8: string; wide: boolean } {
    const c = this.src[this.#i + 1];
    if (c === "s") {
      this.#i += 2;
      return { re2: JS_SPACE, v8: "\\s", wide: false };
    }
    if (c === "S") {
      this.#i += 2;
      return { re2: "\\S", v8: "\\S", wide: true };
    }
    if (c !== undefined && /[dDwW]/.test(c)) {
      this.#i += 2;
      return { re2: `\\${c}`, v8: `\\${c}`, wide: false };
    }
    if (c === "b") {
      this.#i += 2;
      return { re2: "\\x{8}", v8: "\\u0008", wide: false };
    }
    const property = this.#property();
    if (property) return { ...property, wide: false };
    const cp = this.#charEscape();
    return { re2: hex(cp), v8: uni(cp), wide: false };
  }

  #escape(): Item {
    const c = this.src[this.#i + 1];
    if (c === undefined) this.#fail("\\ at end of pattern");
    if (/[1-9]/.test(c) || (c === "k" && this.src[this.#i + 2] === "<")) {
      this.#fail(`Back-reference \\${c} is not supported (patterns match in linear time)`);
    }
    const two = `\\${c}`;
    if (/[dDwW]/.test(c)) {
      this.#i += 2;
      return item(two, two, 1);
    }
    if (c === "s" || c === "S") {
      this.#i += 2;
      return item(`[${c === "S" ? "^" : ""}${JS_SPACE}]`, two, 1);
    }
    if (c === "b" || c === "B") {
      this.#i += 2;
      return item(two, two, 0);
    }
    const property = this.#property();
    if (property) return item(property.re2, property.v8, 1);
    if (c === "A" || c === "z") {
      this.#i += 2;
      return item(two, c === "A" ? "^" : "$", 0);
    }
    return literal(this.#charEscape());
  }

  /** `\p{Lu}`, `\P{Script=Greek}`: a Unicode property, as RE2 spells it (`\p{Greek}`). */
  #property(): { re2: string; v8: string } | null {
    const m = /^\\([pP])\{(?:(?:Script|sc|General_Category|gc)=)?([A-Za-z_]+)\}/.exec(
      this.src.slice(this.#i),
    );
    if (!m) return null;
    this.#i += m[0].length;
    return { re2: `\\${m[1]}{${m[2]}}`, v8: m[0] };
  }

  /** An escape naming one character (`\n`, `\u{FE0E}`, `\x41`, `\cA`, `\.`); advances past it. */
  #charEscape(): number {
    const rest = this.src.slice(this.#i);
    const simple: Record<string, number> = { n: 10, r: 13, t: 9, f: 12, v: 11, "0": 0 };
    const c = rest[1]!;
    let m: RegExpExecArray | null;
    if (c in simple && !(c === "0" && /^\\0\d/.test(rest))) {
      this.#i += 2;
      return simple[c]!;
    }
    if ((m = /^\\u\{([0-9a-fA-F]{1,6})\}/.exec(rest)) || (m = /^\\u([0-9a-fA-F]{4})/.exec(rest))) {
      this.#i += m[0].length;
      const cp = parseInt(m[1]!, 16);
      if (cp > 0x10ffff) this.#fail(`Invalid escape ${m[0]}`);
      return cp;
    }
    if ((m = /^\\x([0-9a-fA-F]{2})/.exec(rest))) {
      this.#i += 4;
      return parseInt(m[1]!, 16);
    }
    if ((m = /^\\c([A-Za-z])/.exec(rest))) {
      this.#i += 3;
      return m[1]!.charCodeAt(0) % 32;
    }
    if (/[^\w\s]/.test(c) || c === "_") {
      const cp = rest.codePointAt(1)!;
      this.#i += cp > 0xffff ? 3 : 2;
      return cp;
    }
    return this.#fail(`Invalid escape \\${c}`);
  }
}

function item(re2: string, v8: string | null, weight: number): Item {
  return { re2, v8, weight, min: 1, quantified: false };
}

function literal(cp: number): Item {
  return item(hex(cp), uni(cp), 3);
}

/** A character in RE2 syntax: itself when a letter, digit or space, else `\x{…}`. */
function hex(cp: number): string {
  return /[A-Za-z0-9 ]/.test(String.fromCodePoint(cp))
    ? String.fromCodePoint(cp)
    : `\\x{${cp.toString(16)}}`;
}

/** The same in V8 syntax, with or without `u` (`\uHHHH`, a surrogate pair above U+FFFF). */
function uni(cp: number): string {
  const char = String.fromCodePoint(cp);
  if (/[A-Za-z0-9 ]/.test(char)) return char;
  return [...Array(char.length).keys()]
    .map((i) => `\\u${char.charCodeAt(i).toString(16).padStart(4, "0")}`).join("");
}

function joinBranches(branches: readonly Item[][]): string {
  return branches.map((b) => b.map((i) => i.re2).join("")).join("|");
}
