/**
 * What a scenario may do (the Player the driver implements) and the steps
 * scenarios share: wait for the main prompt, label a prompt on screen, let a
 * turn settle.
 */

import type { At, LabelSource, TruthState } from "./recorder.ts";
import type { AgentProfile } from "./profile.ts";

/** What a scenario may do; implemented by the driver. */
export interface Player {
  readonly agent: AgentProfile;
  readonly focusOut: boolean;
  wait(ms: number): Promise<void>;
  /** The first output after which the screen matches `re`, or null after `ms`. */
  waitScreen(re: RegExp, ms: number, what: string): Promise<At | null>;
  /** The first output after which `test` holds for the screen and title, or null after `ms`. */
  waitState(
    test: (screen: string, title: string) => boolean,
    ms: number,
    what: string,
  ): Promise<At | null>;
  /** Whether the mock sends `type` (a main turn's event) within `ms`. */
  waitMock(
    type: "request" | "turn_end" | "tool_call_sent" | "stream_start",
    ms: number,
  ): Promise<boolean>;
  /** Whether a turn ends (mock finished and the CLI's working indicator gone) within `ms`. */
  waitTurnEnd(ms: number): Promise<boolean>;
  /** How many turns have ended so far. */
  turnsEnded(): number;
  prompt(text: string): Promise<void>;
  key(data: string, note: string): void;
  /** Resizes the terminal (PTY and emulator); input.jsonl records it as `src: "resize"`. */
  resize(cols: number, rows: number): void;
  /**
   * From now on the scenario labels where turns end: the mock's end of a
   * response is not `done` (a subagent's turn ends while the main one goes on).
   */
  ownTurnEnds(): void;
  /** Labels `state` at the first output after which `test` holds (else now, as a driver label). */
  labelOnScreen(
    state: TruthState,
    note: string,
    test: (screen: string, title: string) => boolean,
    ms?: number,
  ): Promise<void>;
  label(state: TruthState, note: string, source: LabelSource, at?: At): void;
  note(text: string): void;
  procs(tag: string): void;
  screenText(): string;
}

export type Scenario = (p: Player) => Promise<void>;

export const TOOL_PROMPT = "LAB-TOOL: please create the marker file lab-file.txt";

/** The CLI shows its working indicator (screen or title). */
export function busy(p: Player, screen: string, title: string): boolean {
  const re = p.agent.busyRe;
  return re !== undefined && (re.test(screen) || re.test(title));
}

/** opencode installs its provider from npm in each fresh HOME: over 2 min at load average 15–24. */
export async function idle(p: Player, ms = 300000): Promise<boolean> {
  const at = await p.waitScreen(p.agent.idleRe, ms, "main prompt");
  if (at) p.label("idle", "main prompt on screen", "screen", at);
  return at !== null;
}

export async function blocked(p: Player, re: RegExp, what: string, note: string): Promise<boolean> {
  const at = await p.waitScreen(re, 60000, what);
  if (at) p.label("blocked", note, "screen", at);
  return at !== null;
}

/**
 * The main prompt, then `prompt` submitted; true once the permission prompt
 * it asks for is on screen (labelled), false when it never came.
 */
export async function untilPermission(p: Player, prompt: string): Promise<boolean> {
  await idle(p);
  await p.wait(3000);
  await p.prompt(prompt);
  if (await blocked(p, p.agent.blockedRe, "permission prompt", "permission prompt on screen")) {
    return true;
  }
  await noPrompt(p);
  return false;
}

/** The prompt never came: press nothing, let the turn end if it will. */
export async function noPrompt(p: Player): Promise<void> {
  p.note("no permission prompt appeared: no key pressed");
  await p.waitTurnEnd(30000);
  await p.wait(3000);
}

export async function settle(p: Player, note: string): Promise<void> {
  await p.wait(2000);
  p.label("idle", note, "driver");
}

/**
 * Prompt → streamed text → a tool call that needs permission → approve →
 * final answer (the `tool` scenario and its variants). `whileBlocked` runs
 * once the permission prompt has been on screen for a while (a resize).
 */
export async function toolTurn(
  p: Player,
  prompt: string,
  whileBlocked?: (p: Player) => Promise<void>,
): Promise<void> {
  await idle(p);
  p.procs("idle");
  await p.wait(3000);
  if (p.focusOut) {
    p.key("\x1b[O", "focus-out report CSI O (user switched to another tab)");
    await p.wait(1000);
  }
  await p.prompt(prompt);
  await p.wait(1500);
  p.procs("working");
  if (!await blocked(p, p.agent.blockedRe, "permission prompt", "permission prompt on screen")) {
    return noPrompt(p);
  }
  await p.wait(whileBlocked ? 4000 : 8000);
  if (whileBlocked) await whileBlocked(p);
  p.procs("blocked");
  p.key(p.agent.approveKey, `approve permission prompt (${JSON.stringify(p.agent.approveKey)})`);
  await p.labelOnScreen(
    "working",
    "user approved the tool call",
    (s) => !p.agent.blockedRe.test(s),
  );
  await p.waitTurnEnd(60000);
  await settle(p, "turn ended; prompt waiting for input");
  await p.wait(4000);
}
