import assert from "node:assert/strict";
import {
  BACKOFF_MS,
  fromJson,
  INITIAL,
  type LimitSeen,
  marginFor,
  MAX_FAILURES,
  nextDue,
  NO_EFFECT_MS,
  QUIET_MS,
  type ResumeAction,
  type ResumeEvent,
  type ResumePolicy,
  type ResumeState,
  step,
  toJson,
} from "./resume.ts";

/** A session's machine on a clock the test moves. */
function machine(policy: ResumePolicy = "auto") {
  let state: ResumeState = INITIAL;
  let now = Date.parse("2026-12-02T00:00:00Z");
  const actions: (ResumeAction & { at: number })[] = [];
  const send = (e: ResumeEvent) => {
    const r = step(state, e, now, policy);
    state = r.state;
    if (r.action) actions.push({ ...r.action, at: now });
    return r.action;
  };
  /** Ticks every second up to `to`, as the runtime's timer would. */
  const runTo = (to: number) => {
    while (now < to) {
      now = Math.min(to, now + 1000);
      send({ type: "tick" });
    }
  };
  return {
    send,
    runTo,
    get now() {
      return now;
    },
    set now(t: number) {
      now = t;
    },
    get state() {
      return state;
    },
    actions,
  };
}

const at = (m: { now: number }, ms: number) => m.now + ms;
const limit = (resetsAt: number | null, more: Partial<LimitSeen> = {}): LimitSeen => ({
  resetsAt,
  msg: "You've hit your usage limit",
  selfContinues: false,
  ...more,
});

Deno.test("resume: auto types once, at the reset plus the margin, never before", () => {
  const m = machine("auto");
  const reset = at(m, 60 * 60_000);
  m.send({ type: "limit", limit: limit(reset) });
  m.runTo(reset + marginFor(reset) - 1000);
  assert.equal(m.actions.length, 0);
  m.runTo(reset + marginFor(reset));
  assert.deepEqual(m.actions.map((a) => [a.type, a.at]), [["resume", reset + marginFor(reset)]]);
  m.send({ type: "typed-continue" });
  // The status goes on saying the same limit until the agent redraws: nothing more.
  m.send({ type: "limit", limit: limit(reset) });
  m.runTo(reset + marginFor(reset) + 30_000);
  m.send({ type: "cleared" });
  m.runTo(reset + 2 * 60 * 60_000);
  assert.equal(m.actions.length, 1);
  assert.equal(m.state.phase, "none");
});

Deno.test("resume: never while the user types; after QUIET_MS of quiet it does", () => {
  const m = machine("auto");
  const reset = at(m, 10_000);
  m.send({ type: "limit", limit: limit(reset) });
  m.runTo(reset + marginFor(reset) - 2000);
  m.send({ type: "typed" });
  const typed = m.now;
  m.runTo(typed + QUIET_MS - 1000);
  assert.equal(m.actions.length, 0);
  assert.equal(nextDue(m.state), typed + QUIET_MS);
  m.runTo(typed + QUIET_MS);
  assert.deepEqual(m.actions.map((a) => [a.type, a.at]), [["resume", typed + QUIET_MS]]);
});

Deno.test("resume: a failed re-check (the screen changed) types nothing and never again", () => {
  const m = machine("auto");
  const reset = at(m, 10_000);
  m.send({ type: "limit", limit: limit(reset) });
  m.runTo(reset + marginFor(reset));
  assert.equal(m.actions.length, 1);
  m.send({ type: "recheck-failed", why: "the limit is no longer shown" });
  assert.equal(m.state.phase, "stopped");
  assert.equal(m.state.reason, "not resumed: the limit is no longer shown");
  // The same limit seen again: not twice.
  m.send({ type: "limit", limit: limit(reset) });
  m.runTo(reset + 60 * 60_000);
  assert.equal(m.actions.length, 1);
});

Deno.test("resume: an agent that continues by itself is watched, nothing typed", () => {
  const m = machine("auto");
  const reset = at(m, 10_000);
  m.send({ type: "limit", limit: limit(reset, { selfContinues: true }) });
  m.runTo(reset + 10 * 60_000);
  assert.equal(m.actions.length, 0);
  assert.equal(m.state.phase, "watching");
  m.send({ type: "cleared" });
  assert.equal(m.state.phase, "none");
});

