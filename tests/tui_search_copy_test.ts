/**
 * Scrollback search and copy mode through the real TUI loop (TuiApp) over a
 * real Runtime and a real PTY: `/` finds a line 4000 lines back, the frame
 * shows it marked, and `y` writes the OSC 52 bytes of the selected lines to
 * this client's terminal, wrapped for tmux when the client is inside tmux.
 */

import assert from "node:assert/strict";
import { parseConfig } from "../src/config/config.ts";
import { Runtime } from "../src/runtime/runtime.ts";
import { TuiApp } from "../src/tui/app.ts";
import { HeadlessTerminal } from "../src/session/terminal.ts";
import { testEnv, waitForText } from "../src/session/test_util.ts";

Deno.test("/ finds a line 4000 lines back and y copies lines through OSC 52 (tmux passthrough)", async () => {
  const dir = Deno.makeTempDirSync({ prefix: "lazyshell-search-" });
  const env = testEnv({ XDG_CONFIG_HOME: `${dir}/c`, XDG_DATA_HOME: `${dir}/d` });
  await using runtime = new Runtime({ env, config: parseConfig("", "config.yml"), cwd: dir });
  const written: string[] = [];
  using host = new HeadlessTerminal({ cols: 100, rows: 30 });
  using app = new TuiApp({
    runtime,
    write: (t) => {
      written.push(t);
      host.write(t);
    },
    cols: 100,
    rows: 30,
    tmux: true,
  });
  app.start();
  const session = runtime.createSession({
    command: "seq -f 'line %g' 1 999; echo 'the needle is here'; seq -f 'line %g' 1001 5000; " +
      "echo FINISHED; exec cat",
  });
  await waitForText(session, "FINISHED");
  app.feed("/needle\r");
  const copy = app.state.copy;
  assert.ok(copy?.search?.hit, "found");
  assert.equal(app.state.mode, "copy");
  assert.ok(copy.cursor >= 4000, `the match is ${copy.cursor} lines up`);
  assert.equal(session.copyText(copy.cursor, copy.cursor), "the needle is here");
  app.flush();
  await host.flush();
  assert.ok(
    host.visibleLines().some((l) => l.includes("the needle is here")),
    "the view scrolled to the match",
  );
  assert.match(host.visibleLines().at(-1)!, /COPY .*\/needle 1\/1/);

  // Select the match and the two lines under it, then copy.
  written.length = 0;
  app.feed(" jjy");
  const osc = written.filter((w) => w.includes("]52;"));
  const text = "the needle is here\nline 1001\nline 1002";
  const b64 = btoa(text);
  assert.deepEqual(osc, [`\x1bPtmux;\x1b\x1b]52;c;${b64}\x07\x1b\\`], "exact OSC 52 bytes");
  assert.equal(app.state.mode, "navigation");
  assert.equal(app.state.scroll[session.id] ?? 0, 0, "back to the live screen");
  assert.equal(app.state.message?.text, "Copied 3 lines to the clipboard");
  Deno.removeSync(dir, { recursive: true });
});
