import assert from "node:assert/strict";
import type { AgentStatus } from "../../model/agent.ts";
import { initialTuiState, type TuiState } from "../../model/tui.ts";
import { type SessionView, sessionView } from "../../model/session.ts";
import { KeyDecoder, type UserInput } from "./keys.ts";
import { resolveKeymap } from "./keymap.ts";
import type { TuiEvent } from "./events.ts";
import { sameDrawing, update } from "./update.ts";

const { keymap } = resolveKeymap();

function row(id: string, more: Partial<SessionView> = {}): SessionView {
  return sessionView(id, { hasRules: false, ...more });
}

function status(state: AgentStatus["state"], seq = 1): AgentStatus {
  return { state, kind: null, source: "declared", ruleId: "osc7501", seq, since: 0, msg: null };
}

function withSessions(rows: SessionView[], more: Partial<TuiState> = {}): TuiState {
  return { ...initialTuiState(120, 32, 0), sessions: rows, selected: rows[0]?.id ?? null, ...more };
}

const key = (bytes: string): TuiEvent => ({
  type: "input",
  input: (() => {
    const d = new KeyDecoder();
    return [...d.feed(bytes), ...d.flush()][0] as UserInput;
  })(),
});

function run(state: TuiState, ...events: TuiEvent[]) {
  const effects = [];
  for (const e of events) {
    const u = update(state, e, keymap);
    state = u.state;
    effects.push(...u.effects);
  }
  return { state, effects };
}

Deno.test("j and k move the selection in list order, grouped sessions after loose ones", () => {
  const s = withSessions([row("a", { group: "g" }), row("b"), row("c", { group: "g" })], {
    selected: "b",
  });
  assert.equal(run(s, key("j")).state.selected, "a");
  assert.equal(run(s, key("j"), key("j")).state.selected, "c");
  assert.equal(run(s, key("j"), key("j"), key("j")).state.selected, "c");
  assert.equal(run(s, key("k")).state.selected, "b");
  assert.equal(run(s, key("\x1b[B")).state.selected, "a");
});

Deno.test("enter focuses the session and reports focus; ctrl+] leaves; other keys go to the PTY", () => {
  const s = withSessions([row("a")]);
  const focused = run(s, key("\r"));
  assert.equal(focused.state.mode, "terminal");
  assert.deepEqual(focused.effects, [{ type: "focus", selected: "a", terminal: true }]);
  const typed = run(focused.state, key("\x1b"), key("\x03"), key("q"));
  assert.deepEqual(typed.effects.map((e) => e.type === "send-key" && e.key.name), [
    "esc",
    "ctrl+c",
    "q",
  ]);
  assert.equal(typed.state.mode, "terminal");
  const back = run(typed.state, key("\x1d"));
  assert.equal(back.state.mode, "navigation");
  assert.deepEqual(back.effects, [{ type: "focus", selected: "a", terminal: false }]);
});

Deno.test("a paste in terminal mode goes to the session whole", () => {
  const s = withSessions([row("a")], { mode: "terminal" });
  const text = "x".repeat(1 << 20);
  const { effects } = run(s, { type: "input", input: { type: "paste", text } });
  assert.deepEqual(effects, [{ type: "paste", id: "a", text }]);
});

Deno.test("n asks for a session; once created it is selected and takes focus", () => {
  const s = withSessions([row("a")]);
  const asked = run(s, key("n"));
  assert.deepEqual(asked.effects, [{ type: "create" }]);
  const made = run(
    asked.state,
    { type: "sessions", sessions: [row("a"), row("b")] },
    { type: "created", id: "b" },
  );
  assert.equal(made.state.selected, "b");
  assert.equal(made.state.mode, "terminal");
});

Deno.test("B cycles through blocked sessions and says so when there is none", () => {
  const blocked = { agent: "claude", agentStatus: status("blocked") };
  const s = withSessions([row("a"), row("b", blocked), row("c"), row("d", blocked)]);
  const one = run(s, key("B")).state;
  assert.equal(one.selected, "b");
  const two = run(one, key("B")).state;
  assert.equal(two.selected, "d");
  assert.equal(run(two, key("B")).state.selected, "b");
  assert.equal(
    run(withSessions([row("a")]), key("B")).state.message?.text,
    "No blocked or failed session",
  );
});

