/**
 * The first prompt of a new agent session (`N`, `ctl new --agent ID
 * --prompt TEXT`): typed once the agent is ready for input, exactly once,
 * then confirmed by the turn it starts.
 *
 * Ready means the agent is in the foreground (identity, S4) and idle by
 * evidence: declared (OSC 7501), a hook, or one of its manifest's `idle`
 * rules on screen — never the fallback "no rule matched" idle, which an
 * empty screen during start-up also gives. A manifest with no `idle` rule
 * at all (identity only) cannot say so: then its screen must have been
 * quiet for QUIET_MS. Nothing here sleeps a fixed time: it follows the
 * runtime's change stream and the session's output.
 *
 * Then the prompt goes in as a paste (bracketed when the agent asked for
 * it, as a terminal pastes), Enter on its own, and the receipt is `ctl
 * send`'s (src/control/receipt.ts): the agent's state moves on, or its
 * input box empties; a text left in the box gets Enter again every
 * RETRY_ENTER_EVERY_MS (an agent still starting may ignore it).
 */

import type { SessionView } from "../model/session.ts";
import { changedId, type RuntimeChange } from "../model/runtime.ts";
import type { Session } from "../session/session.ts";
import { untilRead } from "../control/typing.ts";
import { type ReceiptHost, watchSend } from "../control/receipt.ts";
import type { Runtime } from "./runtime.ts";

/** Without an idle rule: the screen has been quiet this long. */
export const QUIET_MS = 1500;
/**
 * After typing: how long the agent may take to start its turn before we say
 * so. Long: an agent that looks ready may still be starting (Codex offline
 * ignored Enter for 60-90 s, tools/live), and Enter is pressed again every
 * RETRY_ENTER_EVERY_MS while the text waits in its box.
 */
export const RECEIPT_MS = 120_000;
export const RETRY_ENTER_EVERY_MS = 5_000;
/** How long an agent may take to become ready (a first start, a trust question). */
export const READY_TIMEOUT_MS = 10 * 60_000;

export type PromptOutcome =
  /** Typed, and the agent started a turn. */
  | { readonly type: "received"; readonly id: string }
  /** Typed; not seen taken within RECEIPT_MS (why: the receipt's reason). */
  | { readonly type: "typed"; readonly id: string; readonly why: string }
  | { readonly type: "failed"; readonly id: string; readonly reason: string };

/** What the prompt needs of the runtime (src/runtime/launch.ts builds it). */
export interface PromptHost extends ReceiptHost {
  view(id: string): SessionView | undefined;
  subscribe(listener: (change: RuntimeChange) => void): Disposable;
  onOutput(listener: (id: string) => void): Disposable;
}

/** A runtime as the first prompt (and a control receipt) reads it. */
export function promptHost(runtime: Runtime): PromptHost {
  return {
    view: (id) => runtime.view(id),
    subscribe: (listener) => runtime.subscribe(listener),
    onOutput: (listener) => runtime.onOutput(listener),
    classifyNow: (id) => void runtime.classifyNow(id),
    input: (id) => runtime.inputBox(id),
  };
}

export interface PromptTimes {
  readonly quietMs?: number;
  readonly receiptMs?: number;
  readonly readyMs?: number;
  readonly retryEveryMs?: number;
}

/** The message a client shows for an outcome. */
export function promptText(name: string, o: PromptOutcome): string {
  switch (o.type) {
    case "received":
      return `${name}: first prompt taken`;
    case "typed":
      return `${name}: first prompt typed, not taken yet: ${o.why}`;
    case "failed":
      return `${name}: first prompt not sent: ${o.reason}`;
  }
}

/**
 * Types `text` into `session` once agent `agent` is ready, then waits for
 * the turn it starts. `idleRules`: the agent's manifest has `idle` rules.
 */
