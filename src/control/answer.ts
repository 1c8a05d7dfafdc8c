/**
 * Answering a blocked agent's prompt safely (`ctl answer`, and later the
 * TUI's answer keys): right before typing, classify again and check that
 * the prompt read is still the one on screen; refuse (typing nothing) when
 * it changed, cannot be read, or does not mention what the caller expects.
 * After typing, wait for the session to leave that prompt — the receipt —
 * and say so when it did not within the bound. The keys count as the user
 * answering (typed input): a hook-reported prompt that leaves the screen
 * then reads `working` (or `idle` after Esc), and its notification is done.
 */

import { UserError } from "../errors.ts";
import type { AgentStateName } from "../model/agent.ts";
import { type Choice, type Prompt, samePrompt } from "../model/prompt.ts";
import type { SessionView } from "../model/session.ts";
import type { Session } from "../session/session.ts";
import { delay } from "../util/async.ts";
import { label } from "./entry.ts";

/** What answering reads (a ControlHost is one): the session's view and a fresh classification. */
export interface AnswerHost {
  view(id: string): Pick<SessionView, "agentStatus" | "prompt"> | undefined;
  classifyNow(id: string): void;
}

export type { Choice };

/** Pause between the keys of one answer (arrows, then Enter): each is its own read. */
export const KEY_GAP_MS = 150;
/** After the prompt left the screen, how long the state may take to follow (an OSC 7501 burst). */
const STATE_SETTLE_MS = 600;
/** How often the receipt looks at the session's state and prompt. */
const RECEIPT_POLL_MS = 50;

export interface Receipt {
  /** The session left the answered prompt within the bound. */
  readonly left: boolean;
  /** ms from the last key to leaving (or to giving up). */
  readonly ms: number;
  readonly state: AgentStateName | null;
  /** The prompt on screen afterwards (another one, or null). */
  readonly prompt: Prompt | null;
}

export interface Answered {
  readonly id: string;
  readonly name: string;
  readonly question: string;
  readonly subject: string | null;
  /** The option chosen (1-based), or null when the prompt was cancelled. */
  readonly option: number | null;
  readonly label: string;
  readonly keys: readonly string[];
  readonly receipt: Receipt;
}

export interface AnswerOptions {
  /**
   * The prompt the person or program was shown (the TUI's answer panel);
   * default: the hub's last reading, which is what `ctl list` showed.
   */
  readonly shown?: Prompt | null;
  /** Refuse unless the question or the subject contains this text. */
  readonly expect?: string | undefined;
  /** How long to wait for the session to leave the prompt. */
  readonly timeoutMs: number;
  readonly signal?: AbortSignal;
}

export async function answerPrompt(
  host: AnswerHost,
  session: Session,
  choice: Choice,
  options: AnswerOptions,
): Promise<Answered> {
  const who = label(session);
  if (session.status === "exited") throw new UserError(`${who} has exited: nothing typed`);
  // What the caller was shown: by default the hub's last reading, which `ctl list` showed.
  const shown = options.shown !== undefined ? options.shown : host.view(session.id)?.prompt ?? null;
  host.classifyNow(session.id);
  const fresh = host.view(session.id);
  const state = fresh?.agentStatus?.state ?? null;
  if (state !== "blocked") {
    throw new UserError(`${who} is ${state ?? "in no agent state"}, not blocked: nothing typed`);
  }
  const prompt = fresh?.prompt ?? null;
  if (prompt === null) {
    throw new UserError(`Cannot read what ${who} asks (no prompt reader fits): nothing typed`);
  }
  if (shown !== null && !samePrompt(shown, prompt)) {
    throw new UserError(
      `The prompt of ${who} changed since it was read (now: ${JSON.stringify(prompt.question)})` +
        ": nothing typed",
    );
  }
  const expect = options.expect;
  if (
    expect !== undefined && !prompt.question.includes(expect) &&
    !(prompt.subject ?? "").includes(expect)
  ) {
    throw new UserError(
      `The prompt of ${who} does not mention ${JSON.stringify(expect)} ` +
        `(asks ${JSON.stringify(prompt.question)}): nothing typed`,
    );
  }
  const { option, keys } = resolve(who, prompt, choice);
  const chosen = option === null ? "cancel" : prompt.options[option - 1]!.label;
  for (const [i, key] of keys.entries()) {
    if (i > 0) await delay(KEY_GAP_MS);
    if (!session.write(keyData(key, session.inputModes().applicationCursorKeys), true)) {
      // Exited, or not reading its input (session.ts): say how far the answer got.
      const typed = keys.slice(0, i);
      throw new UserError(
        `${who} took no input (exited, or not reading it): ` +
          (typed.length ? `typed ${typed.join(" ")} of ${keys.join(" ")}` : "nothing typed"),
      );
    }
  }
  const receipt = await leave(host, session, prompt, options);
  const result: Answered = {
    id: session.id,
    name: session.name,
    question: prompt.question,
    subject: prompt.subject,
    option,
    label: chosen,
    keys,
    receipt,
  };
  if (!receipt.left) {
    const seconds = Math.round(options.timeoutMs / 100) / 10;
    throw new UserError(
      `Typed ${keys.join(" ")} into ${who} (${chosen}), but it still shows the prompt after ` +
        `${seconds} s`,
    );
  }
  return result;
}

