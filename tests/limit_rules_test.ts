/**
 * Usage limits on the built-in manifests (docs/limits.md): each CLI's limit
 * screen, as it prints it, is `error` with kind `limit`, its message and the
 * reset words; the reset is read into an instant on the detector's clock and
 * zone. Screens from the lines the CLIs print (Claude Code 2.1.332, Codex
 * 0.171.0, Gemini CLI 0.61.0, opencode 1.18.33).
 */

import assert from "node:assert/strict";
import { loadCatalogSync } from "../src/runtime/catalog.ts";
import { evaluate } from "../src/detect/rules.ts";
import { parseResetTime } from "../src/limits/reset_time.ts";
import { ResumeRunner } from "../src/limits/resume_runner.ts";
import type { ResumePolicy } from "../src/limits/resume.ts";
import type { AgentStatus } from "../src/model/agent.ts";
import { VirtualClock } from "../src/util/virtual_clock.ts";

const catalog = loadCatalogSync({ userDir: null });

function view(text: string, title = "") {
  const lines = text.split("\n");
  return {
    cols: 120,
    rows: lines.length,
    title,
    line: (y: number) => lines[y] ?? "",
    styles: () => [],
  };
}

function read(agent: string, screen: string, title = "") {
  const r = evaluate(catalog.get(agent)!, view(screen, title));
  return { state: r.state, kind: r.kind, rule: r.ruleId, msg: r.msg, resets: r.resets ?? null };
}

const RULE = "─".repeat(118);

const CLAUDE_5H = `> write the file

  ⎿  You've hit your 5-hour limit · resets 1am (America/Los_Angeles)

● Usage limit reached · set to continue automatically at 1am

${RULE}
❯\u00a0
${RULE}
  ⚠ Usage limit reached · limit resets 1am`;

Deno.test("Claude: the 5-hour limit is error/limit with its zone", () => {
  assert.deepEqual(read("claude", CLAUDE_5H), {
    state: "error",
    kind: "limit",
    rule: "usage-limit",
    msg: "You've hit your 5-hour limit",
    resets: "1am (America/Los_Angeles)",
  });
});

Deno.test("Claude: weekly with its menu, out of credits", () => {
  const weekly = `  ⎿  You've hit your weekly limit · resets Dec 5, 10am (Europe/London)

  What do you want to do?
  ❯ 1. Stop and wait
    2. Wait here, then continue automatically
    3. Upgrade your plan

  Enter to confirm · Esc to cancel`;
  const r = read("claude", weekly);
  assert.equal(r.kind, "limit");
  assert.equal(r.resets, "Dec 5, 10am (Europe/London)");
  assert.equal(
    new Date(parseResetTime(r.resets!, Date.parse("2026-12-02T12:00:00Z"), null)!).toISOString(),
    "2026-12-05T10:00:00.000Z",
  );
  const credits = `  ⎿  You're out of usage credits · resets 2:34pm (Asia/Colombo)

${RULE}
❯\u00a0
${RULE}
  ? for shortcuts`;
  assert.deepEqual(read("claude", credits), {
    state: "error",
    kind: "limit",
    rule: "usage-limit-menu",
    msg: "You're out of usage credits",
    resets: "2:34pm (Asia/Colombo)",
  });
});

Deno.test("Claude: retrying on an API key, and continuing after the reset, are working", () => {
  const retrying = `✻ 5-hour limit reached · retrying in 11s (12:57am) · attempt 7/10

${RULE}
❯\u00a0
${RULE}
  esc to interrupt`;
  assert.equal(read("claude", retrying).state, "working");
  const continuing = `  ⎿  You've hit your 5-hour limit · resets 1am (America/Los_Angeles)
● Usage limit reset · Continuing automatically

✶ Pondering… (3s · ↓ 12 tokens)

${RULE}
❯\u00a0
${RULE}
  esc to interrupt`;
  assert.equal(read("claude", continuing).state, "working");
});

// claude-limit-auto-osc7501 (Claude Code 2.1.332 signed in as a subscriber): the footer
// says when it continues by itself; a limit again draws its lines below the first.
const CLAUDE_WAITING = `❯ LAB-FAIL-LIMIT: please create the marker file lab-file.txt
  ⎿  You've hit your 5-hour limit · resets 8:43am (America/Los_Angeles)

● Usage limit reached · set to continue automatically at 8:43am

● Usage limit reset · Continuing automatically
  ⎿  You've hit your 5-hour limit · resets 8:46am (America/Los_Angeles)

${RULE}
❯\u00a0
${RULE}
  ⚠ Usage limit reached · limit resets 8:46am
    Continuing automatically at 8:46am · Esc to cancel
  ⏵⏵ auto mode on (shift+tab to cycle)`;

