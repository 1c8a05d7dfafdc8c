/**
 * Terminal mode forwards input exactly (T2): the real TUI loop (TuiApp)
 * over a real Runtime, keys fed as host-terminal bytes, and a child in a
 * real PTY (raw mode) that writes every byte it receives to a file.
 */

import assert from "node:assert/strict";
import { parseConfig } from "../src/config/config.ts";
import { Runtime } from "../src/runtime/runtime.ts";
import { TuiApp } from "../src/tui/app.ts";
import { testEnv, waitForText } from "../src/session/test_util.ts";
import { delay } from "../src/util/async.ts";

const WAIT = 30_000;

async function waitForFile(file: string, size: number): Promise<string> {
  for (let i = 0; i < WAIT / 20; i++) {
    try {
      const text = Deno.readTextFileSync(file);
      if (text.length >= size) return text;
    } catch { /* not yet */ }
    await delay(20);
  }
  let got = "";
  try {
    got = Deno.readTextFileSync(file);
  } catch { /* none */ }
  throw new Error(
    `Timed out waiting for ${size} characters in ${file}: got ${got.length}, head ${
      JSON.stringify(got.slice(0, 80))
    }, tail ${JSON.stringify(got.slice(-80))}`,
  );
}

Deno.test("terminal mode forwards Esc, Ctrl+C, function keys, Alt combos, a 1 MiB paste and the mouse exactly", async () => {
  const dir = Deno.makeTempDirSync({ prefix: "lazyshell-tui-input-" });
  const env = testEnv({ XDG_CONFIG_HOME: `${dir}/c`, XDG_DATA_HOME: `${dir}/d` });
  await using runtime = new Runtime({ env, config: parseConfig("", "config.yml"), cwd: dir });
  using app = new TuiApp({ runtime, write: () => {}, cols: 100, rows: 30 });
  app.start();
  const file = `${dir}/got`;
  // Raw mode, bracketed paste and SGR mouse asked for, then every byte to the file.
  const session = runtime.createSession({
    command:
      `stty raw -echo; printf '\\033[?2004h\\033[?1000h\\033[?1006hREADY'; exec cat > ${file}`,
  });
  await waitForText(session, "READY", WAIT);
  app.feed("\r");
  assert.equal(app.state.mode, "terminal");

  app.feed("\x1b"); // a lone Esc: sent once the Esc timeout says it is not a sequence
  assert.equal(await waitForFile(file, 1), "\x1b", "the lone Esc, alone");
  const paste = "0123456789abcdef\n".repeat(61681).slice(0, 1 << 20);
  const keys = ["\x03", "\x1b[15~", "\x1bx", "\x1b[A", "\x1bOP", "\x1b[1;5C"];
  for (const k of keys) app.feed(k);
  app.feed("\x1b[200~" + paste.slice(0, 300_000));
  app.feed(paste.slice(300_000) + "\x1b[201~");
  // A click in the pane (host cell 30,5 → pane cell 4,4, 1-based 5;5).
  app.feed("\x1b[<0;31;6M\x1b[<0;31;6m");
  const expected = "\x1b" + keys.join("") + "\x1b[200~" + paste + "\x1b[201~" +
    "\x1b[<0;5;5M\x1b[<0;5;5m";
  const got = await waitForFile(file, expected.length);
  assert.equal(got.length, expected.length);
  assert.ok(got === expected, "the bytes arrived exactly, in order");
  assert.ok(app.state.mode === "terminal", "nothing above left terminal mode");
  app.feed("\x1d");
  assert.equal(app.state.mode, "navigation");
  Deno.removeSync(dir, { recursive: true });
});