Deno.test("B reaches failed sessions too, in list order with the blocked ones", () => {
  const blocked = { agent: "claude", agentStatus: status("blocked") };
  const failed = { agent: "codex", agentStatus: status("error") };
  const s = withSessions([row("a"), row("b", failed), row("c", blocked), row("d")]);
  const one = run(s, key("B")).state;
  assert.equal(one.selected, "b");
  assert.equal(run(one, key("B")).state.selected, "c");
  // An exited session is not waiting for anyone.
  const gone = withSessions([row("a"), row("b", { ...failed, status: "exited" })]);
  assert.equal(run(gone, key("B")).state.message?.text, "No blocked or failed session");
});

Deno.test("a session whose turn failed elsewhere is announced once, with why", () => {
  const s = withSessions([row("a"), row("b", { name: "api", agent: "claude" })]);
  const failed = {
    ...status("error", 2),
    kind: "rate_limit" as const,
    msg: "Request rejected (429)",
  };
  const failedRow = row("b", { name: "api", agent: "claude", agentStatus: failed });
  const { state } = run(s, { type: "sessions", sessions: [row("a"), failedRow] });
  assert.deepEqual(state.message, {
    text: "✗ api: failed — rate limited (429) · B jumps",
    error: true,
  });
  // The same failure with a new seq (a hook confirming it) is not announced again.
  const later = run({ ...state, message: null }, {
    type: "sessions",
    sessions: [row("a"), { ...failedRow, agentStatus: { ...failed, seq: 3, source: "hook" } }],
  }).state;
  assert.equal(later.message, null);
});

Deno.test("done stays ✓ until the user views that session", () => {
  const s = withSessions([row("a"), row("b", { agent: "claude", agentStatus: status("working") })]);
  const done = run(s, {
    type: "sessions",
    sessions: [row("a"), row("b", { agent: "claude", agentStatus: status("done", 2) })],
  }).state;
  assert.deepEqual(done.unseenDone, { b: true });
  const idle = run(done, {
    type: "sessions",
    sessions: [row("a"), row("b", { agent: "claude", agentStatus: status("idle", 3) })],
  }).state;
  assert.deepEqual(idle.unseenDone, { b: true }, "still ✓ after the agent went idle");
  assert.deepEqual(run(idle, key("j")).state.unseenDone, {}, "viewing clears it");
});

Deno.test("a resumed agent's first status, done, is no ✓ and no message; its own turns are", () => {
  // `claude --resume` (lazyshell restore) redraws its last turn: "✻ Worked for 26s".
  const s = withSessions([row("a"), row("b", { agent: "claude" })]);
  const resumed = run(s, {
    type: "sessions",
    sessions: [row("a"), row("b", { agent: "claude", agentStatus: status("done", 1) })],
  }).state;
  assert.deepEqual([resumed.unseenDone, resumed.message], [{}, null]);
  const working = run(resumed, {
    type: "sessions",
    sessions: [row("a"), row("b", { agent: "claude", agentStatus: status("working", 2) })],
  }).state;
  const done = run(working, {
    type: "sessions",
    sessions: [row("a"), row("b", { agent: "claude", agentStatus: status("done", 3) })],
  }).state;
  assert.deepEqual(done.unseenDone, { b: true });
  assert.equal(done.message?.text, "✓ b: done");
});

Deno.test("a turn that ends in the session being viewed leaves no ✓", () => {
  const s = withSessions([row("a", { agent: "claude", agentStatus: status("working") })]);
  const done = run(s, {
    type: "sessions",
    sessions: [row("a", { agent: "claude", agentStatus: status("done", 2) })],
  }).state;
  assert.deepEqual(done.unseenDone, {});
});

