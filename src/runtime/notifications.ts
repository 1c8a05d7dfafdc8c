/**
 * Wires notifications into the runtime (docs/notifications.md). From the
 * runtime's change stream: agent transitions into blocked/done/error, and
 * the clients' focus (no notification for a session one types into; the
 * stats command follows the latest). From the sessions themselves, as
 * detection hears output: the input written to one (it answers a prompt)
 * and its command marks (OSC 133;D: failed commands of non-agent sessions),
 * and each one's output for its watchers. The watchers' list and the stats
 * lines go back into the runtime's state.
 *
 * The host-terminal sink is set by whoever owns the terminal: the server
 * passes its clients' writers, `serve` uses stdout. Until then only the
 * fallback command (if configured) delivers.
 */

import { dataDir } from "../config/paths.ts";
import { FailedCommands } from "../notify/failed_commands.ts";
import { Notifier, type Sink } from "../notify/notifier.ts";
import { failedText, tmuxWrap } from "../notify/policy.ts";
import { Watchers } from "../notify/watchers.ts";
import type { Setup } from "./runtime.ts";
import type { WatchSpec } from "../notify/watch_rules.ts";
import { StatsCommand } from "../notify/stats_command.ts";
import type { LoadedConfig } from "../config/config.ts";
import type { Env } from "../config/paths.ts";
import {
  latestFocus,
  type RuntimeChange,
  type RuntimeState,
  type WatcherView,
} from "../model/runtime.ts";
import type { SessionView } from "../model/session.ts";
import type { SessionStore } from "../session/store.ts";
import type { EngineEvent } from "./state.ts";

/** What notifications need of the runtime (runtime.ts passes itself). */
export interface NotificationsHost {
  readonly env: Env;
  readonly config: LoadedConfig["config"];
  readonly store: SessionStore;
  readonly state: RuntimeState;
  view(id: string): SessionView | undefined;
  subscribe(listener: (change: RuntimeChange) => void): Disposable;
  onReconfigure(listener: (next: Setup) => void | Promise<void>): Disposable;
  own(dispose: () => void | Promise<void>): void;
}

export class Notifications {
  readonly notifier: Notifier;
  /** Pattern watchers (W1–W2): the project file's and one live pattern per session. */
  readonly watchers: Watchers;
  /** `agent_stats_command` for the selected session (W3): `stats.line(id)`. */
  readonly stats: StatsCommand;
  readonly #runtime: NotificationsHost;
  readonly #declared = new Map<string, readonly WatchSpec[]>();

  constructor(
    runtime: NotificationsHost,
    parts: { notifier: Notifier; watchers: Watchers; stats: StatsCommand },
  ) {
    this.#runtime = runtime;
    this.notifier = parts.notifier;
    this.watchers = parts.watchers;
    this.stats = parts.stats;
  }

  /**
   * The project file's watchers for sessions of this name (S5, W2): applied
   * to every session created under that name from now on, so a restart
   * (`W`: remove, then create the same name) keeps them. Empty: forget.
   */
  declareWatches(name: string, watch: readonly WatchSpec[]): void {
    if (watch.length === 0) this.#declared.delete(name);
    else this.#declared.set(name, watch);
  }

