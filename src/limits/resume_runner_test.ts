/**
 * The resume runner on a fake host and a virtual clock (src/util/virtual_clock.ts):
 * what it types, when, after which re-check, and the receipts.
 */

import assert from "node:assert/strict";
import type { AgentStatus } from "../model/agent.ts";
import { compileRegex } from "../detect/regex.ts";
import type { LimitSpec } from "../detect/manifest.ts";
import { VirtualClock } from "../util/virtual_clock.ts";
import { marginFor, type ResumePolicy } from "./resume.ts";

const MARGIN_MS = marginFor(Date.parse("2026-12-02T00:01:00Z"));
import { ResumeRunner } from "./resume_runner.ts";

const T0 = Date.parse("2026-12-02T00:00:00Z");
const RESET = T0 + 60_000;

const limited: AgentStatus = {
  state: "error",
  kind: "limit",
  source: "screen",
  ruleId: "turn-failed",
  seq: 2,
  since: T0,
  msg: "You've hit your usage limit",
  resetsAt: RESET,
};
const working: AgentStatus = { ...limited, state: "working", kind: null, resetsAt: null, seq: 3 };

function setup(
  options: {
    policy?: ResumePolicy | null;
    spec?: LimitSpec | null;
    screen?: string;
    group?: string;
  } = {},
) {
  const clock = new VirtualClock(T0);
  let status: AgentStatus | null = limited;
  let screen = options.screen ?? "■ You've hit your usage limit. … try again at 10:05 AM.";
  let box: string | null = "";
  const log: string[] = [];
  const host = {
    now: clock.now,
    after: (ms: number, fn: () => void) => {
      const id = clock.setTimeout(fn, ms);
      return { [Symbol.dispose]: () => clock.clearTimeout(id) };
    },
    settings: () => ({
      policy: options.policy === undefined ? "auto" as const : options.policy,
      text: "continue",
    }),
    group: () => options.group ?? null,
    limitSpec: () => options.spec ?? null,
    screenText: () => screen,
    classifyNow: () => status,
    inputBox: () => box,
    write: (_id: string, data: string) => {
      log.push(`write ${JSON.stringify(data)} @${clock.now() - T0}`);
      if (data === "\x1b") screen = screen.replace(/\n.*Switch to.*$/s, "");
      return true;
    },
    typeLine: (_id: string, text: string) => {
      log.push(`type ${JSON.stringify(text)} @${clock.now() - T0}`);
      return Promise.resolve(true);
    },
    notice: (_id: string, text: string) => log.push(`notice ${text}`),
    dismissed: (id: string) => log.push(`dismissed ${id} @${clock.now() - T0}`),
    restoredLimit: (id: string, l: { resetsAt: number | null; msg: string | null }) =>
      log.push(`restoredLimit ${id} ${l.resetsAt === null ? "?" : l.resetsAt - T0} ${l.msg}`),
  };
  const runner = new ResumeRunner(host);
  const view = { agent: "codex", name: "cx1" };
  return {
    clock,
    runner,
    log,
    view,
    set status(s: AgentStatus | null) {
      status = s;
      runner.status("s1", view, s);
    },
    /** What classifyNow answers, without the change stream hearing it. */
    set fresh(s: AgentStatus | null) {
      status = s;
    },
    set box(b: string | null) {
      box = b;
    },
    set screen(s: string) {
      screen = s;
    },
  };
}

/** Lets the runner's promise chain run between virtual timers. */
async function advance(clock: VirtualClock, to: number) {
  while (clock.now() < to) {
    clock.advanceTo(Math.min(to, clock.now() + 1000));
    for (let i = 0; i < 5; i++) await Promise.resolve();
  }
}

Deno.test("runner: auto types the continue text once, at the reset plus the margin, with a receipt", async () => {
  const t = setup();
  t.status = limited;
  await advance(t.clock, RESET + MARGIN_MS - 1000);
  assert.equal(t.log.length, 0);
  await advance(t.clock, RESET + MARGIN_MS + 5000);
  assert.deepEqual(t.log, [
    `type "continue" @${RESET + MARGIN_MS - T0}`,
    'notice cx1: limit reset, typed "continue"',
  ]);
  t.status = working;
  await advance(t.clock, RESET + 3_600_000);
  assert.equal(t.log.length, 2);
});

Deno.test("runner: the re-check finds another limit (the screen moved on): nothing typed", async () => {
  const t = setup();
  t.status = limited;
  // What a fresh classification reads at the reset, before the change stream said so.
  t.fresh = { ...limited, resetsAt: RESET + 3_600_000, seq: 9 };
  await advance(t.clock, RESET + MARGIN_MS + 5000);
  assert.deepEqual(t.log, ["notice cx1: limit reset, nothing typed: another limit is shown"]);
  t.fresh = working;
  await advance(t.clock, RESET + 3_600_000);
  assert.equal(t.log.length, 1);
});

