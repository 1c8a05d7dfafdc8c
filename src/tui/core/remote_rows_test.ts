import assert from "node:assert/strict";
import type { HostView, RemoteSession } from "../../model/hosts.ts";
import { initialTuiState, type TuiState } from "../../model/tui.ts";
import { sessionView } from "../../model/session.ts";
import { keys, run } from "./test_util.ts";
import { view } from "./view/mod.ts";
import { keymap } from "./test_util.ts";
import { hostState } from "./view/host_rows.ts";

const remote = (id: string, more: Partial<RemoteSession> = {}): RemoteSession => ({
  id,
  name: id,
  group: null,
  status: "running",
  exitCode: null,
  signal: null,
  agent: null,
  state: null,
  kind: null,
  msg: null,
  seq: null,
  since: null,
  resetsAt: null,
  prompt: null,
  ...more,
});

const prompt = {
  question: "Do you want to proceed?",
  subject: null,
  options: [{ label: "Yes", keys: ["1"] }, { label: "No", keys: ["2"] }],
  cancel: null,
  approve: 1,
  deny: 2,
};

function host(name: string, more: Partial<HostView> = {}): HostView {
  return {
    name,
    phase: "up",
    error: null,
    tries: 0,
    upSince: null,
    retryAt: null,
    sessions: [],
    listedAt: 0,
    ...more,
  };
}

function state(): TuiState {
  const s = initialTuiState(100, 24, 10_000);
  return {
    ...s,
    sessions: [sessionView("session-1", { name: "here" })],
    selected: "session-1",
    hosts: [
      host("one", {
        sessions: [
          remote("session-1", { name: "api", agent: "claude", state: "blocked", prompt }),
        ],
      }),
      host("two", { phase: "down", error: "ssh to two failed", tries: 3, retryAt: 18_000 }),
    ],
  };
}

function screen(s: TuiState): string {
  return view(s, { keymap, screen: null, tabLines: null }).toText();
}

Deno.test("the list: local rows, then a header per host with its state and its rows", () => {
  const text = screen(state());
  assert.match(text, /here/);
  assert.match(text, /▸ one · up/);
  assert.match(text, /api\s+claude/);
  assert.match(text, /▸ two · down 8s/); // narrow: the short form
  assert.equal(hostState(state().hosts[1]!, 10_000), "down, retry in 8s");
  assert.match(text, /ssh to two failed/);
  assert.equal(hostState(host("x", { phase: "connecting" }), 0), "connecting");
});

Deno.test("j reaches the remote rows and back; enter attaches there; o answers there", () => {
  const { state: s } = run(state(), ...keys("j"));
  assert.deepEqual([s.selected, s.remote], ["session-1", "@one/session-1"]);
  assert.match(screen(s), /api on one/); // the pane says where it runs
  assert.deepEqual(run(s, ...keys("k")).state.remote, null);
  // A down host has no rows: j stays.
  assert.equal(run(s, ...keys("j")).state.remote, "@one/session-1");
  const enter = run(s, ...keys("\r"));
  assert.deepEqual(enter.effects, [{ type: "remote-attach", host: "one", id: "session-1" }]);
  assert.equal(enter.state.mode, "navigation");
  const answered = run(s, ...keys("o"), ...keys("2"));
  assert.deepEqual(answered.effects.filter((e) => e.type === "answer"), [{
    type: "answer",
    id: "@one/session-1",
    choice: { type: "option", n: 2 },
    shown: prompt,
  }]);
  // B reaches a remote blocked row; the banner counts it.
  assert.equal(run(state(), ...keys("B")).state.remote, "@one/session-1");
  assert.match(screen(state()), /‼ 1/);
  // What needs the session's own terminal here says where it runs.
  const x = run(s, ...keys("x"));
  assert.deepEqual(x.effects, []);
  assert.match(x.state.message!.text, /api runs on one: enter attaches there/);
});

Deno.test("a remote row no longer listed gives the selection back; names are shown, not obeyed", () => {
  const { state: s } = run(state(), ...keys("j"));
  const gone = run(s, { type: "hosts", hosts: [host("one", { phase: "down" })] }).state;
  assert.deepEqual([gone.remote, gone.selected], [null, "session-1"]);
  const evil = run(s, {
    type: "hosts",
    hosts: [host("one", { sessions: [remote("session-1", { name: "x\x1b]0;pwned\x07" })] })],
  }).state;
  assert.ok(!screen(evil).includes("\x1b"));
});

Deno.test("a listed remote session that starts asking is said on the message line", () => {
  const s = state();
  const hosts = (st: RemoteSession["state"], seq: number) => [
    host("one", {
      sessions: [remote("session-1", { name: "api", state: st, seq, msg: "Apply?" })],
    }),
  ];
  const working = run(s, { type: "hosts", hosts: hosts("working", 1) }).state;
  assert.equal(working.message, null);
  const asked = run(working, { type: "hosts", hosts: hosts("blocked", 2) }).state;
  assert.deepEqual(asked.message, { text: "‼ one: api: Apply? · B jumps", error: true });
  // The same prompt listed again: said once.
  const again = run({ ...asked, message: null }, { type: "hosts", hosts: hosts("blocked", 2) });
  assert.equal(again.state.message, null);
});
