/**
 * Usage-limit scenarios (docs/limits.md) beside the plain `fail-limit`: the
 * mock limits the turn (`LAB-FAIL-LIMIT`, mock/failures.ts) until its reset
 * a few seconds ahead, then answers it.
 *
 * - `limit-auto`: the CLI, signed in as a subscriber, shows the limit and
 *   continues by itself after the reset (Claude Code: "set to continue
 *   automatically"). Nothing is typed: `error` (kind limit) where the limit
 *   is on screen, then the mock's stream of the turn sent again is `working`
 *   and its end `done`.
 * - `limit-week`: the same on Anthropic's weekly claim (`LAB-FAIL-LIMIT-WEEK`); then Esc
 *   cancels the CLI's automatic continue (Claude Code), and it stays at the limit: `error`.
 * - `limit-retry`: the CLI retries the limited request by itself on its own countdown
 *   (opencode): `working` throughout, until a retry after the reset is answered (`done`) or
 *   it gives up (`error`, where the profile's `failedRe` matches).
 * - `limit-dialog`: the limit comes with a dialog beside it (Gemini CLI's
 *   "Keep trying / Stop"): `error` (kind limit) where it is on screen; the
 *   user then picks the profile's `limitStopKeys` (Stop): the turn failed,
 *   the API's error is on screen over the prompt: `error`.
 */

import type { ScenarioName } from "./profile.ts";
import { busy, idle, type Player, type Scenario, settle } from "./player.ts";

const LIMIT_GAVE_UP = "the CLI stopped retrying before the usage limit reset";

export const LIMIT_PROMPT = "LAB-FAIL-LIMIT: please create the marker file lab-file.txt";
const WEEK_PROMPT = "LAB-FAIL-LIMIT-WEEK: please create the marker file lab-file.txt";

/** The limit on screen, labelled `error` there; false when it never came. */
async function limited(p: Player, what: string, prompt = LIMIT_PROMPT): Promise<boolean> {
  await idle(p);
  await p.wait(3000);
  await p.prompt(prompt);
  const re = p.agent.limitRe;
  if (!re) throw new Error(`${p.agent.id} has no limitRe: no usage-limit screen to wait for`);
  const at = await p.waitState((s) => re.test(s), 120000, "usage-limit screen");
  if (!at) {
    p.note("no usage-limit screen within 120 s");
    return false;
  }
  p.label(
    "error",
    `usage limit on screen (the mock's reset: its failed event, mock/failures.ts); ${what}`,
    "screen",
    at,
  );
  return true;
}

export const LIMIT_BODIES = {
  async "limit-retry"(p) {
    await idle(p);
    await p.wait(3000);
    await p.prompt(LIMIT_PROMPT);
    // The CLI retries on its own countdown (opencode: "[retrying in 3m 4s attempt #1]"): a
    // working screen, until a retry after the reset is answered (done) or it gives up (error).
    const retry = p.agent.retryRe;
    const seen = retry ? await p.waitState((s) => retry.test(s), 60000, "retry screen") : null;
    if (seen) {
      p.label("working", "retrying the limited request on its own countdown", "screen", seen);
    }
    const failed = p.agent.failedRe;
    const gaveUp = failed
      ? p.waitState((s) => failed.test(s), 300000, "failed-turn screen")
      : Promise.resolve(null);
    const outcome = await Promise.race([
      p.waitTurnEnd(300000).then((ended) => ended ? "done" as const : null),
      gaveUp.then((at) => at ? { at } : null),
    ]);
    if (outcome === "done") {
      await settle(p, "turn ended: a retry after the limit's reset was answered");
    } else if (outcome) {
      p.label("error", `the turn failed: ${LIMIT_GAVE_UP}; error on screen`, "screen", outcome.at);
    } else p.note("the turn neither recovered nor failed within 300 s");
    await p.wait(6000);
  },

  async "limit-auto"(p) {
    if (!await limited(p, "the CLI says it continues by itself: nothing is typed")) return;
    // Claude Code sends the turn again about 90 s after the reset (it checks every 30 s).
    await p.labelOnScreen(
      "working",
      "the CLI continues by itself after the reset (its working indicator); nothing was typed",
      (s, title) => busy(p, s, title),
      300000,
    );
    if (!await p.waitTurnEnd(120000)) {
      p.note("the turn the CLI sent again by itself did not end within 120 s");
      return;
    }
    await settle(
      p,
      "turn ended: it continued by itself after the reset; prompt waiting for input",
    );
    await p.wait(4000);
  },

  // Claude Code's weekly limit (the mock's seven_day claim): the same lines with "weekly";
  // Esc cancels its automatic continue ("● Automatic continue cancelled · /rate-limit-options to
  // wait again"): it stays at the limit, waiting for the user.
  async "limit-week"(p) {
    if (!await limited(p, "the weekly claim", WEEK_PROMPT)) return;
    await p.wait(6000);
    p.key("\x1b", "Esc (cancel the automatic continue)");
    await p.labelOnScreen(
      "error",
      "the user cancelled the automatic continue: still at the weekly limit, nothing will go on",
      (s) => /Automatic continue cancelled/.test(s),
      20000,
    );
    await p.wait(6000);
  },

  async "limit-dialog"(p) {
    if (!await limited(p, "a dialog beside it (keep trying / stop)")) return;
    await p.wait(6000);
    const keys = p.agent.limitStopKeys ?? [];
    for (const k of keys) {
      p.key(k, `answer the limit's dialog: ${JSON.stringify(k)} (stop)`);
      await p.wait(700);
    }
    const re = p.agent.limitDialogRe;
    await p.labelOnScreen(
      "error",
      "user stopped at the limit's dialog: the turn failed, the API's error over the prompt",
      (s) => p.agent.idleRe.test(s) && !(re?.test(s) ?? false),
      30000,
    );
    await p.wait(4000);
  },
} satisfies Partial<Record<ScenarioName, Scenario>>;