  /**
   * A reload read the project file again (W2): its watchers replace the
   * ones declared before, for the sessions running under those names now
   * and those started later.
   */
  redeclareWatches(watches: ReadonlyMap<string, readonly WatchSpec[]>): void {
    const names = new Set([...this.#declared.keys(), ...watches.keys()]);
    for (const name of names) this.declareWatches(name, watches.get(name) ?? []);
    for (const session of this.#runtime.store.list()) {
      if (names.has(session.name)) {
        this.watchers.setFile(session, this.declaredWatches(session.name));
      }
    }
  }

  /** Project watchers declared for a session name, if any. */
  declaredWatches(name: string): readonly WatchSpec[] {
    return this.#declared.get(name) ?? [];
  }

  /**
   * Arms the live watcher pattern of a session (`v`, the watchers tab);
   * "" disarms it. UserError for an unknown session or an invalid pattern
   * (which leaves every watcher as it was).
   */
  arm(target: string, pattern: string): void {
    this.watchers.arm(this.#runtime.store.resolve(target), pattern);
  }

  /** The TUI passes its ordered output writer (never a second stdout writer). */
  setSink(sink: Sink | null): void {
    this.notifier.setSink(sink);
  }

  /** `serve`: stdout when it is a terminal, else only the fallback command. */
  useStdout(): void {
    if (!Deno.stdout.isTerminal()) return this.notifier.setSink(null);
    const encoder = new TextEncoder();
    const tmux = Boolean(this.#runtime.env.TMUX);
    this.notifier.setSink((osc) => {
      const data = encoder.encode(tmux ? tmuxWrap(osc) : osc);
      for (let n = 0; n < data.length;) n += Deno.stdout.writeSync(data.subarray(n));
    });
  }
}

/** Appends one line to `<data dir>/lazyshell.log`; never throws. */
export function logTo(env: Env): (line: string) => void {
  return (line) => {
    try {
      const dir = dataDir(env);
      Deno.mkdirSync(dir, { recursive: true });
      Deno.writeTextFileSync(`${dir}/lazyshell.log`, `${new Date().toISOString()} ${line}\n`, {
        append: true,
      });
    } catch { /* nowhere to log */ }
  };
}

interface Parts {
  readonly notifier: Notifier;
  readonly watchers: Watchers;
  readonly stats: StatsCommand;
  readonly failed: FailedCommands;
}

/** Starts the notifier, the watchers and the stats command; what they learn goes to `dispatch`. */
export function startNotifications(
  runtime: NotificationsHost,
  dispatch: (e: EngineEvent) => void,
): Notifications {
  const config = runtime.config.notify;
  const notifier = new Notifier({
    // Each sink wraps for its own terminal (useStdout, an attached client).
    tmux: false,
    fallbackCommand: config.fallback_command,
    rateLimitSeconds: config.rate_limit_seconds,
    focus: () => runtime.state.focus,
    log: logTo(runtime.env),
    env: runtime.env,
  });
  const watchers = new Watchers({ notify: (n) => notifier.notify(n) });
  const stats = new StatsCommand({ command: runtime.config.agent_stats_command, env: runtime.env });
  const parts: Parts = { notifier, watchers, stats, failed: new FailedCommands() };
  const notifications = new Notifications(runtime, parts);
  const listed = () => dispatch({ type: "watchers", watchers: watcherViews(watchers) });
  const subs = [
    stats.on((id, line) => dispatch({ type: "stats", id, line: line.text })),
    watchers.on((e) => {
      if (e.type === "armed") dispatch({ type: "watcher", id: e.sessionId, pattern: e.pattern });
      listed();
    }),
    followSessions(runtime, parts, notifications, listed),
    followState(runtime, parts),
    // A reload: the next notification and the next stats run use the new settings.
    runtime.onReconfigure(({ loaded: { config } }) => {
      notifier.configure({
        fallbackCommand: config.notify.fallback_command,
        rateLimitSeconds: config.notify.rate_limit_seconds,
      });
      stats.setCommand(config.agent_stats_command);
    }),
  ];
  runtime.own(async () => {
    for (const sub of subs) sub[Symbol.dispose]();
    watchers[Symbol.dispose]();
    await stats[Symbol.asyncDispose]();
    await notifier[Symbol.asyncDispose]();
  });
  return notifications;
}

/**
 * From the sessions themselves (not state: what they write and are written): sessions come and
 * go (their watchers follow), input answers a prompt, a command ends (N2).
 */
function followSessions(
  runtime: NotificationsHost,
  { notifier, watchers, stats, failed }: Parts,
  notifications: Notifications,
  listed: () => void,
): Disposable {
  const agentNow = (id: string) => runtime.view(id)?.agent != null;
  return runtime.store.on((e) => {
    if (e.type === "added") {
      const declared = notifications.declaredWatches(e.session.name);
      if (declared.length > 0) watchers.add(e.session, declared);
      return listed();
    }
    if (e.type === "replaced") {
      // `W`: the same watchers (file and live) on the new child's output.
      watchers.rebind(e.session);
      stats.forget(e.session.id);
      return failed.forget(e.session.id);
    }
    if (e.type === "removed") {
      watchers.remove(e.id);
      listed();
      stats.forget(e.id);
      notifier.forget(e.id);
      return failed.forget(e.id);
    }
    if (e.type !== "session") return;
    const { session, event } = e;
    if (event.type === "input") notifier.input(session.id, event.typed);
    if (event.type !== "osc133") return;
    if (event.mark === "C") failed.commandStarted(session.id, agentNow(session.id));
    if (event.mark === "D") {
      const code = failed.commandEnded(session.id, event.exitCode, agentNow(session.id));
      if (code === null) return;
      notifier.notify({
        sessionId: session.id,
        sessionName: session.name,
        reason: "failed",
        text: failedText(session.name, code),
      });
    }
  });
}

/** From the runtime's change stream: agent transitions, and the latest client's focus. */
function followState(
  runtime: NotificationsHost,
  { notifier, stats, failed }: Parts,
): Disposable {
  let selected: string | null = null;
  return runtime.subscribe((change) => {
    if (change.type === "focus") {
      const now = latestFocus(runtime.state).selected;
      if (now === selected) return;
      selected = now;
      const view = now === null ? undefined : runtime.view(now);
      return stats.select(view ? { id: view.id, cwd: view.cwd } : null);
    }
    if (change.type !== "updated") return;
    const { session, previous } = change;
    if (session.agent !== previous.agent && session.agent !== null) failed.agentSeen(session.id);
    const status = session.agentStatus;
    if (status === null || status === previous.agentStatus) return;
    // A program that declares or shows agent states is an agent for N2.
    if (status.state !== "idle") failed.agentSeen(session.id);
    notifier.agentState({ id: session.id, name: session.name, agent: session.agent }, status);
  });
}

/** The watchers as the runtime's state lists them. */
function watcherViews(watchers: Watchers): WatcherView[] {
  return watchers.list().map((w) => ({
    session: w.sessionId,
    pattern: w.pattern,
    source: w.source,
    notify: w.notify,
    matches: w.matches,
  }));
}
