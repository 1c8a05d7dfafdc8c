import assert from "node:assert/strict";
import fc from "fast-check";
import { listCaptures } from "../replay/fixtures.ts";
import { Cells } from "../model/cells.ts";
import { HeadlessTerminal } from "./terminal.ts";
import { maxScroll, readScreen } from "./screen_read.ts";

/**
 * The compact store against xterm keeping every row itself (a margin as
 * large as the scrollback: nothing ever leaves the emulator): what the
 * scroll view shows at every offset and what `read --tail` returns must be
 * the same, before and after resizes.
 */
function pair(cols: number, rows: number, scrollback: number, margin = 2) {
  const reference = new HeadlessTerminal({ cols, rows, scrollback, margin: scrollback });
  const subject = new HeadlessTerminal({ cols, rows, scrollback, margin });
  // xterm keeping far more rows than the reference: it says when the reference itself is wrong.
  const unbounded = new HeadlessTerminal({ cols, rows, scrollback: 100_000, margin: 100_000 });
  return {
    reference,
    subject,
    unbounded,
    [Symbol.dispose]() {
      reference[Symbol.dispose]();
      subject[Symbol.dispose]();
      unbounded[Symbol.dispose]();
    },
  };
}

/**
 * The rows the reference holds read the same in xterm holding many more.
 * Not always after a narrowing: xterm 6.0.0 loses rows when the new rows
 * overflow its scrollback (Buffer._reflowSmaller; seed 283080031: the
 * screen showed an old row instead of the cursor's empty line, the store
 * the right one).
 */
function referenceRight(p: ReturnType<typeof pair>): boolean {
  const max = maxScroll(p.reference);
  for (let offset = 0; offset <= max; offset++) {
    const a = readScreen(p.reference, cells, offset).grid.chars;
    const b = readScreen(p.unbounded, cells, offset).grid.chars;
    if (a.join("\n") !== b.join("\n")) return false;
  }
  return true;
}

const cells = (cols: number, rows: number) => new Cells(cols, rows);

function grid(g: Cells) {
  return {
    chars: g.chars,
    widths: [...g.widths],
    fg: [...g.fg],
    bg: [...g.bg],
    attrs: [...g.attrs],
    cursor: g.cursor,
  };
}

/** Everything a reader can see of both, compared; `every`: each offset, else a sample. */
/** The normal screen's history and screen as text without blanks: a reflow that loses nothing keeps it. */
function normalText(t: HeadlessTerminal): string {
  return t.tail(1_000_000).lines.join("").replaceAll(" ", "");
}

function same(reference: HeadlessTerminal, subject: HeadlessTerminal, what: string, every = true) {
  const max = maxScroll(reference);
  assert.equal(maxScroll(subject), max, `${what}: scrollback rows`);
  assert.deepEqual(subject.visibleLines(), reference.visibleLines(), `${what}: screen`);
  assert.deepEqual(subject.cursor, reference.cursor, `${what}: cursor`);
  const offsets = every
    ? Array.from({ length: max + 1 }, (_, i) => i)
    : [...new Set([0, 1, 2, Math.floor(max / 3), Math.floor(max / 2), max - 1, max])];
  for (const offset of offsets) {
    if (offset < 0 || offset > max) continue;
    const a = readScreen(reference, cells, offset);
    const b = readScreen(subject, cells, offset);
    assert.equal(b.offset, a.offset);
    assert.deepEqual(grid(b.grid), grid(a.grid), `${what}: view ${offset} up`);
  }
  for (const n of [1, 3, 17, 1_000_000]) {
    assert.deepEqual(subject.tail(n), reference.tail(n), `${what}: tail(${n})`);
  }
}

async function writeBoth(p: ReturnType<typeof pair>, data: string | Uint8Array) {
  p.reference.write(data);
  p.subject.write(data);
  p.unbounded.write(data);
  await Promise.all([p.reference.flush(), p.subject.flush(), p.unbounded.flush()]);
}

