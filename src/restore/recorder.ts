/**
 * Keeps the state file up to date from the runtime's change stream
 * (docs/restore.md): every change that matters — a session added, removed,
 * renamed, regrouped, another agent, a conversation id, a watcher — asks
 * the writer for a write (coalesced there). Changes of the agent state or
 * of the output clock (`outputAt`) do not: a spinner must never wake the
 * disk.
 *
 * Last screens: a session's visible rows are read once its output has been
 * quiet for `screenQuietMs`, and a changed screen is written at most every
 * `screenIntervalMs`. A session that never goes quiet (a spinner) is read
 * again only when the file is written anyway.
 *
 * A pending resume at a usage limit (docs/limits.md), or a resume policy set
 * for a session or a group, asks for a write when it changes: a `kill -9`
 * finds it in the file.
 *
 * A session that exits is kept in the file for `exitGraceMs` first, and so
 * is the agent of a session whose agent left: at a reboot every process
 * gets its SIGTERM at once, and the sessions and their agents must not
 * leave the file because they ended a moment before the server.
 */

import type { RuntimeChange } from "../model/runtime.ts";
import type { SessionView } from "../model/session.ts";
import type { Runtime } from "../runtime/runtime.ts";
import { formatState, savedEnv, savedScreen, type SavedSession } from "./state_file.ts";
import { StateWriter, type WriterOptions } from "./writer.ts";

/** What a restored session keeps of its saved entry. */
export interface Kept {
  readonly command: string | null;
  /** Its secret variables (read from the environment, or missing there): still named in the file. */
  readonly secrets: readonly string[];
}

export interface RecorderOptions {
  readonly file: string;
  /** Saved sessions of an earlier server, not restored yet (kept in the file). */
  readonly pending: () => readonly SavedSession[];
  readonly log?: (line: string) => void;
  readonly writer?: Partial<Omit<WriterOptions, "render" | "log">>;
  /** Output quiet this long before a screen is read (default 2 s). */
  readonly screenQuietMs?: number;
  /** A write for screens alone at most this often (default 10 s). */
  readonly screenIntervalMs?: number;
  /** How long an exited session stays in the file (default 5 s). */
  readonly exitGraceMs?: number;
}

/** The view with the agent (and conversation) it had a moment ago. */
function withAgentOf(view: SessionView, before: SessionView): SessionView {
  return { ...view, agent: before.agent, conversation: before.conversation };
}

/** The fields of a view the file keeps: any other change is not worth a write. */
function matters(a: SessionView, b: SessionView): boolean {
  return a.name !== b.name || a.group !== b.group || a.cwd !== b.cwd ||
    a.command !== b.command || a.status !== b.status || a.agent !== b.agent ||
    a.conversation !== b.conversation || a.watcher !== b.watcher || a.origin !== b.origin;
}

export class SessionRecorder implements AsyncDisposable {
  readonly writer: StateWriter;
  readonly #runtime: Runtime;
  readonly #options: RecorderOptions;
  readonly #subs: Disposable[];
  /** Sessions whose screen changed since it was last read, with their last output time. */
  readonly #dirty = new Map<string, number>();
  readonly #screens = new Map<string, string[]>();
  readonly #exitedAt = new Map<string, number>();
  /** The agent a session ran until a moment ago (its conversation goes with it). */
  readonly #agentLeft = new Map<string, { readonly view: SessionView; readonly at: number }>();
  /**
   * What a restored session keeps of its saved entry: its command (not the
   * resume line it runs) and the secrets the environment lacked at restore.
   */
  readonly #kept = new Map<string, Kept>();
  #screenTimer: ReturnType<typeof setTimeout> | undefined;
  #graceTimer: ReturnType<typeof setTimeout> | undefined;
  #lastScreenWrite = -Infinity;
  #closed = false;

