import assert from "node:assert/strict";
import { isAlive } from "../session/procinfo.ts";
import { fixture, TestHost } from "./test_util.ts";
import { FRAME_INTERVAL_MS } from "./plugin_process.ts";

const env = (extra: Record<string, string> = {}) => ({
  HOME: "/home/test",
  PATH: Deno.env.get("PATH") ?? "/usr/bin:/bin",
  XDG_CONFIG_HOME: "/tmp/lazyshell-host-test/config",
  XDG_DATA_HOME: "/tmp/lazyshell-host-test/data",
  ...extra,
});

Deno.test("a good plugin gets init with its config and answers with manifest and frames", async () => {
  await using host = new TestHost({
    path: fixture("good"),
    id: "good",
    env: env(),
    config: { greeting: "hi" },
    theme: { id: "dark", colors: { "ui.accent": "#5fafff" } },
  });
  host.start();
  await host.until((s) => s.phase === "running" && s.frame !== null, 30_000, "first frame");
  assert.equal(host.state.manifest?.title, "Good");
  assert.deepEqual(host.state.manifest?.commands, [{ name: "ping", desc: "Ping" }]);
  const init = JSON.parse(host.view());
  assert.deepEqual(init, {
    type: "init",
    protocol: 1,
    id: "good",
    home: "/home/test",
    configDir: "/tmp/lazyshell-host-test/config/lazyshell",
    dataDir: "/tmp/lazyshell-host-test/data/lazyshell/plugins/good",
    libraryDir: init.libraryDir,
    theme: { id: "dark", colors: { "ui.accent": "#5fafff" } },
    config: { greeting: "hi" },
    width: 80,
    height: 24,
  });
  assert.equal(host.state.frame?.count, 1, "LAZYSHELL_PROTOCOL reached the plugin");

  assert.equal(host.key("x", "x"), true);
  await host.until((s) => s.frame?.view === "key x", 30_000, "key x");
  assert.equal(host.key("q", "q"), false, "a global key is withheld");
  assert.equal(host.key("1", "1"), false);
  assert.equal(host.key("c", "c"), true);
  await host.until((s) => s.frame?.capturing === true, 30_000, "capturing");
  assert.equal(host.key("q", "q"), true, "a capturing plugin gets global keys");
  await host.until((s) => s.frame?.view === "key q", 30_000, "key q");

  host.command("ping");
  await host.until((s) => s.frame?.view === "command ping", 30_000, "command");
  host.resize(100, 30);
  await host.until((s) => s.frame?.view.includes('"type":"resize"') === true, 30_000, "resize");
  host.mouse({ kind: "click", x: 1, y: 2, button: "left" });
  await host.until((s) => s.frame?.view.includes('"kind":"click"') === true, 30_000, "mouse");
  await host.reload();
  await host.until((s) => s.frame?.view === "reloaded", 30_000, "reload message");
  assert.equal(host.send({ type: "visible", visible: true }), false, "no extension for v1");

  await host.close();
  assert.equal(host.state.phase, "stopped");
  assert.deepEqual(host.state.exit, { code: 0, signal: null });
});

Deno.test("non-interactive exec runs in the background and returns its output", async () => {
  await using host = new TestHost({ path: fixture("good"), env: env() });
  host.start();
  await host.until((s) => s.phase === "running", 30_000, "manifest");
  host.paste("go"); // the fixture answers a paste with an exec request
  await host.until((s) => s.frame?.view.includes("exec_result") === true, 30_000, "exec_result");
  const result = JSON.parse(host.view());
  assert.deepEqual(result, {
    type: "exec_result",
    execId: "e1",
    code: 4,
    stdout: "out\n",
    stderr: "err\n",
    error: null,
  });
});

Deno.test("an interactive exec without a terminal fails clearly", async () => {
  const { runInteractive } = await import("./exec.ts");
  const calls: string[] = [];
  const outcome = await runInteractive(
    { suspend: () => void calls.push("suspend"), resume: () => void calls.push("resume") },
    ["sh", "-c", "exit 5"],
    { env: { PATH: Deno.env.get("PATH") ?? "" } },
  );
  assert.deepEqual(calls, ["suspend", "resume"], "the TUI is restored after");
  assert.equal(outcome.code, 5);
  const missing = await runInteractive(
    { suspend: () => void calls.push("suspend"), resume: () => void calls.push("resume") },
    ["/nonexistent/editor"],
    { env: {} },
  );
  assert.equal(missing.error, "Command not found: /nonexistent/editor");
  assert.equal(calls.at(-1), "resume");
});