export async function deliverFirstPrompt(
  host: PromptHost,
  session: Session,
  agent: string,
  idleRules: boolean,
  text: string,
  times: PromptTimes = {},
): Promise<PromptOutcome> {
  const id = session.id;
  const ready = await untilReady(host, session, agent, idleRules, times);
  if (ready !== null) return { type: "failed", id, reason: ready };
  return await typeAndConfirm(
    host,
    session,
    text,
    times.receiptMs ?? RECEIPT_MS,
    times.retryEveryMs ?? RETRY_ENTER_EVERY_MS,
  );
}

/** Resolves null once ready, or the reason it never will be. */
function untilReady(
  host: PromptHost,
  session: Session,
  agent: string,
  idleRules: boolean,
  times: PromptTimes,
): Promise<string | null> {
  const id = session.id;
  const quietMs = times.quietMs ?? QUIET_MS;
  return new Promise((resolve) => {
    let quiet: ReturnType<typeof setTimeout> | undefined;
    let done = false;
    const subs: Disposable[] = [];
    const finish = (why: string | null) => {
      if (done) return;
      done = true;
      clearTimeout(quiet);
      clearTimeout(deadline);
      for (const s of subs) s[Symbol.dispose]();
      resolve(why);
    };
    const check = () => {
      const view = host.view(id);
      if (!view || view.status !== "running") return finish("the session ended first");
      if (view.agent !== agent) return;
      const st = view.agentStatus;
      if (idleRules) {
        if (st?.state === "idle" && st.ruleId !== "fallback") finish(null);
      } else if (st === null || st.state === "idle") {
        // No rule can say "ready": a quiet screen does, from the last output on.
        clearTimeout(quiet);
        quiet = setTimeout(() => finish(null), quietMs);
      }
    };
    const deadline = setTimeout(
      () =>
        finish(
          `${agent} was not ready for input within ${(times.readyMs ?? READY_TIMEOUT_MS) / 1000} s`,
        ),
      times.readyMs ?? READY_TIMEOUT_MS,
    );
    subs.push(host.subscribe((c) => {
      if (changedId(c) === id) check();
    }));
    subs.push(host.onOutput((out) => {
      if (out === id) check();
    }));
    check();
  });
}

/**
 * The prompt as a paste (bracketed when the agent asked for it, as a
 * terminal pastes), then Enter on its own. Typed fast without the
 * brackets, Claude Code 2.1 took the Enter 250 ms later for a newline
 * inside a paste and never submitted (tools/live/worktree.ts). The Enter
 * goes a pause after the agent read the paste (src/control/enter_wait.ts).
 */
async function paste(
  session: Session,
  text: string,
  beforeEnter: () => Promise<void>,
): Promise<boolean> {
  const body = text.replaceAll(PASTE_END, "");
  const bracketed = session.inputModes().bracketedPaste;
  const writtenAt = Date.now();
  if (!session.write(bracketed ? `\x1b[200~${body}${PASTE_END}` : body, false)) return false;
  await untilRead(session, writtenAt);
  await beforeEnter();
  return session.write("\r", false);
}

const PASTE_END = "\x1b[201~";

/** Pastes the text, then Enter; the receipt says whether the agent took it. */
async function typeAndConfirm(
  host: PromptHost,
  session: Session,
  text: string,
  receiptMs: number,
  retryEveryMs: number,
): Promise<PromptOutcome> {
  const id = session.id;
  const watch = watchSend(host, session, text, receiptMs, { retryEveryMs });
  try {
    if (!(await paste(session, text, () => watch.beforeEnter()))) {
      return { type: "failed", id, reason: "the agent is not reading its input" };
    }
    const receipt = await watch.receipt();
    if (receipt.taken) return { type: "received", id };
    if (session.status !== "running") return { type: "failed", id, reason: "the session ended" };
    return { type: "typed", id, why: receipt.reason ?? "no sign of it" };
  } finally {
    watch[Symbol.dispose]();
  }
}