Deno.test("rows that leave the emulator go to the store; reads stay the same", async () => {
  using p = pair(20, 4, 50, 3);
  const text = Array.from({ length: 40 }, (_, i) => `\x1b[3${i % 8}mline ${i}\x1b[0m é界`).join(
    "\r\n",
  );
  await writeBoth(p, text);
  assert.equal(p.subject.history.stored, 33, "40 lines, 4 on screen, 3 in the margin");
  assert.equal(p.reference.history.stored, 0);
  same(p.reference, p.subject, "40 lines");
  await writeBoth(p, "\r\n" + Array.from({ length: 100 }, (_, i) => `more ${i}`).join("\r\n"));
  assert.equal(p.subject.history.stored, 47, "50 rows kept in all, 3 of them in the margin");
  same(p.reference, p.subject, "past the limit");
});

Deno.test("ED 3 and a full reset empty the store as they empty xterm's scrollback", async () => {
  using p = pair(12, 3, 30, 2);
  await writeBoth(p, Array.from({ length: 20 }, (_, i) => `r${i}`).join("\r\n"));
  assert.ok(p.subject.history.stored > 0);
  await writeBoth(p, "\x1b[3J");
  assert.equal(p.subject.history.stored, 0);
  same(p.reference, p.subject, "after ED 3");
  await writeBoth(p, Array.from({ length: 20 }, (_, i) => `s${i}`).join("\r\n"));
  await writeBoth(p, "\x1b[?1049h\x1b[3J\x1b[?1049l");
  assert.ok(p.subject.history.stored > 0, "ED 3 on the alternate screen leaves the normal one");
  same(p.reference, p.subject, "ED 3 on the alternate screen");
  await writeBoth(p, "\x1bc");
  assert.equal(p.subject.history.stored, 0);
  same(p.reference, p.subject, "after RIS");
});

Deno.test("a resize reflows the store like xterm: wide characters, wrapped lines, rows pulled back", async () => {
  using p = pair(10, 4, 200, 2);
  const lines = [
    "0123456789abcdefghij0123",
    "界界界界界界界界界界界界",
    "a界b界c界d界e界f界g界h界",
    "\x1b[44m  blue  \x1b[0m",
    "x".repeat(37),
    "short",
  ];
  await writeBoth(p, Array.from({ length: 12 }, (_, i) => lines[i % lines.length]).join("\r\n"));
  same(p.reference, p.subject, "before");
  for (const [cols, rows] of [[7, 4], [13, 6], [3, 2], [25, 9], [10, 4], [9, 12], [40, 3]]) {
    p.reference.resize(cols!, rows!);
    p.subject.resize(cols!, rows!);
    same(p.reference, p.subject, `after ${cols}x${rows}`);
  }
});

/** Pieces of output: SGR of every kind, wide and combining characters, moves, erases, resets. */
const piece = fc.oneof(
  {
    weight: 6,
    arbitrary: fc.constantFrom("word ", "x", "ab cd", "界", "😀", "e\u0301", "─┼─", "\t"),
  },
  {
    weight: 3,
    arbitrary: fc.stringMatching(/^[a-z界😀 ]{0,40}$/),
  },
  {
    weight: 4,
    arbitrary: fc.constantFrom(
      "\r\n",
      "\r\n",
      "\n",
      "\r",
      "\b",
      "\x1b[31m",
      "\x1b[1;4;7m",
      "\x1b[2;3;5;8;9m",
      "\x1b[38;5;200m",
      "\x1b[48;2;1;2;3m",
      "\x1b[38;2;9;8;7;48;5;17m",
      "\x1b[4:3m",
      "\x1b[4:0m",
      "\x1b[0m",
      "\x1b]8;;http://x\x1b\\link\x1b]8;;\x1b\\",
      "\x1b[K",
      "\x1b[1K",
      "\x1b[2K",
      "\x1b[J",
      "\x1b[1J",
      "\x1b[2J",
      "\x1b[3J",
      "\x1b[H",
      "\x1b[5;3H",
      "\x1b[2;4r",
      "\x1b[r",
      "\x1bM",
      "\x1b[2L",
      "\x1b[M",
      "\x1b[2S",
      "\x1b[T",
      "\x1b7",
      "\x1b8",
      "\x1b[?1049h",
      "\x1b[?1049l",
      "\x1b[?7l",
      "\x1b[?7h",
      "\x1bc",
      "\x1b[3@",
      "\x1b[2P",
    ),
  },
  { weight: 2, arbitrary: fc.integer({ min: 1, max: 60 }).map((n) => `${"y".repeat(n)}\r\n`) },
);

type Step = { type: "write"; data: string } | { type: "resize"; cols: number; rows: number };