  constructor(runtime: Runtime, options: RecorderOptions) {
    this.#runtime = runtime;
    this.#options = options;
    this.writer = new StateWriter(options.file, {
      ...options.writer,
      render: () => this.#render(),
      ...(options.log ? { log: options.log } : {}),
    });
    this.#subs = [
      runtime.subscribe((change) => this.#onChange(change)),
      runtime.onOutput((id) => this.#onOutput(id)),
      // A pending resume at a usage limit changed: written like a rename (docs/limits.md).
      runtime.resumes.onChanged(() => this.writer.schedule()),
    ];
  }

  /** A restored session's command and missing secrets, as the file keeps them. */
  keep(id: string, kept: Kept): void {
    this.#kept.set(id, kept);
  }

  /** A change of the pending list (restored, forgotten). */
  changed(): void {
    this.writer.schedule();
  }

  /** Stops following the runtime and writes the file once more, screens included. */
  async [Symbol.asyncDispose](): Promise<void> {
    if (this.#closed) return;
    this.#closed = true;
    for (const sub of this.#subs) sub[Symbol.dispose]();
    clearTimeout(this.#screenTimer);
    clearTimeout(this.#graceTimer);
    for (const id of this.#runtime.sessions.list().map((s) => s.id)) this.#dirty.set(id, 0);
    await this.writer.flush(true);
    await this.writer[Symbol.asyncDispose]();
  }

  #onChange(change: RuntimeChange): void {
    if (change.type !== "added" && change.type !== "updated" && change.type !== "removed") return;
    if (change.type === "removed") {
      const id = change.previous.id;
      const maps = [this.#dirty, this.#screens, this.#exitedAt, this.#kept, this.#agentLeft];
      for (const map of maps) map.delete(id);
      return this.writer.schedule();
    }
    if (change.type === "updated" && !matters(change.previous, change.session)) return;
    const s = change.session;
    const now = performance.now();
    let ending = false;
    if (s.status === "exited" && !this.#exitedAt.has(s.id)) {
      this.#exitedAt.set(s.id, now);
      ending = true;
    } else if (s.status === "running") this.#exitedAt.delete(s.id); // `W` started it again
    if (change.type === "updated" && s.agent === null && change.previous.agent !== null) {
      this.#agentLeft.set(s.id, { view: change.previous, at: now });
      ending = true;
    } else if (s.agent !== null) this.#agentLeft.delete(s.id);
    if (ending) {
      // Written again once the grace is over: then the exit or the agent's end counts.
      clearTimeout(this.#graceTimer);
      this.#graceTimer = setTimeout(() => this.writer.schedule(), this.#grace() + 10);
    }
    this.writer.schedule();
  }

  #grace(): number {
    return this.#options.exitGraceMs ?? 5000;
  }

  #onOutput(id: string): void {
    this.#dirty.set(id, performance.now());
    if (this.#screenTimer === undefined && !this.#closed) this.#armScreens();
  }

  #armScreens(): void {
    this.#screenTimer = setTimeout(() => this.#readScreens(), this.#options.screenQuietMs ?? 2000);
  }

  /** Reads the screens that went quiet; a changed one is written, at most every interval. */
  #readScreens(): void {
    this.#screenTimer = undefined;
    const now = performance.now();
    const quiet = this.#options.screenQuietMs ?? 2000;
    let changed = false;
    for (const [id, at] of this.#dirty) {
      if (now - at < quiet) continue;
      this.#dirty.delete(id);
      changed = this.#readScreen(id) || changed;
    }
    if (changed) {
      const interval = this.#options.screenIntervalMs ?? 10_000;
      const wait = this.#lastScreenWrite + interval - now;
      if (wait <= 0) {
        this.#lastScreenWrite = now;
        this.writer.schedule();
      } else {
        // Read again then: the screen may have changed once more by that time.
        for (const id of this.#screens.keys()) if (!this.#dirty.has(id)) this.#dirty.set(id, 0);
        this.#screenTimer = setTimeout(() => this.#readScreens(), wait);
        return;
      }
    }
    if (this.#dirty.size > 0) this.#armScreens();
  }

  /** True when the session's screen differs from the one kept. */
  #readScreen(id: string): boolean {
    const session = this.#runtime.sessions.get(id);
    if (!session) return false;
    const rows = savedScreen(session.visibleLines());
    const kept = this.#screens.get(id);
    if (kept && kept.length === rows.length && kept.every((r, i) => r === rows[i])) return false;
    this.#screens.set(id, rows);
    return true;
  }

  #render(): string {
    // Sessions still printing are read now: the file is being written anyway.
    for (const id of this.#dirty.keys()) this.#readScreen(id);
    const now = performance.now();
    const grace = this.#grace();
    const live: SavedSession[] = [];
    for (const view of this.#runtime.state.sessions) {
      const exited = this.#exitedAt.get(view.id);
      if (view.status === "exited" && (exited === undefined || now - exited > grace)) continue;
      const left = this.#agentLeft.get(view.id);
      live.push(this.#saved(left && now - left.at <= grace ? withAgentOf(view, left.view) : view));
    }
    const names = new Set(live.map((s) => s.name));
    const pending = this.#options.pending().filter((s) => !names.has(s.name));
    return formatState([...live, ...pending.map((s) => ({ ...s, pending: true }))], Date.now());
  }

  #saved(view: SessionView): SavedSession {
    const runtime = this.#runtime;
    const session = runtime.sessions.get(view.id);
    const kept = this.#kept.get(view.id);
    const command = kept
      ? kept.command
      : view.command === runtime.sessions.shell
      ? null
      : view.command;
    const env = savedEnv(session?.envAdded ?? {});
    for (const name of kept?.secrets ?? []) {
      if (!env.some((e) => e.name === name)) env.push({ name, secret: true });
    }
    return {
      name: view.name,
      group: view.group,
      cwd: view.cwd,
      command,
      origin: view.origin,
      env,
      watch: view.origin === null ? [] : [...runtime.declaredWatches(view.name)],
      watcher: view.watcher,
      agent: view.agent,
      conversation: view.conversation,
      screen: this.#screens.get(view.id) ?? [],
      pending: false,
      limitResume: runtime.resumes.saved(view.id) as Record<string, unknown> | null,
      resumePolicy: runtime.resumes.policies.session(view.id),
      groupResumePolicy: runtime.resumes.policies.group(view.group),
    };
  }
}
