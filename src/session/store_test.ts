import assert from "node:assert/strict";
import { SessionStore } from "./store.ts";
import { isAlive } from "./procinfo.ts";
import { UserError } from "../errors.ts";
import { MAX_COLS, MAX_ROWS } from "./size_limit.ts";
import { TEST_SHELL, testEnv, waitFor, waitForText } from "./test_util.ts";
import { within } from "../util/async.ts";

const SHELL = TEST_SHELL;
const quietEnv = testEnv();

function store(): SessionStore {
  return new SessionStore({ shell: SHELL, env: quietEnv, cols: 80, rows: 24 });
}

Deno.test("a session reports its exit code and keeps its screen", async () => {
  await using s = store();
  const session = s.create({ command: "echo hello-from-child; exit 7" });
  await session.exited;
  assert.equal(session.status, "exited");
  assert.equal(session.exitCode, 7);
  assert.equal(session.signal, null);
  assert.match(session.terminal.visibleLines().join("\n"), /hello-from-child/);
});

Deno.test("a killed session is listed as exited with its signal", async () => {
  await using s = store();
  const session = s.create({ command: "sleep 30" });
  s.kill(session.id, "SIGTERM");
  await session.exited;
  assert.equal(session.status, "exited");
  assert.equal(session.signal, 15);
  assert.equal(s.list().length, 1);
});

Deno.test("ids are session-N in creation order and never reused", async () => {
  await using s = store();
  const a = s.create({ command: "true" });
  const b = s.create({ command: "true" });
  await a.exited;
  s.remove(a.id);
  const c = s.create({ command: "true" });
  assert.deepEqual([a.id, b.id, c.id], ["session-1", "session-2", "session-3"]);
  await Promise.all([b.exited, c.exited]);
});

Deno.test("the environment carries the session id, socket and TERM", async () => {
  await using s = new SessionStore({
    shell: SHELL,
    env: { ...quietEnv, TMUX: "/tmp/tmux-0/default,1,0" },
    socketPath: (id) => `/run/test/${id}.sock`,
  });
  const session = s.create({
    command: 'echo "id=$LAZYSHELL_SESSION_ID sock=$LAZYSHELL_SOCK term=$TERM tmux=${TMUX:-none}"',
  });
  await session.exited;
  assert.match(
    session.terminal.visibleLines().join("\n"),
    /id=session-1 sock=\/run\/test\/session-1\.sock term=xterm-256color tmux=none/,
  );
});

Deno.test("resize is seen by stty size inside the child", async () => {
  await using s = store();
  const session = s.create();
  session.resize(100, 30);
  session.write("stty size\r");
  await waitForText(session, "30 100");
  session.write("exit\r");
  await session.exited;
});

Deno.test("a resize past the largest size reaches the child as the largest size", async () => {
  await using s = store();
  // The child reads its size only after a line arrives, so no shell's SIGWINCH handling races it.
  const session = s.create({ command: "read line; stty size; read line" });
  session.resize(10_000, 10_000);
  assert.deepEqual([session.cols, session.rows], [MAX_COLS, MAX_ROWS]);
  session.write("\r");
  await waitForText(session, `${MAX_ROWS} ${MAX_COLS}`);
  session.write("\r");
  await session.exited;
});

Deno.test("title changes and alternate screen in and out are reported", async () => {
  await using s = store();
  const session = s.create();
  const alt: boolean[] = [];
  session.on((e) => e.type === "alt-screen" && alt.push(e.active));
  session.write("printf '\\033]0;my title\\007'\r");
  await waitFor(session, () => session.terminal.title === "my title", 15_000, "title");
  session.write("tput smcup; sleep 0.2; tput rmcup\r");
  await waitFor(session, () => alt.length === 2, 15_000, "alt screen in and out");
  assert.deepEqual(alt, [true, false]);
  session.write("exit\r");
  await session.exited;
});