Deno.test("output in an unviewed plain session marks it ●; viewing clears it", () => {
  const s = withSessions([row("a"), row("b"), row("c", { agent: "claude" })]);
  const later = [
    row("a", { outputAt: 5000 }),
    row("b", { outputAt: 5000 }),
    row("c", { agent: "claude", outputAt: 5000 }),
  ];
  const marked = run(s, { type: "sessions", sessions: later }).state;
  assert.deepEqual(marked.activity, { b: true }, "not the viewed one, not an agent");
  assert.deepEqual(run(marked, key("j")).state.activity, {});
});

Deno.test("only output clocks moving draws the same screen", () => {
  const s = withSessions([row("a"), row("b")]);
  const moved = run(s, { type: "sessions", sessions: [row("a", { outputAt: 9 }), row("b")] });
  assert.equal(sameDrawing(s, moved.state), true);
  const renamed = run(s, { type: "sessions", sessions: [row("a", { name: "x" }), row("b")] });
  assert.equal(sameDrawing(s, renamed.state), false);
});

Deno.test("x kills a running session and removes an exited one", () => {
  assert.deepEqual(run(withSessions([row("a")]), key("x")).effects, [{ type: "kill", id: "a" }]);
  const exited = withSessions([row("a", { status: "exited", exitCode: 0 })]);
  assert.deepEqual(run(exited, key("x")).effects, [{ type: "remove", id: "a" }]);
});

Deno.test("r opens the input line and enter renames", () => {
  const s = withSessions([row("a")]);
  const { state, effects } = run(s, key("r"), key("\x7f"), key("z"), key("\r"));
  assert.equal(state.overlay, null);
  assert.deepEqual(effects, [{ type: "rename", id: "a", name: "z" }]);
});

Deno.test("v arms a watcher pattern and an empty pattern disarms it", () => {
  const s = withSessions([row("a")]);
  const armed = run(s, key("v"), key("E"), key("R"), key("\r"));
  assert.deepEqual(armed.effects, [{ type: "watch", id: "a", pattern: "ER" }]);
  const shown = run(armed.state, { type: "sessions", sessions: [row("a", { watcher: "ER" })] })
    .state;
  const reopened = run(shown, key("v")).state.overlay;
  assert.ok(reopened?.type === "input" && reopened.text === "ER", "v opens with the armed pattern");
  const off = run(shown, key("v"), key("\x15"), key("\r"));
  assert.deepEqual(off.effects, [{ type: "watch", id: "a", pattern: null }]);
});

Deno.test("W restarts a loose session at once and asks for a grouped one", () => {
  assert.deepEqual(run(withSessions([row("a")]), key("W")).effects, [{
    type: "restart",
    ids: ["a"],
  }]);
  const s = withSessions([row("a", { group: "g" }), row("b", { group: "g" })]);
  const asked = run(s, key("W"));
  assert.equal(asked.state.overlay?.type, "restart-choice");
  assert.deepEqual(run(asked.state, key("g")).effects, [{
    type: "restart",
    ids: ["a", "b"],
    confirmed: true,
  }]);
});

Deno.test("a question that ends something: its keys act, any other key cancels it", () => {
  const s = withSessions([row("a", { group: "g" })]);
  const questions = [
    { type: "confirm-quit", running: 1 },
    { type: "confirm-kill", target: "a", what: "a (claude, working)" },
    { type: "confirm-kill", target: "a", what: "a (claude, working)", restart: true },
    { type: "restart-choice", target: "a", group: "g" },
    { type: "worktree-choice", target: "a", name: "a", branch: "a", running: true },
  ] as const;
  for (const overlay of questions) {
    // Typed by mistake: "fix my bug", "quickly", "Why"…: the first key closes it, nothing acts.
    for (const k of [" ", "u", "h", "x", "\r", "\x1b[A"]) {
      const r = run({ ...s, overlay }, key(k));
      assert.equal(r.state.overlay, null, `${overlay.type}: ${JSON.stringify(k)} closes it`);
      assert.deepEqual(r.effects, [], `${overlay.type}: ${JSON.stringify(k)} does nothing`);
    }
  }
  const yes = (overlay: (typeof questions)[number]) => run({ ...s, overlay }, key("y")).effects;
  assert.deepEqual(yes(questions[1]), [{ type: "kill", id: "a", confirmed: true }]);
  assert.deepEqual(yes(questions[2]), [{ type: "restart", ids: ["a"], confirmed: true }]);
});

