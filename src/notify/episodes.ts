/**
 * Which agent states are news (docs/notifications.md "When it is sent"),
 * pure: one notification per blocked episode, one per done turn and one per
 * failed turn, no more, no fewer — whoever typed.
 *
 * - A **blocked episode** opens when a session enters `blocked` while none
 *   is open. It closes once the session was answered: input arrived (a
 *   person's keys or `ctl send`) and after it the state changed — to any
 *   other state, or to another prompt (a different kind or msg). A prompt
 *   that redraws or flaps with no input in between stays one episode, even
 *   when its evidence changes (Claude's PermissionRequest hook, then its
 *   Notification hook 6 s later with another text; a screen rule reading
 *   the half-drawn prompt as another kind, as fixtures/captures/qwen-ask).
 *   With no input, one thing more ends it: the agent worked (`working`)
 *   and then asked a prompt the episode has not shown — another kind, or
 *   another msg where both have one. The first was answered elsewhere (the
 *   agent's remote control or phone app, a hook that approves, another
 *   tool); the second is news. The same prompt coming back after work is
 *   a flap.
 * - A **done turn** opens when a session enters `done` while none is open,
 *   and closes once input arrived and after it the session entered
 *   `working`. A done that flaps with the screen stays one.
 * - A **failed turn** (`error`: the agent gave up on the model API) is
 *   news the same way, once per turn: a hook confirming what the screen
 *   showed, or its reason filled in, is the same failure.
 *
 * - A **usage limit** (`error`, kind `limit`) is one failed turn with what
 *   follows from it (docs/limits.md, "Notifications"): a session restored
 *   with a pending resume carries its limit over (`continueLimit`), so the
 *   restored agent drawing the same limit again (same reset instant and
 *   message) is not news; and after lazyshell itself answered the dialog
 *   beside a limit (`limitDismissed`: Gemini's "2. Stop"), the failure the
 *   agent then shows (its quota error, read again when the continue text's
 *   turn starts under it) is the same episode, until a `done` or another
 *   limit.
 *
 * Time plays no part: a new request a second after the last one is news, a
 * flap an hour later is not. Imports nothing but model types.
 */

import type { AgentStatus } from "../model/agent.ts";

/** An open episode: whether input arrived, and whether the state moved after it. */
interface Open {
  input: boolean;
  moved: boolean;
}

/** A prompt as the episode rule tells prompts apart. */
type Asked = Pick<AgentStatus, "kind" | "msg">;

/** A blocked episode also keeps the prompts it showed, and whether work followed the last. */
interface OpenBlocked extends Open {
  prompts: Asked[];
  worked: boolean;
}

interface SessionEpisodes {
  last: AgentStatus | null;
  /** The session showed a turn of its own: it worked, asked, or got input. */
  turned: boolean;
  blocked: OpenBlocked | null;
  done: Open | null;
  error: Open | null;
  /** A limit carried over from before a restore (its key), not notified again. */
  carried: string | null;
  /** lazyshell answered the dialog beside the open limit: the next failure is the same one. */
  dismissed: boolean;
}

/** A usage limit's identity as the resume machine keys it (src/limits/resume.ts): reset and msg. */
export function limitEpisodeKey(resetsAt: number | null, msg: string | null): string {
  return `${resetsAt ?? "?"}|${msg ?? ""}`;
}

function limitKeyOf(status: AgentStatus): string | null {
  if (status.state !== "error" || status.kind !== "limit") return null;
  return limitEpisodeKey(typeof status.resetsAt === "number" ? status.resetsAt : null, status.msg);
}

const closed = (e: Open | null) => e === null || e.moved;

function same(a: AgentStatus | null, b: AgentStatus): boolean {
  return a !== null && a.state === b.state && a.kind === b.kind && a.msg === b.msg;
}

/**
 * One of the prompts an episode showed, as far as the evidence tells: the same kind and the same
 * msg; a msg missing on either side (a screen rule read the kind only) is no difference.
 */
