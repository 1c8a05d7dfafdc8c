/**
 * Scripted users: each scenario plays one situation like a person at the
 * keyboard and labels the true state as it goes (driver = a key we pressed,
 * mock = the model started/finished, screen = the prompt/dialog appeared).
 * Waits are scaled by the driver's pace (tests run them 10x faster).
 */

import type { ScenarioName } from "./profile.ts";
import type { FailureMode } from "./mock/failures.ts";
import {
  blocked,
  busy,
  idle,
  type Player,
  type Scenario,
  settle,
  TOOL_PROMPT,
  toolTurn,
  untilPermission,
} from "./player.ts";
import { MORE_BODIES } from "./scenarios_more.ts";
import { LIMIT_BODIES } from "./scenarios_limit.ts";

export type { Player } from "./player.ts";

const FAIL_NOTES: Readonly<Record<FailureMode, string>> = {
  rate: "rate limited (HTTP 429 with Retry-After on every attempt)",
  "rate-long": "rate limited (HTTP 429, a message longer than a row, retry in 1 s)",
  overload: "overloaded (HTTP 529 / 503 on every attempt)",
  auth: "invalid API key (HTTP 401)",
  quota: "quota exceeded",
  cut: "the stream was cut mid-answer on every attempt",
  flaky: "a transient overload that recovers",
  limit:
    "a usage limit (resets 90 s after the turn's first request; Gemini: its 400 s retry delay)",
  "limit-week": "a weekly usage limit (Anthropic's seven_day claim; resets as a usage limit does)",
};

/**
 * The mock fails the turn (mock/failures.ts): the CLI retries (working),
 * then gives up and waits with an error on screen (`error`, where the
 * working indicator has gone, or where `failedRe` first matches). A flaky
 * turn recovers and ends `done`.
 */
async function fail(p: Player, mode: FailureMode): Promise<void> {
  await idle(p);
  await p.wait(3000);
  await p.prompt(`LAB-FAIL-${mode.toUpperCase()}: please create the marker file lab-file.txt`);
  if (mode === "flaky") {
    if (!await p.waitTurnEnd(180000)) p.note("the turn did not recover within 180 s");
    await settle(p, "turn ended after a transient failure; prompt waiting for input");
    await p.wait(4000);
    return;
  }
  const failed = p.agent.failedRe;
  const retry = p.agent.retryRe;
  if (retry) {
    // The retry screen is a working screen too: a point of its own.
    const seen = await p.waitState(
      (screen) => retry.test(screen) && !(failed?.test(screen) ?? false),
      60000,
      "retry screen",
    );
    if (seen) p.label("working", "retrying the failed request (on screen)", "screen", seen);
  }
  const at = await p.waitState(
    (screen, title) => failed ? failed.test(screen) : !busy(p, screen, title),
    p.agent.giveUpMs ?? 240000,
    "failed-turn screen",
  );
  if (at) {
    const how = failed ? "error on screen" : "working indicator gone";
    p.label("error", `the turn failed: ${FAIL_NOTES[mode]}; ${how}`, "screen", at);
  } else {
    // Still retrying: the user gives up and interrupts the turn.
    for (const k of p.agent.interruptKeys) {
      p.key(k, "Esc (give up on a turn that keeps retrying)");
      await p.wait(700);
    }
    await p.labelOnScreen(
      "idle",
      "user interrupted a turn that was still retrying (working until then)",
      (s, title) => !busy(p, s, title) && !(failed?.test(s) ?? false),
    );
  }
  await p.wait(6000);
}

