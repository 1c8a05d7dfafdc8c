/**
 * The session engine (docs/architecture.md, Sessions): creates, lists, renames, groups and kills
 * sessions. Ids are `session-N`, never reused within a run. Names are
 * unique, so a target is an id or an exact name.
 *
 * Owns: every Session and its PTY child. Disposing the store ends every
 * child and waits for it (no orphans). Must not import tui/ or runtime/.
 */

import { UserError } from "../errors.ts";
import type { SessionFacts, WorktreeInfo } from "../model/session.ts";
import { fault, type Owner } from "../util/guard.ts";
import { basename } from "./identity.ts";
import { checkGroupName, checkSessionName } from "../model/names.ts";
import { checkCommand, checkDirectory, checkShell, checkSize } from "./launch_checks.ts";
import { childEnv, envAdded, withUpdates } from "./launch_env.ts";
import { withPrelude } from "./prelude.ts";
import { type ProcessTable, processTableFor } from "./procinfo.ts";
import { type Pty, type PtySpawn, spawnPty } from "./pty.ts";
import { Session } from "./session.ts";
import type { SessionEvent } from "./session_events.ts";
import { DEFAULT_SCROLLBACK } from "./terminal.ts";

export interface SessionSpec {
  /** A command string run through `$SHELL -c`; default: the shell itself. */
  readonly command?: string;
  readonly cwd?: string;
  readonly env?: Readonly<Record<string, string>>;
  readonly name?: string;
  readonly group?: string | null;
  readonly cols?: number;
  readonly rows?: number;
  /** The project file that declares this session (S5). */
  readonly origin?: string | null;
  /** Text written into the emulator before the child's output (a restored session's last screen). */
  readonly preface?: string;
  /** The git worktree made for this session (kept in its facts). */
  readonly worktree?: WorktreeInfo | null;
  /**
   * A command run first in the session's PTY, its output on screen (a new
   * worktree's setup): the command starts only once it succeeded; when it
   * fails the session ends with its exit code. Run by `sh -c`.
   */
  readonly prelude?: string;
}

export interface StoreOptions {
  readonly shell?: string;
  readonly cwd?: string;
  /** Base environment for children (default: this process's). */
  readonly env?: Readonly<Record<string, string>>;
  readonly cols?: number;
  readonly rows?: number;
  readonly scrollback?: number;
  /** Hook socket path of a session (S3/H1). */
  readonly socketPath?: (id: string) => string;
  readonly processes?: ProcessTable;
  /** Injected for tests; defaults to node-pty. */
  readonly spawn?: (spec: PtySpawn) => Pty;
}

/** What the config sets for new sessions (Runtime.reconfigure changes it; running ones keep theirs). */
export interface StoreDefaults {
  /** null: `$SHELL`. */
  readonly shell: string | null;
  readonly cols: number;
  readonly rows: number;
  readonly scrollback: number;
}

/** What is about to be spawned: a launch hook may adjust the env or the command (H1, H3). */
export interface Launch {
  readonly id: string;
  /** The command string (empty: the shell itself). */
  readonly command: string;
  readonly env: Readonly<Record<string, string>>;
}
export type LaunchHook = (launch: Launch) => Launch;

export type StoreEvent =
  | { readonly type: "added"; readonly session: Session }
  | { readonly type: "changed"; readonly session: Session }
  | { readonly type: "removed"; readonly id: string }
  /** The session (same id, name, place) runs a new child: `respawn()`. */
  | { readonly type: "replaced"; readonly session: Session }
  | { readonly type: "session"; readonly session: Session; readonly event: SessionEvent };

/**
 * The sessions as a consumer of the runtime acts on them (a client's TUI, the control verbs,
 * the state file): their handles and the store's verbs, but not its events nor its launch
 * hooks — consumers follow the runtime's change stream (docs/architecture.md).
 */
export type SessionHandles = Pick<
  SessionStore,
  | "cwd"
  | "shell"
  | "create"
  | "respawn"
  | "list"
  | "get"
  | "find"
  | "resolve"
  | "inGroup"
  | "rename"
  | "setGroup"
  | "kill"
  | "remove"
>;

export class SessionStore implements Disposable, AsyncDisposable {
  #sessions = new Map<string, Session>();
  #nextId = 1;
  #listeners = new Set<(event: StoreEvent) => void>();
  #launchHooks: LaunchHook[] = [];
  /** The attaching client's variables (update_environment): set, or null for removed. */
  #updates: Readonly<Record<string, string | null>> = {};
  #options: StoreOptions;
  readonly #processes: ProcessTable;