Deno.test("a running exec is cancelled with its process group when the plugin closes", async () => {
  const data = Deno.makeTempDirSync({ prefix: "lazyshell-exec-" });
  await using host = new TestHost({ path: fixture("good"), env: env({ XDG_DATA_HOME: data }) });
  host.start();
  await host.until((s) => s.phase === "running", 30_000, "manifest");
  host.key("l", "l");
  const pidFile = `${data}/lazyshell/plugins/fixture/exec.pid`;
  let pid = 0;
  for (let i = 0; i < 1200 && !pid; i++) {
    await new Promise((r) => setTimeout(r, 25));
    try {
      pid = Number(Deno.readTextFileSync(pidFile).trim());
    } catch { /* not yet */ }
  }
  assert.ok(pid > 0 && isAlive(pid), "the exec runs");
  await host.close();
  await gone(pid);
});

Deno.test("an interactive exec goes through the TUI's handover", async () => {
  const runs: unknown[] = [];
  await using host = new TestHost({
    path: fixture("good"),
    env: env(),
    handover: {
      run: (argv, options) => {
        runs.push({ argv, cwd: options.cwd, protocol: options.env.LAZYSHELL_PROTOCOL });
        return Promise.resolve({ code: 0, stdout: "", stderr: "", error: null });
      },
    },
  });
  host.start();
  await host.until((s) => s.phase === "running", 30_000, "manifest");
  host.key("i", "i");
  await host.until((s) => s.frame?.view.includes("exec_result") === true, 30_000, "exec_result");
  assert.deepEqual(runs, [{ argv: ["vi", "notes.txt"], cwd: "/tmp", protocol: "1" }]);
  assert.deepEqual(JSON.parse(host.view()), {
    type: "exec_result",
    execId: 2,
    code: 0,
    stdout: "",
    stderr: "",
    error: null,
  });
});

Deno.test("extension messages reach only a plugin that subscribed", async () => {
  await using host = new TestHost({
    path: fixture("good"),
    env: env({ LAZYSHELL_FIXTURE_SUBSCRIBE: "visible" }),
  });
  host.start();
  await host.until((s) => s.phase === "running", 30_000, "manifest");
  assert.equal(host.send({ type: "visible", visible: false }), true);
  assert.equal(host.send({ type: "sessions", sessions: [] }), false);
  await host.until((s) => s.frame?.view.includes('"type":"visible"') === true, 30_000, "visible");
});

/** The kernel finishes a SIGKILL asynchronously: poll /proc until the pid is dead or a zombie. */
async function gone(pid: number): Promise<void> {
  for (let i = 0; i < 1200 && isAlive(pid); i++) await new Promise((r) => setTimeout(r, 25));
  assert.equal(isAlive(pid), false, `process ${pid} is gone`);
}

async function failing(name: string, error: RegExp, stderr?: RegExp): Promise<TestHost> {
  const host = new TestHost({ path: fixture(name), env: env() });
  host.start();
  await host.until((s) => s.phase === "failed", 15_000, `${name} to fail`);
  assert.match(host.state.error ?? "", error);
  if (stderr) {
    await host.until(() => stderr.test(host.stderrTail), 30_000, "stderr tail");
  }
  return host;
}

Deno.test("no manifest within 3 s fails the tab with its stderr", async () => {
  await using host = await failing("no_manifest", /No manifest within 3 s/, /thinking forever/);
  await host.close();
  assert.notEqual(host.state.exit, null);
});

Deno.test("a non-JSON line fails the tab", async () => {
  await using _ = await failing(
    "not_json",
    /Not a JSON line: "hello, world"/,
    /about to misbehave/,
  );
});

Deno.test("an empty type fails the tab", async () => {
  await using _ = await failing("empty_type", /Missing or empty type/);
});