const step: fc.Arbitrary<Step> = fc.oneof(
  {
    weight: 8,
    arbitrary: fc.array(piece, { maxLength: 12 }).map((p) => ({
      type: "write" as const,
      data: p.join(""),
    })),
  },
  {
    weight: 1,
    arbitrary: fc.record({
      type: fc.constant("resize" as const),
      cols: fc.integer({ min: 2, max: 24 }),
      rows: fc.integer({ min: 1, max: 9 }),
    }),
  },
);

Deno.test("generated output and resizes read the same from the store as from xterm", async () => {
  await fc.assert(
    fc.asyncProperty(
      fc.integer({ min: 2, max: 16 }),
      fc.integer({ min: 1, max: 6 }),
      fc.integer({ min: 0, max: 4 }),
      fc.array(step, { minLength: 1, maxLength: 25 }),
      async (cols, rows, margin, steps) => {
        using p = pair(cols, rows, 24, margin);
        for (const [i, s] of steps.entries()) {
          if (s.type === "write") await writeBoth(p, s.data);
          else {
            const narrower = s.cols < p.reference.cols;
            // xterm 6.0.0 itself garbles its oldest row when a narrower screen gives one logical
            // line more new rows than the scrollback holds (a negative index in its rebuild wraps
            // around, Buffer._reflowSmaller); the store keeps the right row: not compared.
            const longest = Math.max(0, ...p.reference.tail(1_000_000).lines.map((l) => l.length));
            fc.pre(!narrower || (2 * longest) / s.cols < 24);
            const kept = narrower && p.reference.altScreen ? normalText(p.reference) : null;
            p.reference.resize(s.cols, s.rows);
            p.subject.resize(s.cols, s.rows);
            p.unbounded.resize(s.cols, s.rows);
            fc.pre(!narrower || referenceRight(p));
            // On the alternate screen, xterm 6.0.0's reflow of the normal one can lose characters
            // (seed -1909802495: "yyyyyy" became "yyyy"; the same steps without the alternate
            // screen keep it): the reference is no oracle then, and the store, whose newest rows
            // xterm reflows, loses others.
            fc.pre(kept === null || normalText(p.reference) === kept);
            // xterm moves the saved cursor (DECSC) by the rows every logical line gains when the
            // screen narrows, clamped group by group; the store does not replay that (history.ts):
            // a position saved before a narrowing is saved again. On the alternate screen the
            // same goes for the position ?1049h saved on the normal one (found by seed
            // 1928317691): it is saved again at home, leaving and entering again (which clears
            // the alternate screen of both).
            if (narrower && p.reference.altScreen) {
              await writeBoth(p, "\x1b[?1049l\x1b[H\x1b[?1049h");
            }
            if (narrower) await writeBoth(p, "\x1b7");
          }
          same(p.reference, p.subject, `step ${i} ${JSON.stringify(s)}`);
        }
      },
    ),
    // HISTORY_SEED=<seed> replays a failure CI printed; HISTORY_RUNS=N runs more cases.
    {
      numRuns: Number(Deno.env.get("HISTORY_RUNS") ?? 250),
      ...(Deno.env.get("HISTORY_SEED") ? { seed: Number(Deno.env.get("HISTORY_SEED")) } : {}),
    },
  );
});

Deno.test("every capture reads the same from the store, at its size, narrower and after resizes", async () => {
  const captures = await listCaptures(new URL("../../fixtures/captures/", import.meta.url));
  for (const capture of captures) {
    const { cols, rows } = capture.meta;
    for (const [c, r] of [[cols, Math.min(rows, 12)], [Math.max(20, cols >> 1), 10]]) {
      using p = pair(c!, r!, 400, 4);
      const bytes = capture.bytes;
      const thirds = [0, bytes.length / 3, (2 * bytes.length) / 3, bytes.length].map(Math.floor);
      const sizes = [[c!, r!], [c! + 17, r! + 5], [Math.max(10, c! - 23), r!]];
      for (let i = 0; i < 3; i++) {
        const [sc, sr] = sizes[i]!;
        p.reference.resize(sc!, sr!);
        p.subject.resize(sc!, sr!);
        await writeBoth(p, bytes.subarray(thirds[i], thirds[i + 1]));
        same(p.reference, p.subject, `${capture.name} at ${c}x${r}, part ${i + 1}`, false);
      }
    }
  }
});
