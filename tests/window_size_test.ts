/**
 * Config `window_size` (docs/tui.md, "Clients of different sizes"): two
 * clients (TuiApps) of 100×30 and 160×45 on one Runtime and one real PTY
 * session; the session's PTY size under each policy, and after a reload
 * that changes it.
 */

import assert from "node:assert/strict";
import { parseConfig } from "../src/config/config.ts";
import { Runtime } from "../src/runtime/runtime.ts";
import { testEnv } from "../src/session/test_util.ts";
import { TuiApp } from "../src/tui/app.ts";
import { layout, sessionSize } from "../src/tui/core/layout.ts";

const SMALL = sessionSize(100, 30);
const BIG = sessionSize(160, 45);

async function withClients(
  config: string,
  fn: (
    runtime: Runtime,
    apps: TuiApp[],
    size: () => { cols: number; rows: number },
  ) => void | Promise<void>,
): Promise<void> {
  const dir = Deno.makeTempDirSync({ prefix: "lazyshell-window-size-" });
  const env = testEnv({ XDG_CONFIG_HOME: `${dir}/c`, XDG_DATA_HOME: `${dir}/d` });
  const runtime = new Runtime({ env, config: parseConfig(config, "config.yml"), cwd: dir });
  const session = runtime.createSession({ command: "exec cat", cols: 90, rows: 20 });
  const apps: TuiApp[] = [];
  try {
    for (const [i, [cols, rows]] of [[100, 30], [160, 45]].entries()) {
      const app = new TuiApp({
        runtime,
        write: () => {},
        client: `c${i}`,
        cols: cols!,
        rows: rows!,
      });
      app.start();
      apps.push(app);
    }
    await fn(runtime, apps, () => ({ cols: session.cols, rows: session.rows }));
  } finally {
    for (const app of apps) app[Symbol.dispose]();
    await runtime[Symbol.asyncDispose]();
    Deno.removeSync(dir, { recursive: true });
  }
}

Deno.test("window_size latest (default): the last client to focus or type sizes the session", async () => {
  await withClients("", (_runtime, apps, size) => {
    assert.deepEqual(size(), BIG); // c1 attached (and focused it) last
    apps[0]!.feed("\r"); // c0 enters terminal mode: focus
    apps[0]!.feed("a");
    assert.deepEqual(size(), SMALL);
  });
});

Deno.test("window_size latest: a client that leaves hands the sessions it sized to one that shows them", async () => {
  await withClients("", (runtime, _apps, size) => {
    assert.deepEqual(size(), BIG); // c1 attached (and focused it) last
    // c1 goes (detached, killed): c0 shows the session, and no longer a window of it.
    runtime.forgetClient("c1");
    assert.deepEqual(size(), SMALL);
  });
});

Deno.test("window_size smallest and largest: each side from the panes showing it; a client leaving frees it", async () => {
  await withClients("window_size: smallest\n", (runtime, apps, size) => {
    assert.deepEqual(size(), SMALL);
    apps[0]!.feed("\ra");
    assert.deepEqual(size(), SMALL);
    apps[0]!.resize(200, 20);
    const wide = sessionSize(200, 20);
    assert.deepEqual(size(), { cols: Math.min(wide.cols, BIG.cols), rows: wide.rows });
    runtime.forgetClient("c0");
    assert.deepEqual(size(), BIG);
  });
  await withClients("window_size: largest\n", (_runtime, _apps, size) => {
    assert.deepEqual(size(), BIG);
  });
});

Deno.test("window_size manual: clients never resize a session; a reload to smallest sizes it at once", async () => {
  await withClients("window_size: manual\n", async (runtime, apps, size) => {
    assert.deepEqual(size(), { cols: 90, rows: 20 });
    apps[1]!.feed("\ra");
    apps[0]!.resize(120, 40);
    assert.deepEqual(size(), { cols: 90, rows: 20 });
    await runtime.reconfigure({
      loaded: parseConfig("window_size: smallest\n", "config.yml"),
      catalog: runtime.catalog,
    });
    assert.deepEqual(size(), sessionSize(120, 40)); // c0, now 120×40, is the smaller
  });
});

Deno.test("window_size: a value it does not know is refused with its line", () => {
  assert.throws(
    () => parseConfig("scrollback: 10\nwindow_size: biggest\n", "config.yml"),
    /config\.yml:2: .*window_size.*latest.*smallest.*largest.*manual/,
  );
});

Deno.test("a click in a client smaller than the session reaches the session's cell it shows there", async () => {
  const dir = Deno.makeTempDirSync({ prefix: "lazyshell-window-click-" });
  const env = testEnv({ XDG_CONFIG_HOME: `${dir}/c`, XDG_DATA_HOME: `${dir}/d` });
  const config = parseConfig("window_size: manual\n", "config.yml");
  await using runtime = new Runtime({ env, config, cwd: dir });
  // Asks for SGR mouse reports, fills its 43 rows, then shows what it reads (cat -v).
  const session = runtime.createSession({
    command:
      "printf '\\033[?1000h\\033[?1006h'; seq 1 60; stty raw -echo; printf ready; exec cat -v",
    cols: 120,
    rows: 43,
  });
  using app = new TuiApp({ runtime, write: () => {}, client: "c0", cols: 100, rows: 30 });
  app.start();
  const deadline = performance.now() + 30_000;
  const until = async (check: () => boolean, what: string) => {
    while (!check()) {
      if (performance.now() > deadline) throw new Error(`no ${what}: ${session.visibleLines()}`);
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
  };
  await until(() => session.visibleLines().some((l) => l === "ready"), "seq output");
  app.feed("\r"); // terminal mode
  app.flush();
  const pane = layout(100, 30).pane;
  const top = 43 - pane.height; // the window ends at the cursor, on the last row
  // Host cell (pane.x + 3, pane.y + 2), 1-based in the report: the session's cell (3, top + 2).
  app.feed(`\x1b[<0;${pane.x + 4};${pane.y + 3}M`);
  await until(
    () => session.visibleLines().some((l) => l.includes(`^[[<0;4;${top + 3}M`)),
    `a press at 4;${top + 3}`,
  );
});