Deno.test("q asks while sessions run; y quits", () => {
  const s = withSessions([row("a")]);
  const asked = run(s, key("q"));
  assert.deepEqual(asked.state.overlay, { type: "confirm-quit", running: 1 });
  assert.deepEqual(run(asked.state, key("y")).effects, [{ type: "quit" }]);
  assert.deepEqual(run(asked.state, key("n")).state.overlay, null);
  assert.deepEqual(run(withSessions([]), key("q")).effects, [{ type: "quit" }]);
});

Deno.test("tabs switch with tab, shift+tab and digits; plugin tabs get other keys", () => {
  const tabs = [{ title: "agents", capturing: false, commands: [] }];
  const s = withSessions([row("a")], { tabs });
  const second = run(s, key("\t")).state;
  assert.equal(second.tab, 1);
  assert.deepEqual(run(second, key("\t")).state.tab, 0);
  assert.deepEqual(run(s, key("\x1b[Z")).state.tab, 1);
  assert.deepEqual(run(s, key("2")).state.tab, 1);
  assert.deepEqual(run(s, key("3")).state.tab, 0);
  const toTab = run(second, key("j"));
  assert.equal(toTab.effects[0]?.type, "tab-key");
  assert.equal(toTab.state.selected, "a", "j went to the tab, not the list");
  const capturing = withSessions([row("a")], {
    tabs: [{ ...tabs[0]!, capturing: true }],
    tab: 1,
  });
  assert.equal(run(capturing, key("q")).effects[0]?.type, "tab-key");
});

Deno.test("on a plugin tab the session selected in the list stays the focus", () => {
  const tabs = [{ title: "env", capturing: false, commands: [] }];
  const s = withSessions([row("a"), row("b")], { tabs });
  // Nothing changes what is selected: no focus change to report (it stays "a").
  assert.deepEqual(run(s, key("2")).effects, []);
  // Selecting from the tab (a plugin's select_session) reports the new selection.
  const onTab = run(s, key("2")).state;
  assert.deepEqual(run(onTab, { type: "select", id: "b" }).effects, [
    { type: "focus", selected: "b", terminal: false },
  ]);
  // Leaving terminal mode for a tab reports it, the session still selected.
  const typing = run(s, key("\r")).state;
  assert.deepEqual(run(typing, key("\x1d"), key("2")).effects, [
    { type: "focus", selected: "a", terminal: false },
  ]);
});

Deno.test("the palette filters commands and runs the chosen one", () => {
  const s = withSessions([row("a")]);
  const { state, effects } = run(s, key(":"), key("k"), key("i"), key("l"), key("\r"));
  assert.equal(state.overlay, null);
  assert.deepEqual(effects, [{ type: "kill", id: "a" }]);
});

Deno.test("the palette runs `<id> <command>` of any plugin tab, from any tab", () => {
  const tabs = [
    { id: "agents", title: "Agents", capturing: false, commands: [] },
    { id: "hello", title: "Hello", capturing: false, commands: [{ name: "shout", help: "Shout" }] },
  ];
  const s = withSessions([row("a")], { tabs });
  const typed = [..."hello sh"].map((c) => key(c === " " ? " " : c));
  const { state, effects } = run(s, key(":"), ...typed, key("\r"));
  assert.equal(state.overlay, null);
  assert.deepEqual(effects, [{ type: "tab-command", tab: 2, name: "shout" }]);
});

Deno.test("resize reports the new pane size for the sessions", () => {
  const { effects } = run(withSessions([]), { type: "resize", cols: 100, rows: 30 });
  assert.deepEqual(effects, [{ type: "resize-sessions", cols: 74, rows: 28, tiles: [] }]);
});

