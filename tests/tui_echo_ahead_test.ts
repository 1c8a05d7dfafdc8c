/**
 * A typed key's echo is written to the terminal before the session's
 * emulator parses it (src/tui/renderer.ts `writeAhead`, docs/tui.md "The
 * echo"), and what the terminal shows is still the frame of the moment:
 * when the echo was not drawn as guessed (a pen the program set, a
 * sequence cut between two reads, a wide character beside the cursor, the
 * right margin), the frame drawn once it is parsed mends it. A real TuiApp
 * over a real Runtime and a session running `cat` in a raw PTY (what is
 * typed comes back as it is, escapes included), its frames written into a
 * host emulator, compared cell by cell (text, colours, attributes) and by
 * cursor with a whole frame drawn afresh.
 */

import assert from "node:assert/strict";
import { parseConfig } from "../src/config/config.ts";
import { Runtime } from "../src/runtime/runtime.ts";
import { HeadlessTerminal } from "../src/session/terminal.ts";
import { ScreenReader } from "../src/session/screen_read.ts";
import type { Session } from "../src/session/session.ts";
import { screenText, testEnv, waitFor, waitForText } from "../src/session/test_util.ts";
import { TuiApp } from "../src/tui/app.ts";
import { Frame } from "../src/tui/core/frame.ts";
import { view } from "../src/tui/core/view/mod.ts";
import { random } from "./random.ts";

const COLS = 70;
const ROWS = 16;

interface Lab {
  readonly runtime: Runtime;
  readonly host: HeadlessTerminal;
  readonly app: TuiApp;
  readonly session: Session;
  /** Every write to the host, with whether the session's screen showed the echo by then. */
  readonly writes: { text: string; parsed: boolean }[];
  /** The text the session's screen shows when a write happens (set by the test). */
  expect: string | null;
  /** For each call of `afterEcho`, how many writes there were by then. */
  readonly echoes: number[];
  [Symbol.asyncDispose](): Promise<void>;
}

/** `session`: the session's size, kept (window_size: manual), else the pane's. */
async function lab(session?: { cols: number; rows: number }): Promise<Lab> {
  const dir = Deno.makeTempDirSync({ prefix: "lazyshell-echo-ahead-" });
  const env = testEnv({ XDG_CONFIG_HOME: `${dir}/c`, XDG_DATA_HOME: `${dir}/d` });
  const config = parseConfig(session ? "window_size: manual\n" : "", "config.yml");
  const runtime = new Runtime({ env, config, cwd: dir });
  const host = new HeadlessTerminal({ cols: COLS, rows: ROWS });
  const writes: { text: string; parsed: boolean }[] = [];
  const echoes: number[] = [];
  const l = { expect: null as string | null } as { expect: string | null };
  let child: Session | null = null;
  const app = new TuiApp({
    runtime,
    write: (text) => {
      const parsed = l.expect !== null && child !== null &&
        screenText(child).includes(l.expect);
      writes.push({ text, parsed });
      host.write(text);
    },
    cols: COLS,
    rows: ROWS,
    afterEcho: () => echoes.push(writes.length),
  });
  app.start();
  child = runtime.createSession({
    command: "stty raw -echo; printf READY; exec cat",
    ...session,
  });
  await waitForText(child, "READY", 30_000);
  app.feed("\r");
  assert.equal(app.state.mode, "terminal");
  app.flush();
  await host.flush();
  return Object.assign(l, {
    runtime,
    host,
    app,
    session: child,
    writes,
    echoes,
    async [Symbol.asyncDispose]() {
      app[Symbol.dispose]();
      host[Symbol.dispose]();
      await runtime[Symbol.asyncDispose]();
      Deno.removeSync(dir, { recursive: true });
    },
  });
}

/** Types `text` and waits until the session's screen and the host are up to date. */
async function type(l: Lab, text: string, marker: string): Promise<void> {
  l.app.feed(text);
  await waitFor(l.session, () => screenText(l.session).includes(marker), 10_000);
  // Past the echo window: any frame still due is drawn.
  l.app.flush();
  await l.host.flush();
}

/** The host shows exactly what a whole frame drawn afresh now shows: every cell and the cursor. */
function assertShowsFrame(l: Lab, what: string): void {
  const screen = l.session.screenReader((c, r) => new Frame(c, r)).read(0, null).grid;
  const fresh = view(l.app.state, { keymap: l.app.keymap, screen, tabLines: null });
  using reader = new ScreenReader(l.host, (c, r) => new Frame(c, r));
  const shown = reader.read(0, null).grid;
  for (let y = 0; y < ROWS; y++) {
    for (let x = 0; x < COLS; x++) {
      const i = y * COLS + x;
      const cell = (f: Frame) =>
        `${JSON.stringify(f.chars[i] || " ")} w${f.widths[i]} fg${f.fg[i]} bg${f.bg[i]} a${
          f.attrs[i]
        }`;
      if (cell(shown) !== cell(fresh)) {
        assert.fail(
          `${what}: cell (${x}, ${y}) shows ${cell(shown)}, the frame has ${cell(fresh)}`,
        );
      }
    }
  }
  // The host's cursor as read (null when hidden), where the frame shows it (null: hidden).
  assert.deepEqual(shown.cursor, fresh.cursor, `${what}: cursor`);
}