function resolve(
  who: string,
  prompt: Prompt,
  choice: Choice,
): { option: number | null; keys: readonly string[] } {
  const list = prompt.options.map((o, i) => `${i + 1}. ${o.label}`).join(", ");
  switch (choice.type) {
    case "option": {
      const o = prompt.options[choice.n - 1];
      if (choice.n < 1 || !o) {
        throw new UserError(
          `${who} offers ${prompt.options.length} options, not ${choice.n} (${list}): nothing typed`,
        );
      }
      return { option: choice.n, keys: o.keys };
    }
    case "approve":
      if (prompt.approve === null) {
        throw new UserError(
          `No option of ${who} approves (${list}): choose one with --option N; nothing typed`,
        );
      }
      return { option: prompt.approve, keys: prompt.options[prompt.approve - 1]!.keys };
    case "deny":
      if (prompt.deny !== null) {
        return { option: prompt.deny, keys: prompt.options[prompt.deny - 1]!.keys };
      }
      if (prompt.cancel !== null) return { option: null, keys: prompt.cancel };
      throw new UserError(
        `No option of ${who} denies and it offers no cancel (${list}): choose one with --option N; ` +
          "nothing typed",
      );
  }
}

/** Waits (bounded) until the session is no longer blocked on `prompt`. */
async function leave(
  host: AnswerHost,
  session: Session,
  prompt: Prompt,
  options: AnswerOptions,
): Promise<Receipt> {
  const start = Date.now();
  const deadline = start + options.timeoutMs;
  let leftAt: number | null = null;
  for (;;) {
    // Readings come from the hub's own classifications after output
    // settles; any other reading (another prompt, none) means it left.
    const view = host.view(session.id);
    const state = view?.agentStatus?.state ?? null;
    const now = view?.prompt ?? null;
    const exited = session.status === "exited";
    const gone = exited || state !== "blocked" || !samePrompt(now, prompt) ||
      now?.subject !== prompt.subject;
    if (gone) leftAt ??= Date.now();
    // The prompt left the screen: the state follows (a declared one after its burst
    // closes, docs/detection.md "Bursts"), so give it a moment before reporting.
    const settled = exited || state !== "blocked" ||
      (leftAt !== null && Date.now() - leftAt >= STATE_SETTLE_MS);
    if (settled || Date.now() >= deadline || options.signal?.aborted) {
      return { left: gone, ms: Date.now() - start, state, prompt: now };
    }
    await delay(RECEIPT_POLL_MS);
  }
}

/** The bytes of a key name (detect/prompt.ts KEY_NAMES, or one character). */
export function keyData(name: string, appCursor: boolean): string {
  const arrow = { Up: "A", Down: "B", Right: "C", Left: "D" }[name];
  if (arrow) return (appCursor ? "\x1bO" : "\x1b[") + arrow;
  switch (name) {
    case "Enter":
      return "\r";
    case "Esc":
      return "\x1b";
    case "Tab":
      return "\t";
    default:
      return name;
  }
}