  constructor(options: StoreOptions = {}) {
    this.#options = options;
    this.#processes = options.processes ?? processTableFor();
  }

  /** New defaults for sessions created from now on (the running ones keep theirs). */
  configure(defaults: StoreDefaults): void {
    const { shell: _, ...rest } = this.#options;
    const { shell, ...sizes } = defaults;
    this.#options = { ...rest, ...sizes, ...(shell === null ? {} : { shell }) };
  }

  /** Where sessions start unless told otherwise. */
  get cwd(): string {
    return this.#options.cwd ?? Deno.cwd();
  }

  get shell(): string {
    return this.#options.shell ?? this.#options.env?.SHELL ?? Deno.env.get("SHELL") ?? "/bin/sh";
  }

  on(listener: (event: StoreEvent) => void): Disposable {
    this.#listeners.add(listener);
    return { [Symbol.dispose]: () => this.#listeners.delete(listener) };
  }

  /**
   * Adjusts every later launch (hook socket env, per-launch hook injection)
   * just before the child is spawned; the session keeps its given command.
   */
  addLaunchHook(hook: LaunchHook): Disposable {
    this.#launchHooks.push(hook);
    return {
      [Symbol.dispose]: () => (this.#launchHooks = this.#launchHooks.filter((h) => h !== hook)),
    };
  }

  /** Starts a session; throws UserError for a bad cwd, size, name, command or shell. */
  create(spec: SessionSpec = {}): Session {
    const cwd = spec.cwd ?? this.#options.cwd ?? Deno.cwd();
    checkDirectory(cwd);
    const cols = spec.cols ?? this.#options.cols ?? 120;
    const rows = spec.rows ?? this.#options.rows ?? 32;
    checkSize(cols, rows);
    if (spec.group != null) checkGroupName(spec.group);
    const command = spec.command?.trim() || "";
    const path = spec.env?.PATH ?? this.#baseEnv().PATH;
    checkShell(this.shell, path);
    if (command) checkCommand(command, path);
    const id = `session-${this.#nextId}`;
    const name = spec.name
      ? this.#checkName(spec.name)
      : this.#uniqueName(defaultName(command, this.shell));
    const session = this.#spawn(id, name, command, cwd, cols, rows, spec);
    this.#nextId++;
    this.#emit({ type: "added", session });
    return session;
  }

  /**
   * Starts an exited session again in place (`W`): the same id, name, group
   * and place in the list, a new child from `spec` (its command, cwd, env).
   * The old emulator and its scrollback go with the old child.
   */
  respawn(target: string, spec: SessionSpec = {}): Session {
    const old = this.resolve(target);
    if (old.status === "running") throw new UserError(`${old.id} is still running`);
    const cwd = spec.cwd ?? old.cwd;
    checkDirectory(cwd);
    const command = spec.command?.trim() || "";
    const session = this.#spawn(
      old.id,
      old.name,
      command,
      cwd,
      spec.cols ?? old.cols,
      spec.rows ?? old.rows,
      {
        ...spec,
        group: spec.group === undefined ? old.group : spec.group,
        origin: spec.origin === undefined ? old.origin : spec.origin,
      },
    );
    old[Symbol.dispose]();
    this.#emit({ type: "replaced", session });
    return session;
  }

  #spawn(
    id: string,
    name: string,
    command: string,
    cwd: string,
    cols: number,
    rows: number,
    spec: SessionSpec,
  ): Session {
    const base = this.#baseEnv();
    const socket = this.#options.socketPath?.(id) ?? "";
    let launch: Launch = { id, command, env: childEnv(base, id, spec.env, socket) };
    for (const hook of this.#launchHooks) launch = hook(launch);
    const env = launch.env;
    const run = spec.prelude ? withPrelude(spec.prelude, launch.command) : launch.command;
    const args = run ? ["-c", run] : [];
    const pty = (this.#options.spawn ?? spawnPty)({ file: this.shell, args, cwd, env, cols, rows });
    const session = new Session(
      {
        id,
        name,
        group: spec.group ?? null,
        command: command || this.shell,
        cwd,
        worktree: spec.worktree ?? null,
        env,
        envAdded: envAdded(spec.env, base),
        origin: spec.origin ?? null,
        cols,
        rows,
        scrollback: this.#options.scrollback ?? DEFAULT_SCROLLBACK,
        ...(spec.preface ? { preface: spec.preface } : {}),
      },
      pty,
      this.#processes,
    );
    // Map order is insertion order: a respawned session keeps its place.
    this.#sessions.set(id, session);
    session.on((event) => {
      this.#emit({ type: "session", session, event });
      if (event.type === "exit") this.#emit({ type: "changed", session });
    });
    return session;
  }

  list(): Session[] {
    return [...this.#sessions.values()];
  }

  get(id: string): Session | undefined {
    return this.#sessions.get(id);
  }

  /** Resolves a target: an id or an exact name. */
  find(target: string): Session | undefined {
    return this.#sessions.get(target) ?? this.list().find((s) => s.name === target);
  }

  /** Like find, but a missing target is a UserError. */
  resolve(target: string): Session {
    const session = this.find(target);
    if (!session) throw new UserError(`No session with id or name: ${target}`);
    return session;
  }

  inGroup(group: string): Session[] {
    return this.list().filter((s) => s.group === group);
  }

  rename(target: string, name: string): Session {
    const session = this.resolve(target);
    if (session.name !== name) session.name = this.#checkName(name);
    this.#emit({ type: "changed", session });
    return session;
  }

  setGroup(target: string, group: string | null): Session {
    const session = this.resolve(target);
    if (group !== null) checkGroupName(group);
    session.group = group;
    this.#emit({ type: "changed", session });
    return session;
  }

  /** Ends the process; the session stays listed as exited. */
  kill(target: string, signal: Deno.Signal = "SIGHUP"): Session {
    const session = this.resolve(target);
    session.kill(signal);
    return session;
  }

  /** Forgets an exited session (the UI's "remove"); a running one is killed first. */
  remove(target: string): void {
    const session = this.resolve(target);
    session[Symbol.dispose]();
    this.#sessions.delete(session.id);
    this.#emit({ type: "removed", id: session.id });
  }

  /** What the store knows of a session (the runtime's state adds what detection finds). */
  facts(session: Session): SessionFacts {
    return {
      id: session.id,
      name: session.name,
      group: session.group,
      command: session.command,
      cwd: session.cwd,
      worktree: session.worktree,
      pid: session.pid,
      cols: session.cols,
      rows: session.rows,
      status: session.status,
      exitCode: session.exitCode,
      signal: session.signal,
      createdAt: session.createdAt,
      origin: session.origin,
    };
  }

  /**
   * Ends every child and what it started (Session.end: SIGHUP, SIGTERM,
   * SIGKILL, bounded), exited sessions' leftovers included, then frees the
   * emulators.
   */
  async [Symbol.asyncDispose](): Promise<void> {
    await Promise.all(this.list().map((s) => s.end()));
    this[Symbol.dispose]();
  }

  /** Synchronous last resort: SIGKILL every child and what it started, and free everything. */
  [Symbol.dispose](): void {
    for (const s of this.#sessions.values()) s[Symbol.dispose]();
    this.#sessions.clear();
    this.#listeners.clear();
  }

  /**
   * The variables new sessions take from the client that attached last
   * (src/model/update_env.ts): a value sets one, null removes it. Running
   * sessions keep theirs; a spec's own env still wins.
   */
  updateEnvironment(updates: Readonly<Record<string, string | null>>): void {
    this.#updates = { ...updates };
  }

  #baseEnv(): Record<string, string> {
    return withUpdates(this.#options.env ?? Deno.env.toObject(), this.#updates);
  }

  #checkName(name: string): string {
    const trimmed = checkSessionName(name);
    if (this.list().some((s) => s.name === trimmed)) {
      throw new UserError(`A session is already named ${trimmed}`);
    }
    return trimmed;
  }

  #uniqueName(base: string): string {
    const taken = new Set(this.list().map((s) => s.name));
    if (!taken.has(base)) return base;
    for (let n = 2;; n++) if (!taken.has(`${base}-${n}`)) return `${base}-${n}`;
  }

  /** Each listener hears every event: one that throws fails alone (util/guard.ts). */
  #emit(event: StoreEvent): void {
    for (const listener of this.#listeners) {
      try {
        listener(event);
      } catch (error) {
        fault(STORE_LISTENER, `"${event.type}" listener`, error);
      }
    }
  }
}

const STORE_LISTENER: Owner = { name: "session store" };

function defaultName(command: string, shell: string): string {
  const word = command.split(/\s+/)[0] ?? "";
  const name = basename(word || shell).replace(/[^\w.+-]/g, "");
  return !name || /^session-\d+$/.test(name) ? "shell" : name;
}