Deno.test("query replies (DA1, DSR) reach the child", async () => {
  await using s = store();
  const session = s.create({
    command:
      `stty raw -echo; printf '\\033[c'; r=$(dd bs=1 count=7 2>/dev/null | od -An -c | tr -d ' \\n'); ` +
      `printf '\\033[6n'; q=$(dd bs=1 count=6 2>/dev/null | od -An -c | tr -d ' \\n'); stty sane; echo "DA=$r DSR=$q"`,
  });
  await session.exited;
  const text = session.terminal.visibleLines().join("\n");
  assert.match(text, /DA=033\[\?1;2c/);
  assert.match(text, /DSR=033\[1;1R/);
});

Deno.test("a bad cwd or a missing command is a clear error and the store keeps working", async () => {
  await using s = store();
  assert.throws(
    () => s.create({ cwd: "/nonexistent/dir" }),
    (e) =>
      e instanceof UserError &&
      /Working directory does not exist: \/nonexistent\/dir/.test(e.message),
  );
  assert.throws(
    () => s.create({ command: "no-such-command-xyz --flag" }),
    (e) => e instanceof UserError && e.message === "Command not found: no-such-command-xyz",
  );
  assert.throws(
    () => s.create({ command: "true", cols: MAX_COLS + 1, rows: 24 }),
    (e) => e instanceof UserError && e.message === `Invalid size: 1001x24 (2x2 to 1000x500)`,
  );
  const ok = s.create({ command: "exit 3" });
  await ok.exited;
  assert.equal(ok.exitCode, 3);
  assert.equal(ok.id, "session-1");
});

Deno.test("a shell that does not exist is refused naming its path, not left to execvp", async () => {
  await using s = new SessionStore({
    shell: "/nonexistent/zsh",
    env: quietEnv,
    cols: 80,
    rows: 24,
  });
  assert.throws(
    () => s.create(),
    (e) =>
      e instanceof UserError &&
      e.message === "Shell not found: /nonexistent/zsh (config.yml shell, else $SHELL)",
  );
  assert.equal(s.list().length, 0);
});

Deno.test("names are unique and targets resolve by id or exact name", async () => {
  await using s = store();
  const a = s.create({ command: "sleep 5", name: "api" });
  assert.throws(() => s.create({ command: "true", name: "api" }), /already named api/);
  s.rename("api", "backend");
  assert.equal(s.resolve("backend").id, a.id);
  assert.equal(s.resolve(a.id).name, "backend");
  s.setGroup("backend", "servers");
  assert.deepEqual(s.inGroup("servers").map((x) => x.id), [a.id]);
  assert.throws(() => s.resolve("nope"), /No session with id or name: nope/);
});

Deno.test("disposing the store ends every child (checked through /proc)", async () => {
  const s = store();
  const sessions = [
    s.create({ command: "sleep 300" }),
    s.create(),
    s.create({ command: "bash -c 'sleep 301 & wait'" }),
  ];
  const pids = sessions.map((x) => x.pid);
  await waitFor(sessions[2]!, () => true);
  await s[Symbol.asyncDispose]();
  for (const pid of pids) assert.equal(isAlive(pid), false, `pid ${pid} still alive`);
});

Deno.test("a session removed while running still reports its exit", async () => {
  await using s = store();
  const session = s.create({ command: "echo up; sleep 30" });
  await waitForText(session, "up");
  s.remove(session.id);
  assert.ok(await within(session.exited, 15_000), "exited resolves after the removal's SIGKILL");
  assert.equal(session.signal, 9);
  assert.equal(isAlive(session.pid), false);
});

Deno.test("a listener that throws is reported once and the sessions keep being read", async () => {
  await using s = store();
  const bad = s.create({ command: "for i in 1 2 3; do echo bad-$i; sleep 0.05; done; sleep 30" });
  const good = s.create({ command: "sleep 0.3; echo good-output; sleep 30" });
  using _sub = bad.on((e) => {
    if (e.type === "output") throw new Error("listener bug");
  });
  const logged: string[] = [];
  const error = console.error;
  console.error = (...args: unknown[]) => void logged.push(args.join(" "));
  try {
    await waitForText(good, "good-output");
    await waitForText(bad, "bad-3");
  } finally {
    console.error = error;
  }
  assert.equal(logged.length, 1, logged.join("\n"));
  assert.match(logged[0]!, /session-\d+: a listener of its "output" events failed: listener bug/);
});

Deno.test("output the emulator throws on is reported once; the session's later output still shows", async () => {
  await using s = store();
  const session = s.create({
    command: "read -r _; printf 'x\\033[Z\\n'; read -r _; echo after-fault; sleep 30",
  });
  session.terminal.xterm.parser.registerCsiHandler({ final: "Z" }, () => {
    throw new Error("emulator bug");
  });
  const logged: string[] = [];
  const error = console.error;
  console.error = (...args: unknown[]) => void logged.push(args.join(" "));
  try {
    session.write("\r");
    await waitFor(session, () => logged.length > 0, 15_000, "the fault on stderr");
    session.write("\r");
    await waitForText(session, "after-fault");
  } finally {
    console.error = error;
  }
  assert.equal(logged.length, 1, logged.join("\n"));
  assert.match(logged[0]!, /session-\d+: the emulator parsing its output failed: emulator bug/);
});