Deno.test("Claude: waiting to continue by itself, and limited again, is the last limit", () => {
  const again = read("claude", CLAUDE_WAITING);
  assert.deepEqual([again.state, again.kind, again.rule], ["error", "limit", "usage-limit"]);
  assert.equal(again.resets, "8:46am (America/Los_Angeles)");
  const first = CLAUDE_WAITING.replace(/\n\n● Usage limit reset[^\n]*\n[^\n]*/, "")
    .replaceAll("8:46am", "8:43am").replace(
      "Continuing automatically at 8:43am",
      "Continuing shortly",
    );
  assert.deepEqual([read("claude", first).state, read("claude", first).resets], [
    "error",
    "8:43am (America/Los_Angeles)",
  ]);
  // Gone on by itself and done: the limit lines above are history.
  const done = `  ⎿  You've hit your 5-hour limit · resets 8:51am (America/Los_Angeles)
● Usage limit reached · set to continue automatically at 8:51am
● Usage limit reset · Continuing automatically
● Hello from the mock model.
✻ Brewed for 1s · done 8:53 AM
${RULE}
❯\u00a0
${RULE}
  ⏸ manual mode on · ? for shortcuts`;
  assert.equal(read("claude", done).state, "done");
});

// Claude Code 2.1.332 as a subscriber at the mock's weekly claim (seven_day), TZ Europe/London:
// the same lines with "weekly" and no menu; Esc cancels its automatic continue.
const CLAUDE_WEEK = `❯ LAB-FAIL-LIMIT-WEEK: please create the marker file lab-file.txt
  ⎿  You've hit your weekly limit · resets 5:32pm (Europe/London)

● Usage limit reached · set to continue automatically at 5:32pm

${RULE}
❯\u00a0
${RULE}
  ⚠ Usage limit reached · limit resets 5:32pm
    Continuing automatically at 5:32pm · Esc to cancel
  ⏸ manual mode on · ? for shortcuts · ← for agents`;

// After Esc: Claude Code 2.1.332 (the mock's LAB-FAIL-LIMIT-WEEK), as it drew it.
const CLAUDE_WEEK_CANCELLED = `❯ LAB-FAIL-LIMIT-WEEK: please create the marker file lab-file.txt
  ⎿  You've hit your weekly limit · resets 5:32pm (Europe/London)
     /login to switch to an API usage-billed account.

● Usage limit reached · set to continue automatically at 5:32pm

● Automatic continue cancelled · /rate-limit-options to wait again

${RULE}
❯\u00a0
${RULE}
  ⏸ manual mode on · ? for shortcuts                                                      automatic continue cancelled`;

Deno.test("Claude: the weekly limit, and after its automatic continue was cancelled", () => {
  const r = read("claude", CLAUDE_WEEK);
  assert.deepEqual([r.state, r.kind, r.rule, r.msg, r.resets], [
    "error",
    "limit",
    "usage-limit",
    "You've hit your weekly limit",
    "5:32pm (Europe/London)",
  ]);
  const c = read("claude", CLAUDE_WEEK_CANCELLED);
  assert.deepEqual([c.state, c.kind, c.rule, c.resets], [
    "error",
    "limit",
    "usage-limit-menu",
    "5:32pm (Europe/London)",
  ]);
});

Deno.test("Claude: with automatic continue off, its menu beside the weekly limit; Esc closes it", () => {
  // Claude Code 2.1.332, `autoContinueAtUsageLimit: false` in ~/.claude/settings.json.
  const limitLine = "  ⎿  You've hit your weekly limit · resets 9:35am (America/Los_Angeles)";
  const menu = `❯ LAB-FAIL-LIMIT-WEEK: please create the marker file lab-file.txt
${limitLine}

❯ /rate-limit-options
${RULE}
  What do you want to do?

  ❯ 1. Stop and wait for limit to reset
    2. Wait here, then continue automatically at 9:35am

  Enter to confirm · Esc to cancel`;
  const r = read("claude", menu);
  assert.deepEqual([r.state, r.kind, r.resets], ["error", "limit", "9:35am (America/Los_Angeles)"]);
  const limit = catalog.get("claude")!.limit!;
  assert.ok(limit.dialog.some((re) => re.test(menu)), "the menu is the limit's dialog");
  assert.ok(!limit.continues.some((re) => re.test(menu)), "Stop is selected: it will not go on");
  assert.deepEqual(limit.dismiss, ["esc"]);
  const closed = `❯ LAB-FAIL-LIMIT-WEEK: please create the marker file lab-file.txt
${limitLine}
${RULE}
❯\u00a0
${RULE}
  ⏵⏵ auto mode on (shift+tab to cycle)`;
  const c = read("claude", closed);
  assert.deepEqual([c.state, c.kind, c.resets], ["error", "limit", "9:35am (America/Los_Angeles)"]);
  assert.ok(!limit.dialog.some((re) => re.test(closed)));
});

Deno.test("Codex: the usage limit, wrapped, with its local time", () => {
  const codex = `› write the file

■ You've hit your usage limit. Upgrade to Pro (https://chatgpt.com/explore/pro), visit
https://chatgpt.com/codex/settings/usage to purchase more credits or try again at 10:05
AM.

› Ask Codex to do anything

  ? for shortcuts`;
  const r = read("codex", codex);
  assert.equal(r.state, "error");
  assert.equal(r.kind, "limit");
  assert.equal(r.rule, "turn-failed");
  assert.equal(r.resets, "10:05 AM");
  // Other failures keep their kinds, with no reset.
  const quota = `■ Quota exceeded. Check your plan and billing details.

› Ask Codex to do anything

  ? for shortcuts`;
  assert.deepEqual([read("codex", quota).kind, read("codex", quota).resets], ["quota", null]);
});