Deno.test("a click in the list selects; the wheel scrolls the selected session", () => {
  const s = withSessions([row("a"), row("b")]);
  const click: TuiEvent = {
    type: "input",
    input: new KeyDecoder().feed("\x1b[<0;3;3M")[0] as UserInput,
  };
  assert.equal(run(s, click).state.selected, "b");
  const wheel: TuiEvent = {
    type: "input",
    input: new KeyDecoder().feed("\x1b[<64;50;10M")[0] as UserInput,
  };
  assert.deepEqual(run(s, wheel).effects, [{ type: "scroll", id: "a", delta: 3 }]);
});

Deno.test("the selection survives removal of the selected session", () => {
  const s = withSessions([row("a"), row("b"), row("c")], { selected: "b" });
  assert.equal(run(s, { type: "sessions", sessions: [row("a"), row("c")] }).state.selected, "c");
  assert.equal(run(s, { type: "sessions", sessions: [] }).state.selected, null);
});

Deno.test("the clock advances spinners only while something works and motion is on", () => {
  const working = [row("a", { agent: "claude", agentStatus: status("working") })];
  assert.equal(run(withSessions(working), { type: "tick", now: 5 }).state.spin, 1);
  assert.equal(
    run(withSessions(working, { reduceMotion: true }), { type: "tick", now: 5 }).state.spin,
    0,
  );
  assert.equal(run(withSessions([row("a")]), { type: "tick", now: 5 }).state.spin, 0);
});

Deno.test("a session entering blocked elsewhere is announced in the status line", () => {
  const s = withSessions([row("a"), row("b", { name: "api", agent: "claude" })]);
  const blocked = {
    ...status("blocked", 2),
    kind: "permission" as const,
    msg: "approve Bash: touch x",
  };
  const { state } = run(s, {
    type: "sessions",
    sessions: [row("a"), row("b", { name: "api", agent: "claude", agentStatus: blocked })],
  });
  assert.deepEqual(state.message, { text: "‼ api: approve Bash: touch x · B jumps", error: true });
  const viewed = run(withSessions([row("b", { name: "api" })]), {
    type: "sessions",
    sessions: [row("b", { name: "api", agentStatus: blocked })],
  }).state;
  assert.equal(viewed.message, null, "no announcement for the session on screen");
});

Deno.test("typing in terminal mode brings a scrolled-back view to the live screen", () => {
  const s = withSessions([row("a")], { mode: "terminal", scroll: { a: 12 } });
  const { effects } = run(s, key("x"));
  assert.deepEqual(effects.map((e) => e.type), ["scroll", "send-key"]);
  assert.deepEqual(effects[0], { type: "scroll", id: "a", delta: -12 });
});

Deno.test("an expired message is cleared only if it is still the one on screen", () => {
  const s = withSessions([row("a")], { message: { text: "new", error: false } });
  assert.equal(run(s, { type: "message-expired", text: "old" }).state.message?.text, "new");
  assert.equal(run(s, { type: "message-expired", text: "new" }).state.message, null);
});

Deno.test("a sessions sync that brings nothing new leaves the state as it was (no frame)", () => {
  const s = withSessions([row("a"), row("b", { agent: "claude", agentStatus: status("working") })]);
  const same = [row("a"), row("b", { agent: "claude", agentStatus: status("working") })];
  assert.equal(update(s, { type: "sessions", sessions: same }, keymap).state, s);
  const renamed = [row("a", { name: "z" }), same[1]!];
  assert.notEqual(update(s, { type: "sessions", sessions: renamed }, keymap).state, s);
});

Deno.test("resume puts a new client where the last one left, when that still exists", () => {
  const s = withSessions([row("a"), row("b")], {
    tabs: [{ id: "agents", title: "Agents", capturing: false, commands: [] }],
  });
  const back = run(s, { type: "resume", selected: "b", tab: 1 }).state;
  assert.deepEqual([back.selected, back.tab], ["b", 1]);
  const gone = run(s, { type: "resume", selected: "zz", tab: 7 }).state;
  assert.deepEqual([gone.selected, gone.tab], ["a", 0]);
});