Deno.test("runner: a text in the input box: nothing typed, stopped, receipt says why", async () => {
  const t = setup();
  t.status = limited;
  t.box = "half a prompt";
  await advance(t.clock, RESET + MARGIN_MS + 5000);
  assert.deepEqual(t.log, ["notice cx1: limit reset, nothing typed: the input box holds text"]);
  assert.equal(t.runner.state("s1")?.phase, "stopped");
});

Deno.test("runner: a placeholder in the box since the limit came is no text: it types", async () => {
  const t = setup();
  t.box = "Ask Codex to do anything";
  t.status = limited;
  await advance(t.clock, RESET + MARGIN_MS + 5000);
  assert.deepEqual(t.log, [
    `type "continue" @${RESET + MARGIN_MS - T0}`,
    'notice cx1: limit reset, typed "continue"',
  ]);
});

Deno.test("runner: the user types near the reset: it waits for quiet", async () => {
  const t = setup();
  t.status = limited;
  await advance(t.clock, RESET + MARGIN_MS - 2000);
  t.runner.typed("s1");
  await advance(t.clock, RESET + MARGIN_MS + 5000);
  assert.equal(t.log.length, 0);
  await advance(t.clock, RESET + MARGIN_MS + 20_000);
  assert.equal(t.log.filter((l) => l.startsWith("type")).length, 1);
});

Deno.test("runner: a dialog beside the limit is closed with its keys first, then the text", async () => {
  const spec: LimitSpec = {
    continues: [],
    dialog: [compileRegex("Switch to", true)],
    dismiss: ["esc"],
  };
  const t = setup({
    spec,
    screen: "■ You've hit your usage limit. … try again at 10:05 AM.\n  Switch to gpt-mini?",
  });
  t.status = limited;
  await advance(t.clock, RESET + MARGIN_MS + 5000);
  assert.deepEqual(t.log, [
    `write "\\u001b" @${RESET + MARGIN_MS - T0}`,
    // The notifier hears it: the failure the dialog's answer leaves is this limit's episode.
    `dismissed s1 @${RESET + MARGIN_MS - T0}`,
    `type "continue" @${RESET + MARGIN_MS + 1000 - T0}`,
    'notice cx1: limit reset, typed "continue"',
  ]);
});

Deno.test("runner: an agent that continues by itself is only watched", async () => {
  const spec: LimitSpec = {
    continues: [compileRegex("set to continue automatically", true)],
    dialog: [],
    dismiss: [],
  };
  const t = setup({ spec, screen: "● Usage limit reached · set to continue automatically at 1am" });
  t.status = limited;
  await advance(t.clock, RESET + 3_600_000);
  assert.equal(t.log.length, 0);
  assert.equal(t.runner.state("s1")?.phase, "watching");
});

Deno.test("runner: pending resumes survive a restart (state file JSON), resumed once", async () => {
  const t = setup();
  t.status = limited;
  const saved = { s1: JSON.parse(JSON.stringify(t.runner.saved("s1"))) };
  t.runner[Symbol.dispose]();
  const u = setup();
  // The server was down past the reset: restored, then one resume under the re-check.
  await advance(u.clock, RESET + 10 * 60_000);
  assert.equal(u.runner.restore("s1", u.view, saved["s1"]), true);
  // The notifier hears the limit it carries: shown again, it is the same episode.
  assert.deepEqual(u.log, [`restoredLimit s1 ${RESET - T0} You've hit your usage limit`]);
  await advance(u.clock, RESET + 11 * 60_000);
  assert.equal(u.log.filter((l) => l.startsWith("type")).length, 1);
  await advance(u.clock, RESET + 60 * 60_000);
  assert.equal(u.log.filter((l) => l.startsWith("type")).length, 1);
});

Deno.test("runner: restored after a restart, the agent back at its prompt is the re-check", async () => {
  const t = setup();
  t.status = limited;
  const saved = t.runner.saved("s1");
  assert.notEqual(saved, null);
  t.runner[Symbol.dispose]();
  const u = setup();
  u.box = "Ask Codex to do anything"; // the restarted agent's placeholder
  u.fresh = { ...working, state: "working" }; // still starting
  await advance(u.clock, RESET + 10 * 60_000);
  assert.equal(u.runner.restore("s2", { agent: "codex", name: "cx1" }, saved), true);
  // Its status goes through working and idle: not a "cleared" that would drop the resume.
  u.runner.status("s2", { agent: "codex", name: "cx1" }, working);
  await advance(u.clock, RESET + 10 * 60_000 + 12_000);
  assert.equal(u.log.filter((l) => l.startsWith("type")).length, 0);
  assert.equal(u.runner.state("s2")?.phase, "waiting");
  u.fresh = { ...working, state: "idle" };
  await advance(u.clock, RESET + 10 * 60_000 + 20_000);
  assert.equal(u.log.filter((l) => l.startsWith("type")).length, 1);
  u.runner.status("s2", { agent: "codex", name: "cx1" }, { ...working, state: "idle" });
  await advance(u.clock, RESET + 60 * 60_000);
  assert.equal(u.log.filter((l) => l.startsWith("type")).length, 1);
});