/** Types 30 keys (on until one echo came ahead, at most 300): each drawn as it is. */
async function typeAhead(l: Lab): Promise<number> {
  let ahead = 0;
  let line = "";
  // The echo is awaited 2 ms: on a loaded machine some come later (then drawn after the parse),
  // so past the first 30 keys it types on until one came in time.
  for (let k = 0; k < 30 || (ahead === 0 && k < 300); k++) {
    if (k % 10 === 0) {
      l.expect = null;
      line = `~${k}:`;
      await type(l, `\r\n${line}`, line);
    }
    const ch = "abcdefghij"[k % 10]!;
    line += ch;
    l.expect = line;
    const from = l.writes.length;
    const echoes = l.echoes.length;
    await type(l, ch, line);
    const written = l.writes.slice(from);
    // The CPU is yielded once, right after the echo is written (ahead, or in its frame).
    assert.deepEqual(l.echoes.slice(echoes), [from + 1], `key ${k}: afterEcho`);
    if (written[0]?.parsed === false) {
      ahead++;
      // Drawn as it is: the frame of the parsed echo had nothing left to write.
      assert.deepEqual(written.map((w) => w.text), [ch], `key ${k}`);
    }
    assertShowsFrame(l, `key ${k}`);
  }
  return ahead;
}

Deno.test("a typed key's echo reaches the terminal before its emulator parses it, and nothing follows it", async () => {
  await using l = await lab();
  assert.ok(await typeAhead(l) > 0, "no echo was written ahead of its parse");
});

Deno.test("in a pane smaller than its session (120×40 in a 70×16 client), the echo is written ahead in the window's cells", async () => {
  await using l = await lab({ cols: 120, rows: 40 });
  await type(l, "\r\n".repeat(45) + "~start", "~start"); // the cursor on the last row, the window below
  assert.ok(l.session.rows === 40 && l.app.state.rows === 16, "a session bigger than the pane");
  const ahead = await typeAhead(l);
  console.log(`echo ahead in a window: ${ahead} of the keys typed`);
  assert.ok(ahead > 0, "no echo was written ahead of its parse");
});

/** Waits until the session has parsed all its output and the host shows the frame due. */
async function settle(l: Lab): Promise<void> {
  // Until a round passes with no output: an echo arriving late would be drawn after the compare.
  for (let quiet = false; !quiet;) {
    let outputs = 0;
    using _ = l.session.on((e) => void (e.type === "output" && outputs++));
    await waitFor(l.session, () => !l.session.outputBehind, 10_000);
    await new Promise((r) => setTimeout(r, 20));
    l.app.flush();
    await l.host.flush();
    quiet = outputs === 0;
  }
}

Deno.test("an echo written ahead and drawn otherwise by the session is mended by the next frame", async () => {
  await using l = await lab();
  const next = random(11);
  const pick = <T>(xs: readonly T[]) => xs[Math.floor(next() * xs.length)]!;
  const cols = l.session.cols;
  for (let step = 0; step < 150; step++) {
    // Where the next plain text goes: anywhere, near the right margin, next to wide characters.
    const x = pick([1, 5, cols - 8, cols - 3, cols - 2, cols - 1, cols]);
    // Above the last two rows: what wraps stays off the marker's row, and nothing scrolls.
    const y = 1 + Math.floor(next() * (l.session.rows - 2));
    const around = pick(["", "界界界界", "ab界cd"]);
    const pen = pick([
      "",
      "\x1b[1m",
      "\x1b[31m",
      "\x1b[7;4m",
      "\x1b[38;5;200m",
      "\x1b(0",
      "\x1b[4h",
    ]);
    const marker = `~${step}~`;
    // The stage (a marker on the last row, then the characters around), then the pen in a read
    // of its own, then plain text typed alone.
    const rows = l.session.rows;
    const stage = `\x1b[0m\x1b(B\x1b[4l\x1b[${rows};1H\x1b[K${marker}\x1b[${y};${x}H${around}`;
    await type(l, stage, marker);
    // On the characters around, or on either half of a wide one.
    l.app.feed(`\x1b[${y};${x + pick([0, 1, 2, 3])}H${pen}`);
    await settle(l);
    const text = pick(["x", "hello", "qqq"]);
    const cut = pick(["", "\x1b[", "\x1b]0;"]);
    if (cut) l.app.feed(cut); // a sequence begun in one read: the next plain text belongs to it
    l.app.feed(text);
    if (cut) l.app.feed(cut === "\x1b[" ? "m" : "\x07");
    await settle(l);
    assertShowsFrame(
      l,
      `step ${step} (x ${x}, pen ${JSON.stringify(pen)}, cut ${JSON.stringify(cut)})`,
    );
  }
});