Deno.test("o opens the answer overlay on a readable prompt; digits, y and n answer, esc closes", () => {
  const prompt = {
    question: "Do you want to proceed?",
    subject: "touch x",
    options: [{ label: "Yes", keys: ["1"] }, { label: "No", keys: ["2"] }],
    cancel: ["Esc"],
    approve: 1,
    deny: 2,
  };
  const blocked = row("a", { agent: "claude", agentStatus: status("blocked"), prompt });
  const s = withSessions([blocked, row("b")]);
  const opened = run(s, key("o")).state;
  assert.deepEqual(opened.overlay, { type: "answer", target: "a", prompt });
  assert.deepEqual(run(opened, key("2")).effects, [
    { type: "answer", id: "a", choice: { type: "option", n: 2 }, shown: prompt },
  ]);
  assert.deepEqual(run(opened, key("y")).effects[0], {
    type: "answer",
    id: "a",
    choice: { type: "approve" },
    shown: prompt,
  });
  assert.deepEqual(run(opened, key("n")).effects.map((e) => e.type), ["answer"]);
  assert.deepEqual(run(opened, key("7")).effects, [], "no such option");
  assert.equal(run(opened, key("\x1b")).state.overlay, null);
  const plain = run(withSessions([row("b")]), key("o")).state;
  assert.equal(plain.overlay, null);
  assert.match(plain.message?.text ?? "", /not waiting for an answer/);
});

Deno.test("I lists the blocked sessions; enter goes there, o answers it", () => {
  const prompt = {
    question: "Q?",
    subject: null,
    options: [{ label: "Yes", keys: ["y"] }],
    cancel: null,
    approve: 1,
    deny: null,
  };
  const s = withSessions([
    row("a"),
    row("b", { agent: "codex", agentStatus: status("blocked"), prompt }),
    row("c", { agent: "claude", agentStatus: status("blocked") }),
  ]);
  const inbox = run(s, key("I")).state;
  assert.deepEqual(inbox.overlay, { type: "inbox", index: 0 });
  const moved = run(inbox, key("j")).state;
  assert.deepEqual(moved.overlay, { type: "inbox", index: 1 });
  const went = run(moved, key("\r")).state;
  assert.deepEqual([went.selected, went.overlay], ["c", null]);
  const answering = run(inbox, key("o")).state;
  assert.deepEqual([answering.selected, answering.overlay?.type], ["b", "answer"]);
});

Deno.test("help scrolls with j/k and pgdown/pgup within the list; esc closes", () => {
  const s = withSessions([row("a")], { cols: 100, rows: 20, overlay: { type: "help" } });
  const top = (t: TuiState) => (t.overlay?.type === "help" ? t.overlay.top ?? 0 : null);
  assert.equal(top(run(s, key("j"), key("j")).state), 2);
  assert.equal(top(run(s, key("k")).state), 0);
  const end = run(s, ...Array.from({ length: 20 }, () => key("\x1b[6~"))).state;
  const last = top(end)!;
  assert.ok(last > 0 && last < 60, `clamped to the list: ${last}`);
  assert.equal(top(run(end, key("j")).state), last, "no further than the last row");
  assert.equal(top(run(end, key("k")).state), last - 1, "one k comes back one row");
  assert.equal(run(end, key("\x1b")).state.overlay, null);
});

Deno.test("the restore offer: R asks for it; pick with space, enter restores the checked, forgets the rest", () => {
  const s = withSessions([row("a")]);
  assert.deepEqual(run(s, key("R")).effects, [{ type: "restore-offer" }]);
  const items = [
    { name: "web", group: "dev", how: "runs npm start" },
    { name: "agent", group: null, how: "resumes claude conversation abc (hook Stop: session_id)" },
    { name: "sh", group: null, how: "shell in /src" },
  ];
  const offered = run(s, { type: "restore-offer", items, problem: null }).state;
  assert.equal(offered.overlay?.type, "restore");
  // Every key goes to the offer while it is open (n is not "new session" here).
  assert.deepEqual(run(offered, key("n")).effects, []);
  const picked = run(offered, key("j"), key(" "), key("\r"));
  assert.equal(picked.state.overlay, null);
  assert.deepEqual(picked.effects, [{ type: "restore", names: ["web", "sh"], forget: ["agent"] }]);
  assert.deepEqual(run(offered, key("a")).effects, [{
    type: "restore",
    names: ["web", "agent", "sh"],
    forget: [],
  }]);
  assert.deepEqual(run(offered, key("N"), key("y")).effects, [{
    type: "restore",
    names: [],
    forget: ["web", "agent", "sh"],
  }]);
  // esc: later (nothing restored, nothing forgotten).
  const later = run(offered, key("\x1b"));
  assert.deepEqual([later.state.overlay, later.effects], [null, []]);
  // Nothing waits: a message, no box; a damaged file alone is said in red.
  const none = run(s, { type: "restore-offer", items: [], problem: null }).state;
  assert.deepEqual([none.overlay, none.message?.text], [
    null,
    "Nothing to restore: no saved session is waiting",
  ]);
  const damaged = run(s, {
    type: "restore-offer",
    items: [],
    problem: "The state file x is damaged",
  });
  assert.deepEqual(damaged.state.message, { text: "The state file x is damaged", error: true });
});