Deno.test("a line over 1 MiB fails the tab", async () => {
  await using _ = await failing(
    "long_line",
    /Line over 1 MiB \(no newline in the first \d+ bytes\)/,
  );
});

Deno.test("a flood that never sends a newline fails the tab at 1 MiB and is stopped", async () => {
  await using host = await failing("flood_no_newline", /Line over 1 MiB \(no newline in the first/);
  // Stopped without close(): the failure's SIGTERM ends it, nothing keeps reading it.
  await host.until((s) => s.exit !== null, 30_000, "the flooding plugin to exit");
});

Deno.test("a crash shows the exit code and the stderr tail; reload restarts it", async () => {
  await using host = await failing("crash", /Exited with code 3/, /panic: something broke/);
  assert.equal(host.state.frame?.view, "about to crash");
  const generation = host.state.generation;
  await host.reload();
  assert.equal(host.state.generation, generation + 1);
  await host.until((s) => s.phase === "failed" && s.generation === generation + 1, 15_000, "again");
});

Deno.test("a plugin that ignores SIGTERM is SIGKILLed", async () => {
  await using host = new TestHost({ path: fixture("ignore_term"), env: env() });
  host.start();
  await host.until((s) => s.phase === "running", 30_000, "manifest");
  const pid = host.pid!;
  await host.close();
  assert.deepEqual(host.state.exit, { code: null, signal: "SIGKILL" });
  await gone(pid);
});

Deno.test("a grandchild left behind is killed with the group", async () => {
  await using host = new TestHost({ path: fixture("grandchild"), env: env() });
  host.start();
  await host.until((s) => s.frame?.view.startsWith("child ") === true, 30_000, "child pid");
  const child = Number(host.view().slice("child ".length));
  assert.equal(isAlive(child), true);
  await host.close();
  assert.equal(host.state.phase, "stopped");
  await gone(child);
});

Deno.test("a plugin that stops reading is killed at 256 queued messages", async () => {
  await using host = new TestHost({ path: fixture("no_read"), env: env() });
  host.start();
  await host.until((s) => s.phase === "running", 30_000, "manifest");
  const big = "x".repeat(4096);
  let sent = 0;
  while (host.state.phase === "running" && sent < 10_000) {
    host.paste(big);
    sent++;
    if (sent % 16 === 0) await new Promise((r) => setTimeout(r, 0)); // let writes fill the pipe
  }
  assert.equal(host.state.phase, "failed");
  assert.match(host.state.error ?? "", /Stopped reading its input \(256 messages queued\)/);
  await host.close();
  assert.notEqual(host.state.exit, null);
});

Deno.test("a missing executable fails without throwing", async () => {
  await using host = new TestHost({ path: "/nonexistent/plugin", env: env() });
  host.start();
  assert.equal(host.state.phase, "failed");
  assert.match(host.state.error ?? "", /Cannot start: \/nonexistent\/plugin not found/);
});

Deno.test("a plugin flooding valid frames is passed on at the display rate, its last frame kept", async () => {
  let changes = 0;
  await using host = new TestHost({
    path: fixture("flood_frames"),
    env: env(),
    onChange: () => changes++,
  });
  host.start();
  await host.until((s) => s.frame !== null, 30_000, "first frame");
  const c0 = changes;
  const t0 = performance.now();
  await new Promise((r) => setTimeout(r, 1000));
  const told = changes - c0;
  const ticks = (performance.now() - t0) / FRAME_INTERVAL_MS;
  // A ceiling, not a timing: a loaded machine only tells fewer (on main: ~10^5 a second).
  assert.ok(told <= ticks * 1.5 + 5, `${told} changes told in ${ticks.toFixed(0)} ticks`);
  assert.equal(host.state.phase, "running");
});

Deno.test("coalesced frames keep their order with other messages and the last frame shows", async () => {
  const requests: string[] = [];
  await using host = new TestHost({
    path: fixture("frames_then_request"),
    env: env(),
    onRequest: (r) => {
      requests.push(`${r.type} ${"session" in r ? r.session : ""}`);
    },
  });
  host.start();
  await host.until((s) => s.frame?.view === "frame 2000", 20_000, "the last frame");
  assert.deepEqual(requests, ["select_session session-7"]);
});
