/**
 * End to end: a failure ends its owner, never its neighbours
 * (docs/architecture.md). A real server started with the test-only
 * `LAZYSHELL_FAULT` switch (src/util/fault_injection.ts) throws inside one
 * entry point — a client's draw, a client's output listener, a control verb,
 * a plugin's message, a hook connection, a session's detection timer — and
 * each test checks that the owner was reset or dropped with its reason, that
 * crash.log holds the stack, and that the server and every session survive:
 * `ctl list` answers, the sessions still print, a client can still attach.
 * Clients are the real program in real PTYs; sessions are real shells.
 */

import assert from "node:assert/strict";
import type { Session } from "../src/session/session.ts";
import { isAlive } from "../src/session/procinfo.ts";
import { screenText, waitFor, waitForText } from "../src/session/test_util.ts";
import { type ServeChild, spawnServe } from "../tools/abuse/server.ts";
import { type Lab, lab, ROOT } from "./e2e_lab.ts";

const WAIT = 30_000;
/** A session that prints a numbered line five times a second, forever. */
const TICKER = "i=0; while :; do i=$((i+1)); echo tick-$i; sleep 0.2; done";
const BLOCKED = "printf '\\033]7501;state=blocked:kind=permission:msg=QXBwbHk/\\033\\\\'";

interface FaultLab extends AsyncDisposable {
  readonly l: Lab;
  readonly serve: ServeChild;
  /** crash.log's text ("" while there is none). */
  crashLog(): string;
  /** `lazyshell ctl <args>`, which must succeed: its stdout. */
  ctl(...args: string[]): Promise<string>;
}

/** A server with `LAZYSHELL_FAULT=fault` and the control API on; `prepare` runs before it starts. */
async function faultLab(fault: string, prepare?: (dir: string) => void): Promise<FaultLab> {
  const l = lab("lazyshell-faults-");
  Deno.writeTextFileSync(`${l.dir}/config/lazyshell/config.yml`, "control:\n  enabled: true\n");
  prepare?.(l.dir);
  const serve = spawnServe({ ...l.env, LAZYSHELL_FAULT: fault }, { cwd: l.dir });
  await serve.ready;
  const ctl = async (...args: string[]) => {
    const r = await l.run("ctl", ...args);
    assert.equal(r.code, 0, `ctl ${args.join(" ")}: ${r.stderr}\nserver: ${serve.stderr()}`);
    return r.stdout;
  };
  return {
    l,
    serve,
    crashLog: () => {
      try {
        return Deno.readTextFileSync(`${l.dir}/data/lazyshell/crash.log`);
      } catch {
        return "";
      }
    },
    ctl,
    async [Symbol.asyncDispose]() {
      await serve.stop();
      await l[Symbol.asyncDispose]();
    },
  };
}

/** The highest `tick-N` in `text` (0: none). */
function lastTick(text: string): number {
  return Math.max(0, ...[...text.matchAll(/tick-(\d+)/g)].map((m) => Number(m[1])));
}