Deno.test("Gemini: the limit dialog, with its offset", () => {
  const gemini = `╭──────────────────────────────────────────────────────────────╮
│ Usage limit reached for gemini-2.5-pro.                      │
│ Access resets at 2:42 PM GMT+5:30.                           │
│                                                              │
│ ● 1. Keep trying                                             │
│   2. Stop                                                    │
╰──────────────────────────────────────────────────────────────╯`;
  assert.deepEqual(read("gemini", gemini, "✋  Action Required (lab)"), {
    state: "error",
    kind: "limit",
    rule: "usage-limit",
    msg: "Usage limit reached for gemini-2.5-pro",
    resets: "2:42 PM GMT+5:30",
  });
});

Deno.test("opencode: its retry countdown on a 429 is working", () => {
  const opencode = `  ⬝⬝⬝⬝■■■■ Rate limit reached for requests [retrying in 3m 4s attempt #1]
  esc interrupt`;
  assert.equal(read("opencode", opencode).state, "working");
});

/**
 * The resume runner on Claude's manifest and these screens, on a virtual clock: while Claude
 * will continue by itself it is only watched; once Esc cancelled that (Claude then declares
 * `idle` over OSC 7501, the arbiter keeps the screen's limit: src/detect/arbiter_limit_test.ts),
 * the resume policy applies as for any agent: `auto` types the continue text once after the
 * reset, `ask` asks, `off` types nothing.
 */
function claudeResume(policy: ResumePolicy) {
  const T0 = Date.parse("2026-12-02T16:00:00Z");
  const reset = Date.parse("2026-12-02T17:32:00Z"); // 5:32pm Europe/London
  const clock = new VirtualClock(T0);
  let screen = CLAUDE_WEEK;
  const statusOf = (text: string): AgentStatus => {
    const r = evaluate(catalog.get("claude")!, view(text));
    return {
      state: r.state!,
      kind: r.kind,
      source: "screen",
      ruleId: r.ruleId ?? "",
      seq: 1,
      since: clock.now(),
      msg: r.msg,
      resetsAt: r.resets ? parseResetTime(r.resets, T0, null) : null,
    };
  };
  const log: string[] = [];
  const runner = new ResumeRunner({
    now: clock.now,
    after: (ms, fn) => {
      const id = clock.setTimeout(fn, ms);
      return { [Symbol.dispose]: () => clock.clearTimeout(id) };
    },
    settings: () => ({ policy, text: "continue" }),
    limitSpec: () => catalog.get("claude")!.limit ?? null,
    screenText: () => screen,
    classifyNow: () => statusOf(screen),
    inputBox: () => "",
    write: (_id, data) => (log.push(`write ${JSON.stringify(data)}`), true),
    typeLine: (
      _id,
      text,
    ) => (log.push(`type ${text} @${(clock.now() - reset) / 1000}s`), Promise.resolve(true)),
    notice: (_id, text) => log.push(`notice ${text}`),
  });
  const who = { agent: "claude", name: "cl" };
  return {
    runner,
    log,
    reset,
    show(text: string) {
      screen = text;
      runner.status("s1", who, statusOf(text));
    },
    async advance(to: number) {
      while (clock.now() < to) {
        clock.advanceTo(Math.min(to, clock.now() + 1000));
        for (let i = 0; i < 5; i++) await Promise.resolve();
      }
    },
  };
}

Deno.test("Claude: after Esc cancelled its automatic continue, the resume policy applies", async () => {
  const t = claudeResume("auto");
  t.show(CLAUDE_WEEK);
  assert.equal(t.runner.state("s1")?.phase, "watching");
  t.show(CLAUDE_WEEK_CANCELLED);
  assert.equal(t.runner.state("s1")?.phase, "waiting");
  await t.advance(t.reset + 60_000);
  assert.deepEqual(t.log, []);
  await t.advance(t.reset + 100_000);
  // The reset printed to the minute: its margin is 75 s.
  assert.deepEqual(t.log, ["type continue @75s", 'notice cl: limit reset, typed "continue"']);
  t.runner[Symbol.dispose]();
});

Deno.test("Claude: after Esc cancelled its automatic continue, `ask` asks and `off` types nothing", async () => {
  const ask = claudeResume("ask");
  ask.show(CLAUDE_WEEK);
  ask.show(CLAUDE_WEEK_CANCELLED);
  await ask.advance(ask.reset + 10 * 60_000);
  assert.deepEqual(ask.log, ["notice cl: limit reset · resume: lazyshell ctl limit s1 --resume"]);
  ask.runner[Symbol.dispose]();
  const off = claudeResume("off");
  off.show(CLAUDE_WEEK);
  off.show(CLAUDE_WEEK_CANCELLED);
  await off.advance(off.reset + 10 * 60_000);
  assert.deepEqual(off.log, []);
  assert.equal(off.runner.state("s1")?.phase, "waiting");
  off.runner[Symbol.dispose]();
});
