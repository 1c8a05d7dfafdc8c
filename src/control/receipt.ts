/**
 * The receipt of `send --enter` (and of each `group-send` member): did the
 * agent take what was typed? Yes once its state moves on (working — a
 * submit hook does that too —, straight to blocked/done, or blocked to
 * idle: the text answered a prompt) with the text no longer in its input
 * box, or once its
 * input box (manifest `input`, docs/manifests.md) no longer holds the text
 * it showed before the Enter. When the text still sits in the box a while
 * after the Enter — a TUI that took the Enter for a newline inside a paste
 * (Codex) — Enter is pressed once more, but only on a fresh reading that
 * shows no prompt the Enter could answer (and, when asked, again every
 * `retryEveryMs`: an agent still starting may ignore Enter).
 */

import type { AgentStateName } from "../model/agent.ts";
import type { Session } from "../session/session.ts";
import { delay } from "../util/async.ts";
import type { ControlHost } from "./host.ts";

/** What a receipt reads (a ControlHost is one). */
export type ReceiptHost = Pick<ControlHost, "view" | "subscribe" | "classifyNow" | "input">;

/** Time after the Enter before a text still in the input box gets a second Enter. */
export const RETRY_ENTER_MS = 1000;
/** How long the Enter waits for the text to show in the input box (a TUI slow to draw it). */
export const SHOW_WAIT_MS = 1500;
const POLL_MS = 50;
/** How much of the text identifies it in the input box (fits the first row of any box). */
const HEAD_CHARS = 16;

export interface SendReceipt {
  readonly taken: boolean;
  /** What showed it: the agent's state moved on, or its input box emptied. */
  readonly by: "state" | "input" | null;
  /** ms from the (first) Enter. */
  readonly ms: number;
  /** Enter was pressed a second time. */
  readonly retried: boolean;
  readonly state: AgentStateName | null;
  /** Why it does not look taken (when not taken), e.g. "the text is still in its input box". */
  readonly reason: string | null;
}

export interface SendWatch extends Disposable {
  /**
   * Call after the text was typed, right before its Enter: waits (at most
   * SHOW_WAIT_MS) until the input box shows the text, when it can be read.
   */
  beforeEnter(): Promise<void>;
  /** After the Enter: resolves with the receipt, within `timeoutMs`. */
  receipt(): Promise<SendReceipt>;
}

export interface WatchOptions {
  /**
   * After the second Enter, press Enter again this often while the text
   * still sits in the box and nothing on screen could take the Enter as an
   * answer: an agent still starting may ignore Enter (Codex offline, for up
   * to 90 s, with nothing on screen to say so). Default: one retry only.
   */
  readonly retryEveryMs?: number;
}

export function watchSend(
  host: ReceiptHost,
  session: Session,
  text: string,
  timeoutMs: number,
  options: WatchOptions = {},
): SendWatch {
  const id = session.id;
  const head = text.replace(/\s+/g, " ").trim().slice(0, HEAD_CHARS);
  const start = host.view(id)?.agentStatus ?? null;
  let moved: AgentStateName | null = null;
  const sub = host.subscribe((c) => {
    const status = c.type === "updated" && c.session.id === id ? c.session.agentStatus : null;
    // Idle again is no sign (only its source changed: a declaration arriving), unless
    // what was typed answered a prompt.
    if (
      status && status.seq !== (start?.seq ?? 0) &&
      (status.state !== "idle" || start?.state === "blocked")
    ) moved ??= status.state;
  });
  const inBox = () => {
    const box = host.input(id);
    return box === null || head === "" ? null : box.includes(head);
  };
  let shown = false;
  let enterAt = 0;
  return {
    [Symbol.dispose]: () => sub[Symbol.dispose](),
    async beforeEnter() {
      const until = Date.now() + SHOW_WAIT_MS;
      while (inBox() === false && Date.now() < until) await delay(POLL_MS / 2);
      shown = inBox() === true;
      enterAt = Date.now();
    },
    async receipt() {
      enterAt ||= Date.now();
      let retries = 0;
      let lastRetry = 0;
      const every = options.retryEveryMs;
      try {
        for (;;) {
          const ms = Date.now() - enterAt;
          const retried = retries > 0;
          const state = host.view(id)?.agentStatus?.state ?? null;
          const box = inBox();
          // A state that moves while the text still sits in the box is the agent's own doing
          // (Codex declares a working blip while it starts), not the text taken.
          if (moved !== null && box !== true) return done(true, "state", ms, retried, state, null);
          if (shown && box === false) return done(true, "input", ms, retried, state, null);
          shown ||= box === true; // drawn only after the Enter: its leaving counts too
          if (session.status === "exited") {
            return done(false, null, ms, retried, state, "it exited");
          }
          const due = retries === 0
            ? ms >= RETRY_ENTER_MS
            : every !== undefined && ms - lastRetry >= every;
          if (due && box === true && safeToRetry(host, id)) {
            session.write("\r", false); // refused (not reading its input): the bound says so
            retries++;
            lastRetry = ms;
          }
          if (ms >= timeoutMs) {
            const enters = retries === 1 ? " after a second Enter" : ` after ${retries + 1} Enters`;
            const why = box === true
              ? `the text is still in its input box${retries > 0 ? enters : ""}`
              : `no sign of it (state ${state ?? "unknown"}${
                box === null ? ", input box not readable" : ""
              })`;
            return done(false, null, ms, retried, state, why);
          }
          await delay(POLL_MS);
        }
      } finally {
        sub[Symbol.dispose]();
      }
    },
  };
}

/** A second Enter must not answer a prompt: only on a fresh idle (or done) screen with none. */
function safeToRetry(host: ReceiptHost, id: string): boolean {
  host.classifyNow(id);
  const view = host.view(id);
  const state = view?.agentStatus?.state ?? null;
  return (state === "idle" || state === "done") && view?.prompt === null;
}

function done(
  taken: boolean,
  by: SendReceipt["by"],
  ms: number,
  retried: boolean,
  state: AgentStateName | null,
  reason: string | null,
): SendReceipt {
  return { taken, by, ms, retried, state, reason };
}