/** Resolves once `check` holds, polling (for what no screen shows: ctl, files). */
async function until(check: () => Promise<boolean> | boolean, what: string): Promise<void> {
  const deadline = performance.now() + WAIT;
  while (!(await check())) {
    if (performance.now() > deadline) throw new Error(`Timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

/** A client's screen shows ticks past the one it showed when called. */
async function stillTicking(client: Session, what: string): Promise<void> {
  const from = lastTick(screenText(client));
  await waitFor(client, () => lastTick(screenText(client)) > from + 2, WAIT, what);
}

/**
 * The server and every session survived: the server runs, `ctl list` answers
 * with every session running, the ticker still prints, and a new client
 * attaches and shows it.
 */
async function survived(f: FaultLab, sessions: number): Promise<void> {
  assert.ok(isAlive(f.serve.pid), `the server is gone: ${f.serve.stderr()}`);
  const list = JSON.parse(await f.ctl("list", "--json")).result.sessions as {
    status: string;
  }[];
  assert.equal(list.length, sessions);
  assert.ok(list.every((s) => s.status === "running"), JSON.stringify(list));
  const before = lastTick(await f.ctl("read", "ticker"));
  await until(async () => lastTick(await f.ctl("read", "ticker")) > before, "the ticker to print");
  const late = f.l.client(100, 30, "attach");
  await waitForText(late, "ticker", WAIT);
  await stillTicking(late, "a client attached after the failure");
  late.write("d");
  await late.exited;
}

/** The crash.log entry of `owner`'s failure at `where`, with what was done and the stack. */
function assertLogged(log: string, owner: string, where: string, action: string): void {
  const entry = new RegExp(
    `^\\S+Z \\[${owner}\\] ${where} failed: ${action}\\nInjectedFault: .*\\n\\s+at `,
    "m",
  );
  assert.match(log, entry, `crash.log:\n${log}`);
}

Deno.test("a client whose draw or input throws is redrawn from scratch; one whose redraw throws again is disconnected with the reason; nobody else notices", async () => {
  // client-1 fails once (its first frame); client-2 fails every time; client-3 on each input.
  await using f = await faultLab("draw:client-1:1,draw:client-2,input:client-3");
  await f.ctl("new", "--name", "ticker", "--command", TICKER);
  const a = f.l.client(100, 30, "attach");
  await waitForText(a, "ticker", WAIT);
  await stillTicking(a, "client-1 after its redraw");
  const b = f.l.client(90, 26, "attach");
  await b.exited;
  assert.equal(b.exitCode, 1, screenText(b));
  const said = screenText(b);
  assert.match(said, /lazyshell: This client was disconnected after an internal error in/);
  assert.match(said, /its sessions keep running/);
  await stillTicking(a, "client-1 after client-2 was dropped");
  // Every input of client-3 fails (its terminal's reply to the mode query, then keys): it is
  // redrawn, then dropped.
  const c = f.l.client(80, 24, "attach");
  await waitForText(c, "ticker", WAIT);
  while (c.status === "running") {
    c.write("j");
    await Promise.race([c.exited, new Promise((resolve) => setTimeout(resolve, 200))]);
  }
  assert.equal(c.exitCode, 1, screenText(c));
  assert.match(screenText(c), /disconnected after an internal error in its input/);
  await stillTicking(a, "client-1 after client-3 was dropped");
  await survived(f, 1);
  const log = f.crashLog();
  assertLogged(log, "client-1", "start", "redrawn from scratch");
  assertLogged(log, "client-2", "start", "redrawn from scratch");
  assertLogged(log, "client-2", "draw", "disconnected");
  assertLogged(log, "client-3", "input", "redrawn from scratch");
  assertLogged(log, "client-3", "input", "disconnected");
  assert.match(log, /InjectedFault: draw in client-2.*\n.*Faults\.hit.*\n\s+at Renderer\.render/);
  a.write("d");
  await a.exited;
});

Deno.test("a client's output listener that throws is that client's failure: dropped, while the next client's listener still hears every output", async () => {
  await using f = await faultLab("listener:client-1");
  // It prints once both clients listen: client-1's listener (the first) throws on each output.
  await f.ctl("new", "--name", "ticker", "--command", `read -r _; ${TICKER}`);
  const a = f.l.client(100, 30, "attach");
  await waitForText(a, "ticker", WAIT);
  const b = f.l.client(90, 26, "attach");
  await waitForText(b, "ticker", WAIT);
  await f.ctl("send", "ticker", "", "--enter");
  await stillTicking(b, "client-2 hearing the output");
  await a.exited;
  assert.equal(a.exitCode, 1, screenText(a));
  assert.match(screenText(a), /disconnected after an internal error in/);
  await survived(f, 1);
  assertLogged(f.crashLog(), "client-1", "output listener", "disconnected");
  b.write("d");
  await b.exited;
});

Deno.test("a control verb that throws answers its request with the error; the socket, the other verbs and the sessions go on", async () => {
  await using f = await faultLab("verb:read:1");
  await f.ctl("new", "--name", "ticker", "--command", TICKER);
  const failed = await f.l.run("ctl", "read", "ticker");
  assert.equal(failed.code, 1, failed.stderr);
  assert.equal(
    failed.stderr,
    "lazyshell ctl: Internal error: verb in read (LAZYSHELL_FAULT, tests only)\n",
  );
  await survived(f, 1); // reads the ticker again: the verb itself works
  assertLogged(f.crashLog(), "control read", "request", "answered with the error");
});

Deno.test("a plugin whose message our handling throws on is failed with the reason; `reload` brings it back; tabs and sessions go on", async () => {
  await using f = await faultLab("plugin:hello:1", (dir) => {
    const plugins = `${dir}/config/lazyshell/plugins`;
    Deno.mkdirSync(plugins, { recursive: true });
    Deno.copyFileSync(`${ROOT}examples/plugins/hello`, `${plugins}/hello`);
    Deno.chmodSync(`${plugins}/hello`, 0o755);
  });
  await f.ctl("new", "--name", "ticker", "--command", TICKER);
  const a = f.l.client(120, 30, "attach");
  await waitForText(a, "hello ✗", WAIT); // failed before its manifest named it
  // Tabs: 1 Sessions, 2 Agents, 3 Watchers, 4 Stats, 5 Env, 6 Changes, 7 Hello.
  a.write("7");
  await waitForText(a, "Internal error while handling its message", WAIT);
  await waitForText(a, ":hello reload restarts it", WAIT);
  a.write(":hello reload\r");
  await waitForText(a, "Hello, world!", WAIT);
  a.write("1");
  await stillTicking(a, "the sessions tab after the plugin's failure");
  a.write("d");
  await a.exited;
  await survived(f, 1);
  assertLogged(f.crashLog(), "plugin hello", "message", "failed \\(`:hello reload` restarts it\\)");
});

Deno.test("a hook message that throws closes only its connection with an error; the session's next hooks apply", async () => {
  await using f = await faultLab("hook:session-1:1");
  await f.ctl("new", "--name", "ticker", "--command", TICKER);
  const instance = [...Deno.readDirSync(`${f.l.dir}/run/lazyshell`)].find((e) => e.isDirectory);
  const socket = `${f.l.dir}/run/lazyshell/${instance!.name}/session-1.sock`;
  /** One hook message on a new connection: the reply line, and whether the server closed it. */
  const hook = async (state: string) => {
    using conn = await Deno.connect({ transport: "unix", path: socket });
    await conn.write(new TextEncoder().encode(`{"v":1,"type":"hook","state":"${state}"}\n`));
    let reply = "";
    const buf = new Uint8Array(4096);
    while (!reply.endsWith("\n")) {
      const n = await conn.read(buf);
      if (n === null) break;
      reply += new TextDecoder().decode(buf.subarray(0, n));
    }
    // Closed by the server: the next read ends; open: a second message is answered too.
    await conn.write(new TextEncoder().encode(`{"v":1,"type":"hook","state":"${state}"}\n`))
      .catch(() => 0);
    const closed = await conn.read(buf).then((n) => n === null).catch(() => true);
    return { reply, closed };
  };
  const failed = await hook("working");
  assert.deepEqual(failed, {
    reply: '{"v":1,"type":"error","error":"Hook not applied (internal error)"}\n',
    closed: true,
  });
  const applied = await hook("blocked");
  assert.deepEqual(applied, { reply: '{"v":1,"type":"ack"}\n', closed: false });
  await until(async () => (await f.ctl("list")).includes("blocked"), "the next hook applied");
  await survived(f, 1);
  assertLogged(
    f.crashLog(),
    "hook connection of session-1",
    "a hook message",
    "answered with an error, connection closed",
  );
});

Deno.test("a session's detection timer that throws fails alone: the session still prints and is still classified", async () => {
  await using f = await faultLab("timer:session-2:1");
  await f.ctl("new", "--name", "ticker", "--command", TICKER);
  await f.ctl("new", "--name", "shell");
  await until(() => f.crashLog().includes("[session-2 detection]"), "the timer's failure");
  await f.ctl("send", "shell", BLOCKED, "--enter");
  await f.ctl("wait", "shell", "--state", "blocked", "--timeout", "30");
  await survived(f, 2);
  assertLogged(f.crashLog(), "session-2 detection", "timer", "kept");
});
