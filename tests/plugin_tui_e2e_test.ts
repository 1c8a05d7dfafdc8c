/**
 * End-to-end: plugin tabs in the real TUI (`deno run -A main.ts` in a PTY,
 * read through the headless emulator): a user plugin and a failing one
 * beside the built-in tabs, keys, the palette's `<id> <name>`, `reload`,
 * and no plugin process left after quitting.
 */

import assert from "node:assert/strict";
import { SessionStore } from "../src/session/store.ts";
import { screenText, TEST_SHELL, testEnv, waitFor, waitForText } from "../src/session/test_util.ts";

import { ROOT, RUN_MAIN } from "./e2e_lab.ts";
const WAIT = 30_000;

/** Live processes whose command line mentions `text` (zombies excluded). */
function processesWith(text: string): string[] {
  const out: string[] = [];
  for (const entry of Deno.readDirSync("/proc")) {
    if (!/^\d+$/.test(entry.name)) continue;
    try {
      const stat = Deno.readTextFileSync(`/proc/${entry.name}/stat`);
      if (/\) [ZX] /.test(stat)) continue;
      const cmd = Deno.readTextFileSync(`/proc/${entry.name}/cmdline`).replaceAll("\0", " ");
      if (cmd.includes(text)) out.push(`${entry.name}: ${cmd}`);
    } catch { /* gone */ }
  }
  return out;
}

Deno.test("plugin tabs in the TUI: frames, keys, palette commands, failures, clean quit", async () => {
  const dir = Deno.makeTempDirSync({ prefix: "lazyshell-plugin-e2e-" });
  const plugins = `${dir}/config/lazyshell/plugins`;
  Deno.mkdirSync(plugins, { recursive: true });
  Deno.mkdirSync(`${dir}/run`, { mode: 0o700 });
  Deno.copyFileSync(`${ROOT}examples/plugins/hello`, `${plugins}/hello`);
  Deno.copyFileSync(`${ROOT}fixtures/plugins/crash`, `${plugins}/crash`);
  for (const f of ["hello", "crash"]) Deno.chmodSync(`${plugins}/${f}`, 0o755);
  Deno.writeTextFileSync(`${dir}/config/lazyshell/config.yml`, "hello:\n  greeting: Howdy\n");
  const env = testEnv({
    XDG_CONFIG_HOME: `${dir}/config`,
    XDG_DATA_HOME: `${dir}/data`,
    XDG_STATE_HOME: `${dir}/state`,
    XDG_RUNTIME_DIR: `${dir}/run`,
  });
  try {
    await using store = new SessionStore({
      shell: TEST_SHELL,
      env,
      cols: 110,
      rows: 30,
      cwd: ROOT,
    });
    const tui = store.create({ command: RUN_MAIN });
    await waitForText(tui, "Hello", WAIT); // the tab bar lists the plugin
    await waitForText(tui, "Crash ✗", WAIT); // the failing plugin is marked, the TUI runs on
    // Tabs: 1 Sessions, 2 Agents, 3 Watchers, 4 Stats, 5 Env, 6 Changes, 7 Crash, 8 Hello.
    tui.write("8");
    await waitForText(tui, "Howdy, world!", WAIT); // init.config carried the section
    tui.write("x");
    await waitForText(tui, "Keys pressed: 1", WAIT);
    tui.write(":");
    tui.write("hello shout");
    tui.write("\r");
    await waitForText(tui, "HOWDY, world!", WAIT);
    tui.write("6");
    await waitForText(tui, "No session selected", WAIT); // the Changes tab: no session yet
    tui.write("7");
    await waitForText(tui, "crash: Exited with code 3", WAIT);
    await waitForText(tui, "panic: something broke", WAIT);
    // A session selected in the list is what the Env and Changes tabs show.
    tui.write("1");
    tui.write("n"); // a new shell, in terminal mode
    await waitForText(tui, "ctrl+] back", WAIT); // terminal mode's hint bar
    tui.write("\x1d"); // ctrl+]: back to the list, the session selected
    tui.write("5");
    await waitForText(tui, "Environment of ", WAIT);
    const name = /Environment of (\S+)/.exec(screenText(tui))![1]!;
    tui.write("6");
    await waitFor(
      tui,
      () => !screenText(tui).includes("No session selected") && screenText(tui).includes(name),
      WAIT,
      `the Changes tab to show ${name}`,
    );
    // d detaches from a plugin tab too (it is lazyshell's key there, not the plugin's).
    tui.write("d");
    await waitFor(tui, () => tui.status === "exited", WAIT, "the client to detach");
    assert.equal(tui.exitCode, 0, screenText(tui));
    // Attached again: the shell still runs; q asks, y ends everything.
    const again = store.create({ command: `deno run -A -q ${ROOT}main.ts` });
    await waitForText(again, "Hello", WAIT);
    again.write("q");
    await waitForText(again, "y end it and quit", WAIT); // the shell still runs
    again.write("y");
    await waitFor(again, () => again.status === "exited", WAIT, "lazyshell to exit");
    assert.equal(again.exitCode, 0, screenText(again));
    await waitFor(tui, () => processesWith(plugins).length === 0, WAIT, "no plugin left");
  } finally {
    // A failed step leaves the lasting server (it outlives its client by design): end it.
    await new Deno.Command(Deno.execPath(), {
      args: ["run", "-A", "-q", `${ROOT}main.ts`, "kill-server"],
      env,
      clearEnv: true,
      stdout: "null",
      stderr: "null",
    }).output();
    Deno.removeSync(dir, { recursive: true });
  }
});
