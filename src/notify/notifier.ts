/**
 * The notifier (docs/notifications.md): one channel for every notification —
 * agent blocked/done/error (a failed turn: once, like a done turn), failed
 * commands, pattern watchers.
 *
 * Delivery: OSC 9 + OSC 777 written to the host terminal through a `sink`
 * (tmux passthrough when `$TMUX` is set), or, when `notify.fallback_command`
 * is configured, that command run through `sh -c` with the text on stdin.
 * The sink must be the same ordered writer the screen uses for its frames
 * (the TUI passes its output writer; `serve` passes stdout when it is a
 * terminal, else none): the OSC strings move no cursor, so they can go
 * between two frames but never inside one.
 *
 * Invariants: `notify()` never throws and never waits; a fallback command
 * is killed past `commandTimeoutMs`, at most `maxPending` run at once, and
 * a failure is logged, not thrown. Must not import tui/ or runtime/.
 */

import { isLimit, limitNotice } from "../limits/limit_text.ts";
import type { AgentStatus } from "../model/agent.ts";
import { messageOf } from "../errors.ts";
import { within } from "../util/async.ts";
import { readText } from "../util/streams.ts";
import { Episodes } from "./episodes.ts";
import {
  type FocusLike,
  hostBytes,
  isWatching,
  limitKey,
  type Notification,
  RateLimiter,
  sanitize,
  stateText,
} from "./policy.ts";

/** Writes a notification's bytes; `about` is the notification (whose session, which host). */
export type Sink = (bytes: string, about?: Notification) => void;

export interface NotifierOptions {
  /** Host terminal writer; null: no OSC (only the fallback command, if any). */
  readonly sink?: Sink | null;
  /** Wrap for tmux passthrough (`$TMUX` set in lazyshell's own environment). */
  readonly tmux?: boolean;
  /** `notify.fallback_command`: run with `sh -c`, text on stdin, instead of OSC. */
  readonly fallbackCommand?: string | null;
  /**
   * `notify.rate_limit_seconds`: failed commands, per session (typing starts
   * it over). Blocked and done follow their episodes instead (episodes.ts).
   */
  readonly rateLimitSeconds?: number;
  /** What each attached client's user looks at (RuntimeState.focus). */
  readonly focus?: () => FocusLike | readonly FocusLike[];
  readonly now?: () => number;
  /** Where delivery failures go (never thrown). */
  readonly log?: (line: string) => void;
  readonly commandTimeoutMs?: number;
  readonly maxPending?: number;
  /** Base environment of the fallback command (default: this process's). */
  readonly env?: Readonly<Record<string, string | undefined>>;
}

/** What became of one notify() call (tests and the log read it). */
export type Outcome = "sent" | "watching" | "limited" | "no-channel" | "busy";

export interface SessionRef {
  readonly id: string;
  readonly name: string;
  /** The agent it runs (catalog id), if any: the notification names it. */
  readonly agent?: string | null;
  /** Another host's session (docs/remote.md): the notification starts with the host's name. */
  readonly host?: string;
}

/** Who a state notification is about: `claude (bash)` for a session running an agent. */
export function whoOf(session: SessionRef): string {
  const agent = session.agent;
  const who = agent && agent !== session.name ? `${agent} (${session.name})` : session.name;
  return session.host ? `${session.host}: ${who}` : who;
}

/** The settings a reload may change (config `notify.*`). */
export type NotifierSettings = Pick<NotifierOptions, "fallbackCommand" | "rateLimitSeconds">;

export class Notifier implements AsyncDisposable {
  #sink: Sink | null;
  #options: NotifierOptions;
  readonly #limiter = new RateLimiter();
  readonly #episodes = new Episodes();
  readonly #pending = new Set<Promise<void>>();
  readonly #children = new Set<Deno.ChildProcess>();
  #disposed = false;
  #listeners = new Set<(n: Notification, outcome: Outcome) => void>();

  constructor(options: NotifierOptions = {}) {
    this.#options = options;
    this.#sink = options.sink ?? null;
  }

  /** Sets (or clears) the host-terminal writer; the TUI passes its own. */
  setSink(sink: Sink | null): void {
    this.#sink = sink;
  }

  /** New `notify.*` settings (a reload): the next notification uses them. */
  configure(settings: NotifierSettings): void {
    this.#options = { ...this.#options, ...settings };
  }

  get fallbackCommand(): string | null {
    return this.#options.fallbackCommand ?? null;
  }