Deno.test("resume: the same limit watched, its own continue cancelled: the policy applies", () => {
  // Claude's Esc ("Automatic continue cancelled"): the same limit, no longer self-continuing.
  const m = machine("auto");
  const reset = at(m, 10_000);
  m.send({ type: "limit", limit: limit(reset, { selfContinues: true }) });
  assert.equal(m.state.phase, "watching");
  m.send({ type: "limit", limit: limit(reset) });
  assert.equal(m.state.phase, "waiting");
  m.runTo(reset + 10 * 60_000);
  assert.deepEqual(m.actions.map((a) => a.type), ["resume"]);
});

Deno.test("resume: ask notifies at the reset and resumes only on the key", () => {
  const m = machine("ask");
  const reset = at(m, 10_000);
  m.send({ type: "limit", limit: limit(reset) });
  // The key before the reset does nothing.
  m.send({ type: "confirm" });
  assert.equal(m.actions.length, 0);
  m.runTo(reset + marginFor(reset));
  assert.deepEqual(m.actions.map((a) => a.type), ["ask"]);
  m.runTo(reset + 30 * 60_000);
  assert.deepEqual(m.actions.map((a) => a.type), ["ask"]); // asked once, waits
  m.send({ type: "confirm" });
  assert.deepEqual(m.actions.map((a) => a.type), ["ask", "resume"]);
});

Deno.test("resume: off does nothing; cancel stops it for this limit", () => {
  const off = machine("off");
  off.send({ type: "limit", limit: limit(at(off, 10_000)) });
  off.runTo(at(off, 60 * 60_000));
  assert.equal(off.actions.length, 0);
  // Past its time under off: no timer to arm (one would fire at once, again and again).
  assert.equal(off.state.phase, "waiting");
  assert.equal(nextDue(off.state, "off"), null);
  assert.ok(nextDue(off.state, "auto")! <= off.now);
  const m = machine("auto");
  const reset = at(m, 10_000);
  m.send({ type: "limit", limit: limit(reset) });
  m.send({ type: "cancel" });
  m.runTo(reset + 60 * 60_000);
  assert.equal(m.actions.length, 0);
  assert.equal(m.state.reason, "cancelled");
});

Deno.test("resume: a limit back right after the resume waits for its new time", () => {
  const m = machine("auto");
  const first = at(m, 10_000);
  m.send({ type: "limit", limit: limit(first) });
  m.runTo(first + marginFor(first));
  m.send({ type: "typed-continue" });
  m.send({ type: "cleared" });
  m.runTo(m.now + 5000);
  // Back, with a later reset (the first one was wrong).
  const second = at(m, 30 * 60_000);
  m.send({ type: "limit", limit: limit(second) });
  assert.equal(m.state.failures, 1);
  m.runTo(second + marginFor(second) - 1000);
  assert.equal(m.actions.length, 1);
  m.runTo(second + marginFor(second));
  assert.deepEqual(m.actions.map((a) => [a.type, a.at]), [
    ["resume", first + marginFor(first)],
    ["resume", second + marginFor(second)],
  ]);
});

Deno.test("resume: a limit back with its time already past backs off", () => {
  const m = machine("auto");
  const first = at(m, 10_000);
  m.send({ type: "limit", limit: limit(first) });
  m.runTo(first + marginFor(first));
  m.send({ type: "typed-continue" });
  // The agent prints the same reset again under another message: a new limit, time past.
  m.send({ type: "limit", limit: limit(first, { msg: "Usage limit reached" }) });
  assert.equal(m.state.failures, 1);
  assert.equal(m.state.dueAt, m.now + BACKOFF_MS);
});

