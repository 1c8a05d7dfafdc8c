/**
 * One page's live connection against a real runtime and real PTYs, on a
 * socket of the test's own (its bufferedAmount set by the test): the list
 * and its changes, a watched screen's rows as output arrives (only the rows
 * that changed), and the bound — a page that does not read gets no
 * message until it drained, then one whole list instead of every change.
 */

import assert from "node:assert/strict";
import { startInstance } from "./control_helpers.ts";
import { LiveConnection, type LiveSocket } from "../src/web/live.ts";
import { WEB_LIMITS } from "../src/web/limits.ts";
import type { ServerMessage } from "../src/web/wire.ts";
import { testRepo } from "../src/git/test_util.ts";

class Socket implements LiveSocket {
  bufferedAmount = 0;
  readyState = 1;
  readonly sent: ServerMessage[] = [];
  send(data: string): void {
    this.sent.push(JSON.parse(data));
  }
  close(): void {
    this.readyState = 3;
  }
}

async function until(what: string, ok: () => boolean, ms = 20_000): Promise<void> {
  const deadline = Date.now() + ms;
  while (!ok()) {
    if (Date.now() > deadline) throw new Error(`timed out: ${what}`);
    await new Promise((r) => setTimeout(r, 20));
  }
}

Deno.test("live: the list, its changes, a watched screen's changed rows", async () => {
  await using t = await startInstance();
  const a = await t.ok<{ id: string }>("new", { name: "a", command: "exec cat" });
  const socket = new Socket();
  using live = new LiveConnection(t.runtime, socket, {
    limits: WEB_LIMITS,
    readOnly: false,
    log: () => {},
  });
  live.open();
  const hello = socket.sent[0]!;
  assert.equal(hello.t, "hello");
  assert.deepEqual(hello.t === "hello" && hello.sessions.map((s) => s.name), ["a"]);

  live.message(JSON.stringify({ t: "watch", id: a.id }));
  const screen = socket.sent.find((m) => m.t === "screen");
  assert.ok(screen && screen.t === "screen" && screen.id === a.id);
  const from = socket.sent.length;
  t.runtime.sessions.get(a.id)!.write("hello web\r", false);
  await until(
    "rows with the echo",
    () => socket.sent.slice(from).some((m) => m.t === "rows" && m.data.includes("hello web")),
  );
  const rows = socket.sent.slice(from).filter((m) => m.t === "rows");
  // `cat` echoes the line and prints it again: two rows drawn, never the whole screen.
  const drawn = rows.map((m) => m.t === "rows" ? m.data.split("\x1b[0m\x1b[K").length - 1 : 0);
  assert.ok(Math.max(...drawn) <= 2, `rows per frame: ${drawn}`);

  // Renamed: the change reaches the page as that session's new entry.
  await t.ok("rename", { target: a.id, name: "renamed" });
  await until(
    "the rename",
    () => socket.sent.some((m) => m.t === "session" && m.session.name === "renamed"),
  );

  // A line sent from the page is typed into the session (then Enter).
  live.message(JSON.stringify({ t: "send", req: 7, id: a.id, text: "typed", enter: true }));
  await until("the reply", () => socket.sent.some((m) => m.t === "reply" && m.req === 7));
  const reply = socket.sent.find((m) => m.t === "reply" && m.req === 7);
  assert.deepEqual(reply, { t: "reply", req: 7, ok: true, text: `Sent to ${a.id} (renamed)` });
  await until(
    "the typed line on screen",
    () => socket.sent.some((m) => m.t === "rows" && m.data.includes("typed")),
  );
});