export const SCENARIO_BODIES: Readonly<Record<ScenarioName, Scenario>> = {
  async startup(p) {
    await idle(p);
    p.procs("idle");
    await p.wait(4000);
  },

  tool: (p) => toolTurn(p, TOOL_PROMPT),

  async question(p) {
    await idle(p);
    await p.wait(3000);
    await p.prompt("LAB-QUESTION: why does the parser test fail?");
    await p.waitTurnEnd(60000);
    await settle(
      p,
      'turn ended with a PROSE question ("Would you like me to add a regression test?") - ' +
        "not a blocking prompt",
    );
    await p.wait(p.agent.idleWaitMs);
  },

  async interrupt(p) {
    await idle(p);
    await p.wait(3000);
    await p.prompt("LAB-LONG: think about this for a while");
    await p.wait(7000);
    p.procs("working");
    const keys = p.agent.interruptKeys;
    for (const [i, k] of keys.entries()) {
      p.key(k, `Esc ${i + 1}/${keys.length} (interrupt the turn)`);
      if (i + 1 < keys.length) await p.wait(700);
    }
    await p.labelOnScreen(
      "idle",
      `user pressed Esc${keys.length > 1 ? " twice" : ""} mid-turn; turn interrupted ` +
        '(user-initiated, no "done")',
      (s, title) => !busy(p, s, title),
    );
    await p.wait(7000);
  },

  async deny(p) {
    if (!await untilPermission(p, TOOL_PROMPT)) return;
    await p.wait(4000);
    p.key("\x1b", "Esc (deny the permission prompt)");
    await p.labelOnScreen(
      "idle",
      "user denied with Esc; agent waits for new instructions",
      (s, title) => !p.agent.blockedRe.test(s) && !busy(p, s, title),
    );
    await p.wait(6000);
  },

  async ask(p) {
    await idle(p);
    await p.wait(3000);
    await p.prompt("LAB-ASK: add a regression test for the parser");
    const q = await p.waitScreen(p.agent.questionRe, 60000, "question UI");
    if (!q) {
      // e.g. Codex: request_user_input is "only available in Plan mode"; the turn just ends.
      if (p.turnsEnded() > 0) {
        p.note("no question UI; the turn ended on its own");
        await p.wait(2000);
        p.label(
          "idle",
          "turn ended without showing a question UI (tool rejected by the CLI)",
          "driver",
        );
      }
      await p.wait(4000);
      return;
    }
    p.label(
      "blocked",
      "question UI on screen (agent asks the user to pick an option)",
      "screen",
      q,
    );
    await p.wait(6000);
    p.procs("question");
    const before = p.turnsEnded();
    let answered: Promise<void> = Promise.resolve();
    for (let i = 0; i < 4; i++) {
      p.key("\r", `Enter ${i + 1} (pick the highlighted first option / submit)`);
      if (i === 0) {
        // Working from where the question leaves the screen (some UIs need a second Enter).
        answered = p.labelOnScreen(
          "working",
          "user answered the question (Enter on the first option)",
          (s) => !p.agent.questionRe.test(s),
        );
      }
      await p.wait(1500);
      if (!p.agent.questionRe.test(p.screenText()) || p.turnsEnded() > before) break;
    }
    await answered;
    if (p.turnsEnded() === before) await p.waitTurnEnd(30000);
    await settle(p, "turn ended after the question was answered");
    await p.wait(4000);
  },

  async trust(p) {
    await blocked(p, p.agent.trustRe, "trust dialog", "folder-trust dialog on screen (onboarding)");
    p.procs("trust");
    await p.wait(5000);
    for (const k of p.agent.trustKeys) {
      p.key(k, `accept trust dialog: key ${JSON.stringify(k)}`);
      await p.wait(600);
    }
    p.label("starting", "user accepted trust dialog", "driver");
    await idle(p);
    await p.wait(4000);
  },

  // Claude 2.1.33x first start: notice + "Try the new fullscreen renderer?" dialog.
  async firststart(p) {
    await blocked(
      p,
      /Try the new fullscreen renderer\?/,
      "fullscreen upsell dialog",
      'onboarding dialog "Try the new fullscreen renderer?" on screen',
    );
    await p.wait(5000);
    p.key("2", 'choose "2. Not now"');
    await p.wait(600);
    p.label("starting", "user dismissed the dialog", "driver");
    await idle(p);
    await p.wait(3000);
    await p.prompt(TOOL_PROMPT);
    await blocked(p, p.agent.blockedRe, "permission prompt", "permission prompt on screen");
    await p.waitTurnEnd(60000); // no permission prompt: auto mode ran the tool
    await p.wait(4000);
  },

  "fail-rate": (p) => fail(p, "rate"),
  "fail-overload": (p) => fail(p, "overload"),
  "fail-auth": (p) => fail(p, "auth"),
  "fail-quota": (p) => fail(p, "quota"),
  "fail-cut": (p) => fail(p, "cut"),
  "fail-flaky": (p) => fail(p, "flaky"),
  "fail-rate-long": (p) => fail(p, "rate-long"),
  "fail-limit": (p) => fail(p, "limit"),
  ...MORE_BODIES,
  ...LIMIT_BODIES,
};