function shown(prompts: readonly Asked[], b: Asked): boolean {
  const kind = prompts.filter((p) => p.kind === b.kind);
  if (kind.length === 0) return false;
  return b.msg === null || kind.some((p) => p.msg === b.msg) || kind.every((p) => p.msg === null);
}

export class Episodes {
  #sessions = new Map<string, SessionEpisodes>();

  #of(id: string): SessionEpisodes {
    let s = this.#sessions.get(id);
    if (!s) {
      s = {
        last: null,
        turned: false,
        blocked: null,
        done: null,
        error: null,
        carried: null,
        dismissed: false,
      };
      this.#sessions.set(id, s);
    }
    return s;
  }

  /**
   * One arbiter transition (or an update within a state). Returns the
   * reason to notify when it opens a new episode, else null.
   */
  transition(id: string, status: AgentStatus): "blocked" | "done" | "error" | null {
    const s = this.#of(id);
    const changed = !same(s.last, status);
    s.last = status;
    if (status.state === "working" || status.state === "blocked") s.turned = true;
    if (s.blocked?.input && changed) s.blocked.moved = true;
    const open = s.blocked !== null && !s.blocked.moved ? s.blocked : null;
    if (open && status.state === "working") open.worked = true;
    if (open && status.state === "blocked") {
      // Answered elsewhere: work, then a prompt this episode never showed.
      if (open.worked && !shown(open.prompts, status)) open.moved = true;
      else {
        open.worked = false;
        const known = open.prompts.some((p) => p.kind === status.kind && p.msg === status.msg);
        // Bounded: a prompt whose text keeps changing forgets its oldest texts.
        if (!known) {
          open.prompts = [...open.prompts.slice(-15), { kind: status.kind, msg: status.msg }];
        }
      }
    }
    if (status.state === "done") s.dismissed = false;
    if (s.done?.input && status.state === "working") s.done.moved = true;
    if (s.error?.input && status.state === "working") s.error.moved = true;
    if (status.state === "blocked" && closed(s.blocked)) {
      s.blocked = {
        input: false,
        moved: false,
        prompts: [{ kind: status.kind, msg: status.msg }],
        worked: false,
      };
      return "blocked";
    }
    // A done or a failure shown before any turn of this session is an earlier one's, on the
    // screen of a resumed agent (`claude --resume` redraws "✻ Worked for 26s"): not news.
    if ((status.state === "done" || status.state === "error") && !s.turned) return null;
    if (status.state === "done" && closed(s.done)) {
      s.done = { input: false, moved: false };
      return "done";
    }
    if (status.state === "error") {
      const key = limitKeyOf(status);
      if (key !== null && key === s.carried) {
        // The restored agent shows the limit it had: the same episode, already notified.
        s.carried = null;
        s.dismissed = false;
        s.error = { input: false, moved: false };
        return null;
      }
      if (key === null && s.dismissed) {
        // The failure left by lazyshell's own answer to the limit's dialog, read again as the
        // continue text's turn starts under it: the limit's, until a done or another limit.
        s.error = { input: false, moved: false };
        return null;
      }
      if (key !== null) s.dismissed = false;
    }
    if (status.state === "error" && closed(s.error)) {
      s.error = { input: false, moved: false };
      return "error";
    }
    return null;
  }

  /**
   * A session restored with a pending resume at this limit (its key: limitEpisodeKey): the
   * agent showing it again continues the episode notified before the restore.
   */
  continueLimit(id: string, key: string): void {
    this.#of(id).carried = key;
  }

  /** lazyshell answered the dialog beside the session's limit (the resume's dismiss keys). */
  limitDismissed(id: string): void {
    const s = this.#of(id);
    if (s.last !== null && limitKeyOf(s.last) !== null) s.dismissed = true;
  }

  /** Something was written to the session: a person's keys or `ctl send`. */
  input(id: string): void {
    const s = this.#of(id);
    s.turned = true;
    if (s.blocked) s.blocked.input = true;
    if (s.done) s.done.input = true;
    if (s.error) s.error.input = true;
  }

  forget(id: string): void {
    this.#sessions.delete(id);
  }
}