Deno.test("runner: policy precedence session > group > agent > off", () => {
  const t = setup({ policy: "ask", group: "dev" });
  t.status = limited;
  assert.deepEqual(t.runner.policy("s1"), { policy: "ask", from: "agent" });
  t.runner.setGroupPolicy("dev", "auto");
  assert.deepEqual(t.runner.policy("s1"), { policy: "auto", from: "group" });
  t.runner.setSessionPolicy("s1", "off");
  assert.deepEqual(t.runner.policy("s1"), { policy: "off", from: "session" });
  t.runner.setGroupPolicy("other", "auto"); // another group: no effect
  t.runner.setSessionPolicy("s1", null);
  assert.deepEqual(t.runner.policy("s1"), { policy: "auto", from: "group" });
  t.runner.setGroupPolicy("dev", null);
  assert.deepEqual(setup({ policy: null }).runner.policy("s1"), { policy: "off", from: "default" });
});

Deno.test("runner: a session's policy off holds over its agent's auto; set to auto past the reset, it resumes once, at once", async () => {
  const t = setup({ policy: "auto", group: "dev" });
  t.runner.setSessionPolicy("s1", "off");
  t.status = limited;
  await advance(t.clock, RESET + MARGIN_MS + 60_000);
  assert.equal(t.log.length, 0);
  t.runner.setGroupPolicy("dev", "auto"); // the session's own still wins
  await advance(t.clock, RESET + MARGIN_MS + 70_000);
  assert.equal(t.log.length, 0);
  const at = t.clock.now();
  t.runner.setSessionPolicy("s1", "auto");
  await advance(t.clock, at + 1000);
  assert.deepEqual(t.log.filter((l) => l.startsWith("type")), [`type "continue" @${at - T0}`]);
  t.runner.setSessionPolicy("s1", "ask");
  t.runner.setSessionPolicy("s1", "auto");
  await advance(t.clock, RESET + 3_600_000);
  assert.equal(t.log.filter((l) => l.startsWith("type")).length, 1);
});

Deno.test("runner: a group's ask, set before the reset, asks at the reset: not typed", async () => {
  const t = setup({ policy: "auto", group: "dev" });
  t.status = limited;
  t.runner.setGroupPolicy("dev", "ask");
  await advance(t.clock, RESET + MARGIN_MS + 5000);
  assert.deepEqual(t.log, ["notice cx1: limit reset · resume: lazyshell ctl limit s1 --resume"]);
});

Deno.test("runner: an agent's policy changed by a reload past the reset acts once reconsidered", async () => {
  let policy: ResumePolicy = "off";
  const t = setup();
  const host = { policy: () => policy };
  // The setup's host answers "auto"; this one follows `policy`.
  const runner = new ResumeRunner({
    now: t.clock.now,
    after: (ms: number, fn: () => void) => {
      const id = t.clock.setTimeout(fn, ms);
      return { [Symbol.dispose]: () => t.clock.clearTimeout(id) };
    },
    settings: () => ({ policy: host.policy(), text: "continue" }),
    limitSpec: () => null,
    screenText: () => "limit",
    classifyNow: () => limited,
    inputBox: () => "",
    write: () => true,
    typeLine: (_id: string, text: string) => {
      t.log.push(`type ${text}`);
      return Promise.resolve(true);
    },
    notice: () => {},
  });
  runner.status("s1", t.view, limited);
  await advance(t.clock, RESET + MARGIN_MS + 60_000);
  assert.deepEqual(t.log, []);
  policy = "auto";
  runner.reconsider();
  await advance(t.clock, RESET + MARGIN_MS + 61_000);
  assert.deepEqual(t.log, ["type continue"]);
});

Deno.test("runner: summary counts resumes typed and resumes that typed nothing", async () => {
  const t = setup();
  assert.equal(t.runner.summary("s1"), null);
  t.status = limited;
  assert.deepEqual(t.runner.summary("s1"), {
    phase: "waiting",
    reason: null,
    policy: "auto",
    policyFrom: "agent",
    resumed: 0,
    failed: 0,
  });
  await advance(t.clock, RESET + MARGIN_MS + 5000);
  assert.equal(t.runner.summary("s1")?.resumed, 1);
  t.status = working;
  // A limit back within HOLD_MS would be a resume that did not hold (a failure too).
  await advance(t.clock, RESET + MARGIN_MS + 11 * 60_000);
  // Another limit later; at its reset the screen moved on: nothing typed, one failed.
  const next = { ...limited, resetsAt: RESET + 3_600_000, seq: 5 };
  t.status = next;
  t.fresh = working;
  await advance(t.clock, RESET + 3_600_000 + MARGIN_MS + 5000);
  assert.deepEqual(
    [
      t.runner.summary("s1")?.phase,
      t.runner.summary("s1")?.resumed,
      t.runner.summary("s1")?.failed,
    ],
    ["stopped", 1, 1],
  );
});
