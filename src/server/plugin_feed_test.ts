import assert from "node:assert/strict";
import { parseConfig } from "../config/config.ts";
import { Runtime } from "../runtime/runtime.ts";
import { TEST_SHELL } from "../session/test_util.ts";
import { runtimeFeed, startPluginTabs } from "./plugin_feed.ts";

function until(predicate: () => boolean, what: string, ms = 30_000): Promise<void> {
  return new Promise((resolve, reject) => {
    const start = Date.now();
    const poll = setInterval(() => {
      if (predicate()) {
        clearInterval(poll);
        resolve();
      } else if (Date.now() - start > ms) {
        clearInterval(poll);
        reject(new Error(`Timed out waiting for ${what}`));
      }
    }, 20);
  });
}

Deno.test("plugin tabs run against the runtime: frames, errors, requests, env", async () => {
  const root = Deno.makeTempDirSync({ prefix: "lazyshell-tabs-" });
  const dir = `${root}/config/lazyshell/plugins`;
  Deno.mkdirSync(dir, { recursive: true });
  const fixtures = new URL("../../fixtures/plugins/", import.meta.url).pathname;
  for (const name of ["good", "crash"]) {
    Deno.copyFileSync(`${fixtures}${name}`, `${dir}/${name}`);
    Deno.chmodSync(`${dir}/${name}`, 0o755);
  }
  const env = {
    HOME: root,
    PATH: Deno.env.get("PATH") ?? "/usr/bin:/bin",
    XDG_CONFIG_HOME: `${root}/config`,
    XDG_DATA_HOME: `${root}/data`,
    XDG_RUNTIME_DIR: root,
    SHELL: TEST_SHELL,
  };
  await using runtime = new Runtime({
    env,
    config: parseConfig("good:\n  answer: 42\n", "config.yml"),
    cols: 80,
    rows: 24,
  });
  await using wired = await startPluginTabs(runtime, {
    width: 60,
    height: 10,
    select: (id) => runtime.setFocus({ selected: id, terminal: false }, "client-1"),
  });
  assert.deepEqual(wired.tabs.map((t) => t.id), [
    "agents",
    "watchers",
    "stats",
    "env",
    "changes",
    "crash",
    "good",
  ]);
  const good = wired.tabs.find((t) => t.id === "good")!;
  const crash = wired.tabs.find((t) => t.id === "crash")!;
  await until(() => good.host.state.frame !== null, "good's first frame");
  // The first frame echoes init, but later messages may already have replaced it.
  const init = Deno.readTextFileSync(`${root}/data/lazyshell/plugins/good/init.json`);
  assert.match(init, /"config":\{"answer":42\}/, "the config section arrives");
  const theme = JSON.parse(init).theme;
  assert.equal(theme.id, "terminal");
  assert.equal(theme.colors["ui.accent"], "ansi:6", "the TUI's own colours, as palette indices");
  assert.equal(theme.colors["state.blocked"], "ansi:1");
  assert.deepEqual(good.commands.map((c) => c.name), ["ping", "reload"]);
  good.key({ type: "key", name: "x", text: "x", raw: "x" });
  await until(() => good.host.state.frame?.view === "key x", "key x");
  assert.match(good.title, /^Good \(\d+\)$/, "the frame's count shows on the tab");
  let redraws = 0;
  const sub = good.onChange(() => redraws++);
  good.active = false;
  good.changed();
  const before = redraws;
  good.changed(); // same title, capturing and commands: a hidden tab asks for no redraw
  assert.equal(redraws, before);
  good.active = true;
  good.changed();
  assert.equal(redraws, before + 1, "the shown tab redraws on every frame");
  sub[Symbol.dispose]();
  const lines = good.render(60, 10);
  assert.ok(lines.length >= 1);
  assert.ok(lines.every((l) => l.reduce((n, s) => n + [...s.text].length, 0) <= 60), "clipped");

  await until(() => crash.host.state.phase === "failed", "crash to fail");
  const text = crash.render(60, 10).map((l) => l.map((s) => s.text).join("")).join("\n");
  assert.match(text, /crash: Exited with code 3/);
  assert.match(text, /panic: something broke/);
  assert.match(text, /:crash reload restarts it/, "the command the palette knows");
  assert.equal(crash.title, "Crash ✗");

  const session = runtime.createSession({ name: "api" });
  good.key({ type: "key", name: "w", text: "w", raw: "w" }); // asks to arm "ERR" on session-1
  await until(() => (good.host.state.frame?.view ?? "").includes('"type":"result"'), "result");
  assert.match(good.host.state.frame!.view, /"ok":true/);
  assert.deepEqual(
    runtime.state.watchers.map((w) => [w.session, w.pattern, w.source]),
    [[session.id, "ERR", "live"]],
  );
  runtime.setFocus({ selected: session.id, terminal: false }, "client-1");
  const envTab = wired.tabs.find((t) => t.id === "env")!;
  assert.equal(envTab.host.pid, null, "a built-in starts only when its tab is shown");
  assert.equal(envTab.title, "Env", "its tab has its title meanwhile");
  wired.follow(wired.tabs.indexOf(envTab) + 1, session.id, "client-1");
  await until(
    () => envTab.render(80, 40).some((l) => l.some((s) => s.text.includes("Environment of"))),
    "env tab",
  );
  session.kill();
  await session.exited;
});

Deno.test("a copy request goes to the clipboard writer, or is refused without one", () => {
  const copied: string[] = [];
  const runtime = {} as unknown as Runtime;
  const feed = runtimeFeed(runtime, () => {}, (text) => copied.push(text));
  feed.request({ type: "copy", text: "agent/fix" });
  assert.deepEqual(copied, ["agent/fix"]);
  assert.throws(
    () => runtimeFeed(runtime, () => {}).request({ type: "copy", text: "x" }),
    /No terminal to copy to/,
  );
});