Deno.test("live: a page that does not read gets one whole list once it drained", async () => {
  await using t = await startInstance();
  const socket = new Socket();
  using live = new LiveConnection(t.runtime, socket, {
    limits: { ...WEB_LIMITS, maxQueuedBytes: 1000 },
    readOnly: true,
    log: () => {},
  });
  live.open();
  socket.bufferedAmount = 10_000; // the page stopped reading
  for (let i = 0; i < 5; i++) await t.ok("new", { name: `s${i}`, command: "exec sleep 60" });
  await new Promise((r) => setTimeout(r, 300));
  assert.deepEqual(socket.sent.map((m) => m.t), ["hello"], "nothing queued while behind");
  socket.bufferedAmount = 0;
  await until("the list again", () => socket.sent.length > 1);
  const next = socket.sent[1]!;
  assert.equal(next.t, "hello");
  assert.equal(next.t === "hello" && next.sessions.length, 5);
  // Read-only: requests are refused, nothing typed.
  live.message(JSON.stringify({ t: "send", req: 1, id: "session-1", text: "x", enter: false }));
  assert.deepEqual(socket.sent.at(-1), {
    t: "reply",
    req: 1,
    ok: false,
    text: "The web view is read-only",
  });
});

Deno.test("live: a worktree session's changes, read-only too", async () => {
  using repo = testRepo();
  const dir = repo.worktree("feat");
  repo.write(`${dir}/a.txt`, "one\ntwo changed\nthree\n");
  await using t = await startInstance();
  const s = await t.ok<{ id: string }>("new", { name: "feat", cwd: dir, command: "exec sleep 60" });
  const socket = new Socket();
  using live = new LiveConnection(t.runtime, socket, {
    limits: WEB_LIMITS,
    readOnly: true,
    log: () => {},
  });
  live.open();
  live.message(JSON.stringify({ t: "diff", req: 3, id: s.id }));
  await until("the diff", () => socket.sent.some((m) => m.t === "reply" && m.req === 3));
  const reply = socket.sent.find((m) => m.t === "reply" && m.req === 3);
  assert.ok(reply?.t === "reply" && reply.ok, JSON.stringify(reply));
  assert.match(reply.text, /^session-1 \(feat\): branch feat in .*, since main at [0-9a-f]{7}/);
  assert.match(reply.text, /\nM a\.txt\n/);
  assert.match(reply.text, /\n-two\n\+two changed\n/);
});

Deno.test("live: a change the page would not see (the output clock) sends nothing", async () => {
  await using t = await startInstance();
  const s = await t.ok<{ id: string }>("new", {
    name: "ticker",
    command: "while :; do echo tick; sleep 0.2; done",
  });
  const socket = new Socket();
  using live = new LiveConnection(t.runtime, socket, {
    limits: WEB_LIMITS,
    readOnly: true,
    log: () => {},
  });
  let clock = 0;
  using _sub = t.runtime.subscribe((c) => {
    if (
      c.type === "updated" && c.session.id === s.id && c.session.outputAt !== c.previous.outputAt
    ) {
      clock++;
    }
  });
  live.open();
  await until("the output clock moved twice", () => clock >= 2);
  assert.deepEqual(socket.sent.filter((m) => m.t === "session"), []);
});

Deno.test("live: a page that does not read cannot make the server queue screens or replies", async () => {
  await using t = await startInstance();
  const s = await t.ok<{ id: string }>("new", { name: "a", command: "exec sleep 60" });
  const socket = new Socket();
  using live = new LiveConnection(t.runtime, socket, {
    limits: { ...WEB_LIMITS, maxQueuedBytes: 1000 },
    readOnly: false,
    log: () => {},
  });
  live.open();
  socket.bufferedAmount = 10_000;
  for (let i = 0; i < 100; i++) {
    live.message(JSON.stringify({ t: "watch", id: s.id }));
    live.message("not json");
  }
  assert.deepEqual(socket.sent.map((m) => m.t), ["hello"]);
  assert.equal(live.ignored, 200);
  socket.bufferedAmount = 0;
  live.message(JSON.stringify({ t: "watch", id: s.id }));
  assert.deepEqual(socket.sent.map((m) => m.t), ["hello", "screen"]);
});