Deno.test("keys that mean leave work on a plugin tab: d detaches, q quits, 1 goes back", () => {
  const tabs = [{ title: "changes", capturing: false, commands: [] }];
  const s = withSessions([row("a", { status: "exited" })], { tabs, tab: 1 });
  assert.deepEqual(run(s, key("d")).effects, [{ type: "detach" }]);
  assert.deepEqual(run(s, key("q")).effects, [{ type: "quit" }]);
  assert.equal(run(s, key("1")).state.tab, 0);
  // A tab that captures (a text field) gets them all.
  const capturing = { ...s, tabs: [{ ...tabs[0]!, capturing: true }] };
  assert.deepEqual(run(capturing, key("d")).effects, [{
    type: "tab-key",
    tab: 1,
    key: { type: "key", name: "d", text: "d", raw: "d" },
  }]);
});

Deno.test("the restore offer takes only its own keys: typing `claude` neither detaches nor restores", () => {
  const items = [
    { name: "web", group: null, how: "starts npm run dev" },
    { name: "agent", group: null, how: "resumes claude" },
  ];
  const s = withSessions([row("a")]);
  const offered = run(s, { type: "restore-offer", items, problem: null }).state;
  const typed = run(offered, ...[..."claude\r"].map(key));
  assert.deepEqual(typed.effects, [], "no detach, no restore");
  assert.equal(typed.state.overlay?.type, "restore", "the offer stays open");
  assert.equal(typed.state.overlay?.type === "restore" && typed.state.overlay.typed, true);
  // An arrow gives the offer its keys back; esc always closes it.
  const back = run(typed.state, key("\x1b[B"), key("a"));
  assert.deepEqual(back.effects, [{ type: "restore", names: ["web", "agent"], forget: [] }]);
  assert.equal(run(typed.state, key("\x1b")).state.overlay, null);
  // Its own keys act at once when nothing else was typed.
  assert.deepEqual(run(offered, key("a")).effects, [
    { type: "restore", names: ["web", "agent"], forget: [] },
  ]);
});

Deno.test("N in the restore offer asks before forgetting: y forgets, any other key keeps them", () => {
  const items = [
    { name: "web", group: null, how: "starts npm run dev" },
    { name: "agent", group: null, how: "resumes claude conversation 8449886a" },
  ];
  const offered = run(withSessions([]), { type: "restore-offer", items, problem: null }).state;
  // N is the new-agent key too, pressed as a client attaches: it forgets nothing yet.
  const asked = run(offered, key("N"));
  assert.deepEqual(asked.effects, []);
  assert.ok(asked.state.overlay?.type === "restore" && asked.state.overlay.forgetting);
  assert.deepEqual(run(asked.state, key("y")).effects, [
    { type: "restore", names: [], forget: ["web", "agent"] },
  ]);
  // The form's keys typed on (`fix the bug, yes`): nothing is forgotten, nothing restored.
  const typed = run(asked.state, ...[..."fix the bug, yes"].map(key));
  assert.deepEqual(typed.effects, []);
  assert.equal(typed.state.overlay?.type, "restore", "the offer stays, its sessions saved");
});