Deno.test(`resume: after ${MAX_FAILURES} resumes that did not hold it stops and says so`, () => {
  const m = machine("auto");
  for (let i = 0; i < MAX_FAILURES; i++) {
    const reset = at(m, 60_000);
    m.send({ type: "limit", limit: limit(reset) });
    m.runTo(reset + marginFor(reset));
    if (m.state.phase !== "typing") break;
    m.send({ type: "typed-continue" });
    m.send({ type: "cleared" });
    m.runTo(m.now + 2000);
  }
  const reset = at(m, 60_000);
  const r = m.send({ type: "limit", limit: limit(reset) });
  assert.equal(m.state.phase, "stopped");
  assert.equal(m.actions.filter((a) => a.type === "resume").length, MAX_FAILURES);
  assert.deepEqual(r, { type: "notice", text: "still limited after 3 resumes: stopped" });
  assert.match(m.state.reason!, /^still limited after \d resumes: stopped$/);
});

Deno.test("resume: a new limit long after a resume held starts the count from zero", () => {
  const m = machine("auto");
  const first = at(m, 10_000);
  m.send({ type: "limit", limit: limit(first) });
  m.runTo(first + marginFor(first));
  m.send({ type: "typed-continue" });
  m.send({ type: "cleared" });
  m.now = m.now + 5 * 60 * 60_000;
  m.send({ type: "limit", limit: limit(at(m, 60_000)) });
  assert.equal(m.state.failures, 0);
});

Deno.test("resume: typed and the very limit still shown a minute later: stopped, not typed twice", () => {
  const m = machine("auto");
  const reset = at(m, 10_000);
  m.send({ type: "limit", limit: limit(reset) });
  m.runTo(reset + marginFor(reset));
  m.send({ type: "typed-continue" });
  const typed = m.now;
  m.runTo(typed + NO_EFFECT_MS);
  assert.deepEqual(m.actions.map((a) => a.type), ["resume", "notice"]);
  assert.equal(m.state.phase, "stopped");
  m.runTo(typed + 60 * 60_000);
  assert.equal(m.actions.length, 2);
});

Deno.test("resume: the state file keeps a pending resume; a typing one comes back waiting", () => {
  const m = machine("auto");
  const reset = at(m, 10_000);
  m.send({ type: "limit", limit: limit(reset) });
  const saved = JSON.parse(JSON.stringify(toJson(m.state)));
  assert.deepEqual(fromJson(saved), m.state);
  m.runTo(reset + marginFor(reset));
  assert.equal(m.state.phase, "typing");
  const back = fromJson(JSON.parse(JSON.stringify(toJson(m.state))))!;
  assert.equal(back.phase, "waiting");
  // Restored after the reset passed (the server was down): one resume, at the next tick.
  const r = step(back, { type: "tick" }, reset + 60 * 60_000, "auto");
  assert.deepEqual(r.action, { type: "resume", limitKey: `${reset}|You've hit your usage limit` });
  assert.equal(fromJson({ phase: "bogus" }), null);
  assert.equal(fromJson("x"), null);
});

Deno.test("config: agents.<id>.resume_after_limit and continue, default off and `continue`", async () => {
  const { parseConfig, DEFAULT_CONFIG } = await import("../config/config.ts");
  assert.equal(DEFAULT_CONFIG.agents.claude.resume_after_limit, "off");
  const { config, warnings } = parseConfig(
    "agents:\n  codex:\n    resume_after_limit: auto\n    continue: go on\n  claude:\n    resume_after_limit: ask\n",
    "config.yml",
  );
  assert.deepEqual(warnings, []);
  assert.deepEqual(config.agents["codex"], { resume_after_limit: "auto", continue: "go on" });
  assert.equal(config.agents.claude.resume_after_limit, "ask");
  assert.equal(config.agents.claude.continue, "continue");
  assert.throws(
    () => parseConfig("agents:\n  codex:\n    resume_after_limit: always\n", "config.yml"),
    /resume_after_limit/,
  );
});

Deno.test("resume: a reset on a whole minute (printed to the minute) waits a minute more", () => {
  const whole = Date.parse("2026-12-02T14:58:00Z");
  assert.equal(marginFor(whole), 75_000);
  assert.equal(marginFor(whole + 2000), 15_000);
  assert.equal(marginFor(null), 15_000);
  // Read 30 s after the printed minute: the true reset may be 29 s ahead still.
  const r = step(INITIAL, { type: "limit", limit: limit(whole) }, whole + 30_000, "auto");
  assert.equal(r.state.dueAt, whole + 75_000);
});