Deno.test("live: an answer about another subject than the page showed is refused, nothing typed", async () => {
  await using t = await startInstance();
  const script = `${t.base}/claude.ts`;
  Deno.copyFileSync(new URL("./testdata/prompt_agent.ts", import.meta.url), script);
  const log = `${t.base}/claude.log`;
  const captures = new URL("../fixtures/captures/", import.meta.url).pathname;
  const s = await t.ok<{ id: string }>("new", {
    name: "agent",
    command: `exec ${Deno.execPath()} run -A --quiet ${script} ${captures}claude-tool 13978 ${log}`,
  });
  await until(
    "blocked with its prompt",
    () => t.runtime.view(s.id)?.prompt?.subject != null,
    30_000,
  );
  const prompt = t.runtime.view(s.id)!.prompt!;
  const socket = new Socket();
  using live = new LiveConnection(t.runtime, socket, {
    limits: WEB_LIMITS,
    readOnly: false,
    log: () => {},
  });
  live.open();
  live.message(JSON.stringify({
    t: "answer",
    req: 5,
    id: s.id,
    option: 1,
    question: prompt.question,
    subject: "rm -rf ~",
    options: prompt.options.map((o) => o.label),
  }));
  await until("the refusal", () => socket.sent.some((m) => m.t === "reply" && m.req === 5));
  assert.deepEqual(socket.sent.find((m) => m.t === "reply" && m.req === 5), {
    t: "reply",
    req: 5,
    ok: false,
    text: `The prompt of ${s.id} (agent) changed since it was read (now about ` +
      `${JSON.stringify(prompt.subject)}): nothing typed`,
  });
  await new Promise((r) => setTimeout(r, 300));
  const keys = Deno.readTextFileSync(log).split("\n").filter((l) => l.includes('"key"'));
  assert.deepEqual(keys, []);
});

Deno.test("live: a frame waits while the page's socket drains, then carries every row changed meanwhile", async () => {
  await using t = await startInstance();
  const a = await t.ok<{ id: string }>("new", { name: "a", command: "exec cat" });
  await t.ok("new", { name: "other", command: "while :; do echo other; sleep 0.05; done" });
  const session = t.runtime.sessions.get(a.id)!;
  const screenHas = (text: string, n: number) =>
    session.visibleLines().filter((l) => l === text).length >= n;
  const socket = new Socket();
  using live = new LiveConnection(t.runtime, socket, {
    limits: { ...WEB_LIMITS, frameDrainWaitMs: 60_000 },
    readOnly: true,
    log: () => {},
  });
  live.open();
  live.message(JSON.stringify({ t: "watch", id: a.id }));
  const from = socket.sent.length;
  socket.bufferedAmount = 100; // written but not yet taken: draining, far from the bound
  session.write("one\r", false);
  session.write("two\r", false);
  await until(
    "both lines on the session's screen",
    () => screenHas("one", 2) && screenHas("two", 2),
  );
  await new Promise((r) => setTimeout(r, 2 * WEB_LIMITS.frameMs));
  const rows = () => socket.sent.slice(from).filter((m) => m.t === "rows");
  assert.deepEqual(rows(), [], "nothing while the socket drains");
  socket.bufferedAmount = 0;
  await until("a frame", () => rows().length > 0);
  // One frame with every row changed since the screen was sent: both lines, twice each.
  const frames = rows();
  assert.equal(frames.length, 1, JSON.stringify(frames));
  const frame = frames[0]!;
  assert.ok(frame.t === "rows" && frame.id === a.id);
  assert.equal(frame.data.split("one").length - 1, 2);
  assert.equal(frame.data.split("two").length - 1, 2);
  // The other session's output, no page watching it, sent nothing.
  assert.ok(socket.sent.every((m) => m.t !== "rows" || m.id === a.id));
});

Deno.test("live: a socket that never drains still gets the frame, frameDrainWaitMs late", async () => {
  await using t = await startInstance();
  const a = await t.ok<{ id: string }>("new", { name: "a", command: "exec cat" });
  const socket = new Socket();
  using live = new LiveConnection(t.runtime, socket, {
    limits: { ...WEB_LIMITS, frameDrainWaitMs: 300 },
    readOnly: true,
    log: () => {},
  });
  live.open();
  live.message(JSON.stringify({ t: "watch", id: a.id }));
  socket.bufferedAmount = 100;
  t.runtime.sessions.get(a.id)!.write("late\r", false);
  await until(
    "the frame",
    () => socket.sent.some((m) => m.t === "rows" && m.data.includes("late")),
  );
});