  /** Observes every notification and its outcome (plugins, tests, logs). */
  on(listener: (n: Notification, outcome: Outcome) => void): Disposable {
    this.#listeners.add(listener);
    return { [Symbol.dispose]: () => this.#listeners.delete(listener) };
  }

  /**
   * Every arbiter transition: notifies once per blocked episode, once per
   * done turn and once per failed turn (episodes.ts), whoever typed.
   */
  agentState(session: SessionRef, status: AgentStatus): Outcome | null {
    const reason = this.#episodes.transition(session.id, status);
    if (reason === null) return null;
    return this.notify({
      sessionId: session.id,
      sessionName: session.name,
      reason,
      text: isLimit(status)
        ? limitNotice(whoOf(session), status, status.since)
        : stateText(whoOf(session), reason, status.msg, status.kind),
      minIntervalMs: 0,
    });
  }

  /**
   * Something was written to the session: `typed` for a person's keys,
   * false for `ctl send`. Either one answers a prompt (its next request is
   * a new episode); only typing starts the failed-command limit over.
   */
  input(sessionId: string, typed: boolean): void {
    this.#episodes.input(sessionId);
    if (typed) this.#limiter.reset(`${sessionId}\0`);
  }

  /**
   * A session restored with a pending resume at a usage limit (key: episodes.ts
   * `limitEpisodeKey`): the same limit shown again is not notified again.
   */
  continueLimit(sessionId: string, key: string): void {
    this.#episodes.continueLimit(sessionId, key);
  }

  /** lazyshell answered the dialog beside a session's limit: the failure it leaves is no news. */
  limitDismissed(sessionId: string): void {
    this.#episodes.limitDismissed(sessionId);
  }

  /** The session is gone: forget its episodes. */
  forget(sessionId: string): void {
    this.#episodes.forget(sessionId);
    this.#limiter.reset(`${sessionId}\0`);
  }

  /** Delivers one notification unless the focus rule or a rate limit says no. */
  notify(n: Notification): Outcome {
    const outcome = this.#deliver(n);
    for (const listener of this.#listeners) {
      try {
        listener(n, outcome);
      } catch { /* an observer must not break delivery */ }
    }
    return outcome;
  }

  /** Resolves when every fallback command started so far has finished. */
  async idle(): Promise<void> {
    while (this.#pending.size > 0) await Promise.all([...this.#pending]);
  }

  async [Symbol.asyncDispose](): Promise<void> {
    this.#disposed = true;
    for (const child of this.#children) kill(child);
    await this.idle();
    this.#listeners.clear();
  }

  #deliver(n: Notification): Outcome {
    if (this.#disposed) return "no-channel";
    const focus = this.#options.focus?.() ?? [];
    const focuses: readonly FocusLike[] = Array.isArray(focus) ? focus : [focus as FocusLike];
    if (focuses.some((f) => isWatching(f, n.sessionId))) return "watching";
    const command = this.#options.fallbackCommand ?? null;
    if (!command && !this.#sink) return "no-channel";
    if (command && this.#pending.size >= (this.#options.maxPending ?? 4)) {
      this.#log(`Notification dropped, ${this.#pending.size} commands still running: ${n.text}`);
      return "busy";
    }
    const now = (this.#options.now ?? Date.now)();
    const interval = n.minIntervalMs ?? (this.#options.rateLimitSeconds ?? 30) * 1000;
    if (!this.#limiter.allow(limitKey(n), now, interval)) return "limited";
    const text = sanitize(n.text);
    if (command) this.#run(command, n, text);
    else this.#write(text, n);
    return "sent";
  }

  #write(text: string, n: Notification): void {
    try {
      this.#sink?.(hostBytes(text, this.#options.tmux ?? false), n);
    } catch (error) {
      this.#log(`Cannot write the notification to the terminal: ${messageOf(error)}`);
    }
  }

  #run(command: string, n: Notification, text: string): void {
    const task = this.#runCommand(command, n, text).catch((error) => {
      this.#log(`Notification command failed: ${messageOf(error)}`);
    });
    this.#pending.add(task);
    task.finally(() => this.#pending.delete(task));
  }

  async #runCommand(command: string, n: Notification, text: string): Promise<void> {
    const env: Record<string, string> = {};
    for (const [k, v] of Object.entries(this.#options.env ?? Deno.env.toObject())) {
      if (v !== undefined) env[k] = v;
    }
    Object.assign(env, {
      LAZYSHELL_NOTIFY_SESSION_ID: n.sessionId,
      LAZYSHELL_NOTIFY_SESSION: n.sessionName,
      LAZYSHELL_NOTIFY_REASON: n.reason,
    });
    const child = new Deno.Command("sh", {
      args: ["-c", command],
      stdin: "piped",
      stdout: "null",
      stderr: "piped",
      env,
      clearEnv: true,
    }).spawn();
    this.#children.add(child);
    const timeoutMs = this.#options.commandTimeoutMs ?? 5000;
    let timedOut = false;
    const timer = setTimeout(() => {
      timedOut = true;
      kill(child);
    }, timeoutMs);
    const stderr = readText(child.stderr, { max: 4096 });
    try {
      const [, status] = await Promise.all([writeAll(child.stdin, `${text}\n`), child.status]);
      // A backgrounded grandchild may keep stderr open: do not wait for it.
      if (!(await within(stderr.text, 200))) stderr.cancel();
      if (timedOut) {
        this.#log(`Notification command killed after ${timeoutMs} ms: ${command}`);
      } else if (!status.success) {
        const why = (await stderr.text).trim().split("\n")[0] ?? "";
        this.#log(
          `Notification command exited with ${status.code}${why ? `: ${why}` : ""}: ${command}`,
        );
      }
    } finally {
      clearTimeout(timer);
      this.#children.delete(child);
    }
  }

  #log(line: string): void {
    try {
      this.#options.log?.(line);
    } catch { /* logging must not throw either */ }
  }
}

function kill(child: Deno.ChildProcess): void {
  try {
    child.kill("SIGKILL");
  } catch { /* already gone */ }
}

/** Writes the text and closes stdin; a child that exits without reading is fine. */
async function writeAll(stream: WritableStream<Uint8Array>, text: string): Promise<void> {
  const writer = stream.getWriter();
  try {
    await writer.write(new TextEncoder().encode(text));
    await writer.close();
  } catch {
    try {
      await writer.abort();
    } catch { /* closed already */ }
  }
}
