/**
 * What the host terminal shows is the frame of the moment: the real TUI
 * loop (TuiApp) over a real Runtime and a real session, its frames written
 * into a host emulator, compared after every change with a whole frame
 * drawn afresh from the same state and the session's screen read anew.
 * The pane-only redraws (src/tui/renderer.ts: only the changed rows of the
 * screen, drawn into the frame before last with only the rows it lacks
 * copied) and the diffs that continue from the last frame (diff.ts
 * `continued`) must add up to it.
 */

import assert from "node:assert/strict";
import { parseConfig } from "../src/config/config.ts";
import { Runtime } from "../src/runtime/runtime.ts";
import { HeadlessTerminal } from "../src/session/terminal.ts";
import { testEnv, waitFor, waitForText } from "../src/session/test_util.ts";
import { TuiApp } from "../src/tui/app.ts";
import { Frame } from "../src/tui/core/frame.ts";
import { view } from "../src/tui/core/view/mod.ts";
import { random } from "./random.ts";

const COLS = 70;
const ROWS = 16;

Deno.test("the host screen equals a whole frame drawn afresh after every pane-only redraw", async () => {
  const dir = Deno.makeTempDirSync({ prefix: "lazyshell-tui-frames-" });
  const env = testEnv({ XDG_CONFIG_HOME: `${dir}/c`, XDG_DATA_HOME: `${dir}/d` });
  await using runtime = new Runtime({ env, config: parseConfig("", "config.yml"), cwd: dir });
  using host = new HeadlessTerminal({ cols: COLS, rows: ROWS });
  using app = new TuiApp({ runtime, write: (t) => host.write(t), cols: COLS, rows: ROWS });
  try {
    app.start();
    // Raw mode: each line typed is printed back as is, escapes included (cursor moves, colours).
    const session = runtime.createSession({
      command: "stty raw -echo; printf READY; exec cat",
    });
    await waitForText(session, "READY", 30_000);
    app.feed("\r");
    assert.equal(app.state.mode, "terminal");
    const next = random(7);
    const pick = <T>(xs: readonly T[]) => xs[Math.floor(next() * xs.length)]!;
    for (let step = 0; step < 120; step++) {
      const y = 1 + Math.floor(next() * (session.rows + 2));
      const x = 1 + Math.floor(next() * session.cols);
      const text = pick(["x", "hello", "界z", " ", "wide界界", "abcdefghij"]);
      const style = pick(["", "\x1b[1;31m", "\x1b[7m", "\x1b[38;5;200m"]);
      const tail = pick(["", "\r\n", "\x1b[K", "\x1b[2J", "\n\n\n"]);
      const chunk = step % 3 === 0 ? text : `\x1b[${y};${x}H${style}${text}\x1b[0m${tail}`;
      app.feed(chunk);
      const marker = `~${step}~`;
      app.feed(`\x1b[${session.rows};1H\x1b[K${marker}`);
      await waitFor(session, () => session.visibleLines().some((l) => l.includes(marker)), 10_000);
      app.flush();
      await host.flush();
      const screen = session.screenReader((c, r) => new Frame(c, r)).read(0, null).grid;
      const fresh = view(app.state, { keymap: app.keymap, screen, tabLines: null });
      const shown = host.visibleLines().join("\n");
      const want = fresh.toText().split("\n").map((l) => l.trimEnd()).join("\n");
      assert.equal(shown.split("\n").map((l) => l.trimEnd()).join("\n"), want, `step ${step}`);
      assert.deepEqual(host.cursor, fresh.cursor, `cursor at step ${step}`);
    }
  } finally {
    Deno.removeSync(dir, { recursive: true });
  }
});
