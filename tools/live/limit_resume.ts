/**
 * `deno task live <agent> limit-resume` (tools/live/README.md, docs/limits.md): the agent
 * hits a usage limit with `resume_after_limit: auto`, and the run counts the mock's main
 * requests after the limit (want exactly 1) and prints what lazyshell showed while it
 * waited (`ctl list`: state, kind, resetsAt; `ctl limit`: the resume's phase).
 *
 * - An agent that types nothing itself (Codex, Gemini CLI) plays `fail-limit`: lazyshell must
 *   close a dialog beside the limit with its manifest's `limit.dismiss` keys (Gemini's "2.
 *   Stop"), then type the continue text once after the reset. Gemini's reset is 400 s ahead
 *   (its retry delay): allow `--hard-limit 900`.
 * - One that continues by itself at the reset (Claude Code signed in as a subscriber) plays
 *   `limit-auto`: lazyshell must type nothing (no `typed` receipt) and see it go on.
 */

import type { ScenarioName } from "../capture/profile.ts";
import type { Player, Scenario } from "../capture/player.ts";

/** The capture scenario a limit-resume run plays for an agent that lists `scenarios`. */
export function limitScenario(scenarios: readonly ScenarioName[] | undefined): ScenarioName {
  return scenarios?.includes("limit-auto") ? "limit-auto" : "fail-limit";
}

export interface LimitRun {
  readonly scenario: ScenarioName;
  readonly body: Scenario;
  /** Every mock event type of a main request, as it comes. */
  onMock(listener: (type: string) => void): void;
  waitMock(type: string, ms: number): Promise<boolean>;
  log(text: string): void;
  label(state: string, note: string, source: string): void;
  /** `ctl list`'s entry of the session (null when gone). */
  entry(): Promise<Record<string, unknown> | null>;
  /** `ctl limit TARGET`. */
  limit(): Promise<Record<string, unknown>>;
  /** `lazyshell ls`: the countdown as a user sees it. */
  ls(): Promise<string>;
  sleep(ms: number): Promise<void>;
  now(): number;
}

/** The scenario, wrapped: what lazyshell showed at the limit, then the requests after it. */
export function limitResumeBody(run: LimitRun): (p: Player) => Promise<void> {
  return async (p) => {
    let requests = 0;
    let atLimit: number | null = null;
    let limitedAt = 0;
    run.onMock((type) => type === "request" && requests++);
    const labelled: Player = {
      ...p,
      label(state, note, source, at) {
        if (state === "error" && atLimit === null) {
          atLimit = requests;
          limitedAt = run.now();
          void report(run, "at the limit");
        }
        p.label(state, note, source, at);
      },
    };
    await run.body(labelled);
    if (atLimit === null) {
      run.log("limit-resume: FAIL the limit never came on screen");
      return;
    }
    if (run.scenario === "fail-limit") {
      run.log(`limit-resume: waiting for lazyshell to resume (${atLimit} main requests so far)`);
      const resumed = requests > atLimit || await run.waitMock("request", 600_000);
      run.log(
        resumed
          ? `limit-resume: the mock got the next request ${
            run.now() - limitedAt
          } ms after the limit`
          : "limit-resume: FAIL no request after the limit",
      );
      if (resumed) run.label("working", "lazyshell typed continue after the reset", "driver");
    } else {
      run.log(
        requests > atLimit
          ? `limit-resume: the agent went on by itself; the mock's next request came within ${
            run.now() - limitedAt
          } ms of the limit`
          : "limit-resume: FAIL the agent did not go on by itself",
      );
    }
    await report(run, "after the resume");
    await run.sleep(30_000);
    run.log(`limit-resume: ${requests - atLimit} main request(s) after the limit (want 1)`);
  };
}

async function report(run: LimitRun, when: string): Promise<void> {
  // The list settles a little after the screen: look again 2 s later.
  await run.sleep(2000);
  try {
    const e = await run.entry();
    const l = await run.limit();
    run.log(
      `limit-resume ${when}: list state=${e?.state} kind=${e?.kind} resetsAt=${e?.resetsAt} ` +
        `status=${JSON.stringify(e?.status)}; ctl limit phase=${l.phase} reason=${l.reason}`,
    );
    run.log(`limit-resume ${when}: lazyshell ls: ${(await run.ls()).replaceAll("\n", " | ")}`);
  } catch (error) {
    run.log(`limit-resume ${when}: ${error}`);
  }
}
