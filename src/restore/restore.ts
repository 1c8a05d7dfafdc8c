/**
 * Sessions that outlive their server (docs/restore.md). At start-up the
 * server reads the state file its predecessor kept — a torn or corrupt
 * one is set aside under another name, said in one line, and its valid
 * sessions are kept — and the sessions listed there that do not run now
 * become the *pending* ones: offered to the first client that attaches
 * (all, none, or pick) and to `lazyshell restore [--all|NAME...]`. From
 * then on the file follows this server's sessions (recorder.ts), pending
 * ones included until they are restored or dismissed.
 *
 * Invariant: a session is never started twice. A name is restored once
 * (it leaves the pending list in the same turn of the event loop that
 * starts it), and never while a session of that name runs — so a
 * `lazyshell.yml` project started by the server is not duplicated by its
 * saved copy.
 */

import { stateDir } from "../config/paths.ts";
import { messageOf } from "../errors.ts";
import type { Runtime } from "../runtime/runtime.ts";
import type { Session } from "../session/session.ts";
import { type PlanContext, planRestore, type RestorePlan } from "./plan.ts";
import { type RecorderOptions, SessionRecorder } from "./recorder.ts";
import { ConversationFinder, type FinderOptions } from "./conversation_finder.ts";
import { parseState, type SavedSession } from "./state_file.ts";
import { readLegacyResumes } from "./legacy_resumes.ts";

/** `$XDG_STATE_HOME/lazyshell/sessions-<server name>.jsonl`. */
export function stateFile(env: Runtime["env"], server: string): string {
  return `${stateDir(env)}/sessions-${server}.jsonl`;
}

/** One pending session as an offer shows it. */
export interface OfferItem {
  readonly name: string;
  readonly group: string | null;
  /** What restoring it does: `shell in ~/src`, `resumes claude conversation …`. */
  readonly how: string;
}

/** What became of one name asked for. */
export interface RestoreOutcome {
  readonly name: string;
  readonly ok: boolean;
  /** One line: `web: shell in /src (session-4)`, `api: already running, not started again`. */
  readonly text: string;
  /** The new session's id, when one was started. */
  readonly id?: string;
}

export interface RestoreOptions extends Omit<RecorderOptions, "file" | "pending"> {
  readonly file: string;
  /**
   * The file where earlier servers kept pending resumes at usage limits
   * (`limit-resumes-<server>.json`): read once into the saved sessions, then removed.
   */
  readonly legacyResumes?: string;
  /** Timing of the search of the agents' own stores for conversation ids (conversation_finder.ts). */
  readonly finder?: FinderOptions;
}

export interface LoadedState {
  readonly sessions: readonly SavedSession[];
  /** One line, or null: the file was whole (or there was none). */
  readonly problem: string | null;
}

/**
 * Why a state file (or its directory) is not trusted, or null: what it says
 * is run at restore, so, as the runtime directory (src/ipc/private_path.ts),
 * it must be ours and writable by nobody else — not a symlink, owned by
 * `me`, no group or other write bit.
 */
export function untrusted(
  info: Pick<Deno.FileInfo, "isSymlink" | "uid" | "mode">,
  me: number | null,
): string | null {
  if (info.isSymlink) return "it is a symlink";
  if (me !== null && info.uid !== null && info.uid !== me) {
    return `owned by uid ${info.uid}, not ${me}`;
  }
  const mode = (info.mode ?? 0) & 0o777;
  if ((mode & 0o022) !== 0) return `mode ${mode.toString(8)} lets others write it`;
  return null;
}

/** The state file's directory or the file itself when `untrusted` refuses it, and why; else null. */
export function untrustedStatePath(file: string): { path: string; why: string } | null {
  const dir = file.slice(0, file.lastIndexOf("/")) || "/";
  for (const path of [dir, file]) {
    let info: Deno.FileInfo;
    try {
      info = Deno.lstatSync(path);
    } catch {
      continue; // missing: nothing to trust (a read says what else is wrong)
    }
    const why = untrusted(info, Deno.uid());
    if (why !== null) return { path, why };
  }
  return null;
}

/**
 * Reads the state file; a damaged one is renamed aside (its valid sessions
 * are kept), one another user could have written is renamed aside unread.
 */
export function loadState(file: string, now = new Date()): LoadedState {
  const refused = untrustedStatePath(file);
  if (refused !== null) {
    const { path, why } = refused;
    const where = path === file ? `; ${setAside(file, "refused", now)}` : "";
    return {
      sessions: [],
      problem: `Refusing the state ${path === file ? "file" : "directory"} ${path}: ${why}` +
        `${where}; no session offered from it (it must be yours and writable by you alone)`,
    };
  }
  removeTemps(file);
  let text: string;
  try {
    text = Deno.readTextFileSync(file);
  } catch (error) {
    if (error instanceof Deno.errors.NotFound) return { sessions: [], problem: null };
    return { sessions: [], problem: `Cannot read the state file ${file}: ${messageOf(error)}` };
  }
  const parsed = parseState(text);
  if (parsed.problems.length === 0) return { sessions: parsed.sessions, problem: null };
  const where = setAside(file, "corrupt", now);
  const more = parsed.problems.length > 1 ? ` (and ${parsed.problems.length - 1} more)` : "";
  const kept = parsed.sessions.length;
  return {
    sessions: parsed.sessions,
    problem: `The state file ${file} is damaged: ${parsed.problems[0]}${more}; ${where}; ` +
      `${kept} session${kept === 1 ? "" : "s"} kept`,
  };
}

/** Renames the file to `<file>.<why>-<time>`; says where, or why not. */
function setAside(file: string, why: string, now: Date): string {
  const aside = `${file}.${why}-${now.toISOString().replace(/[:.]/g, "-")}`;
  try {
    Deno.renameSync(file, aside);
    return `set aside as ${aside}`;
  } catch (error) {
    return `could not be set aside (${messageOf(error)})`;
  }
}

/** Temporary files of a writer that was killed mid-write: never the state, always garbage. */
function removeTemps(file: string): void {
  const slash = file.lastIndexOf("/");
  const dir = file.slice(0, slash);
  const base = file.slice(slash + 1);
  try {
    for (const entry of Deno.readDirSync(dir)) {
      if (entry.isFile && entry.name.startsWith(`${base}.tmp-`)) {
        Deno.removeSync(`${dir}/${entry.name}`);
      }
    }
  } catch { /* no directory yet */ }
}

export class SessionRestore implements AsyncDisposable {
  /** The one line about a damaged state file, or null. */
  readonly problem: string | null;
  readonly recorder: SessionRecorder;
  /** Each agent session's conversation, from the agent's own store (no hooks needed). */
  readonly finder: ConversationFinder;
  readonly #runtime: Runtime;
  readonly #pending = new Map<string, SavedSession>();
  #problemSaid = false;

  /** Reads the state file, takes the sessions not running as pending, and keeps the file. */
  static start(runtime: Runtime, options: RestoreOptions): SessionRestore {
    const dir = options.file.slice(0, options.file.lastIndexOf("/"));
    try {
      Deno.mkdirSync(dir, { recursive: true, mode: 0o700 });
    } catch { /* the first write says why it cannot write there */ }
    return new SessionRestore(runtime, options, loadState(options.file));
  }

  private constructor(runtime: Runtime, options: RestoreOptions, loaded: LoadedState) {
    this.#runtime = runtime;
    this.problem = loaded.problem;
    const running = new Set(runtime.state.sessions.map((s) => s.name));
    const legacy = options.legacyResumes
      ? readLegacyResumes(options.legacyResumes, options.log)
      : null;
    for (const s of loaded.sessions) {
      if (running.has(s.name)) continue;
      const old = legacy?.get(s.name);
      const adopted = old && old.agent === s.agent && s.limitResume === null;
      this.#pending.set(s.name, adopted ? { ...s, limitResume: old.state } : s);
    }
    // Groups' resume policies at usage limits (docs/limits.md): back at once, for the running too.
    for (const s of loaded.sessions) {
      if (s.group !== null && s.groupResumePolicy !== null) {
        if (runtime.resumes.policies.group(s.group) === null) {
          runtime.resumes.setGroupPolicy(s.group, s.groupResumePolicy);
        }
      }
    }
    this.recorder = new SessionRecorder(runtime, {
      ...options,
      pending: () => [...this.#pending.values()],
    });
    // The file now says what this server runs (and what is pending): a project started, a part set aside.
    this.recorder.changed();
    if (legacy !== null && options.legacyResumes) {
      // Gone once the state file holds what it said (a kill -9 before that reads it again).
      const file = options.legacyResumes;
      void this.recorder.writer.flush().then(() => Deno.remove(file)).catch(() => {});
    }
    this.finder = new ConversationFinder(runtime, {
      ...(options.log ? { log: options.log } : {}),
      ...options.finder,
    });
  }

  /** The saved sessions not restored yet, in their saved order, with what restoring each does. */
  offer(): OfferItem[] {
    const ctx = this.#context();
    return [...this.#pending.values()].map((s) => {
      const plan = planRestore(s, ctx);
      return { name: s.name, group: s.group, how: plan.how };
    });
  }

  /** The damaged-file line for the first client that attaches; null after that (or when whole). */
  unsaidProblem(): string | null {
    if (this.#problemSaid) return null;
    this.#problemSaid = true;
    return this.problem;
  }

  get pendingCount(): number {
    return this.#pending.size;
  }

  /** Restores the named pending sessions (or all): each outcome in one line. */
  restore(which: readonly string[] | "all"): RestoreOutcome[] {
    const names = which === "all" ? [...this.#pending.keys()] : [...new Set(which)];
    const outcomes = names.map((name) => this.#restoreOne(name));
    this.recorder.changed();
    return outcomes;
  }

  /** Drops the named pending sessions (or all) from the offer and the file. */
  forget(which: readonly string[] | "all"): number {
    const names = which === "all" ? [...this.#pending.keys()] : which;
    let n = 0;
    for (const name of names) if (this.#pending.delete(name)) n++;
    if (n > 0) this.recorder.changed();
    return n;
  }

  async [Symbol.asyncDispose](): Promise<void> {
    this.finder[Symbol.dispose]();
    await this.recorder[Symbol.asyncDispose]();
  }

  #restoreOne(name: string): RestoreOutcome {
    const runtime = this.#runtime;
    const existing = runtime.state.sessions.find((s) => s.name === name);
    const saved = this.#pending.get(name);
    if (existing?.status === "running") {
      this.#pending.delete(name);
      return { name, ok: true, text: `${name}: already running, not started again` };
    }
    if (!saved) return notSaved(name);
    const plan = planRestore(saved, this.#context());
    // A listed, exited session of that name is what the saved one replaces.
    if (existing) runtime.sessions.remove(existing.id);
    if (plan.origin !== null) runtime.declareWatches(name, plan.watch);
    let session: Session;
    try {
      session = runtime.createSession(specOf(plan));
    } catch (error) {
      return { name, ok: false, text: `${name}: ${messageOf(error)} (still saved)` };
    }
    const id = session.id;
    if (plan.typed !== undefined) typeAtPrompt(session, plan.typed);
    const c = saved.conversation;
    if (plan.resumed && c) {
      // Its conversation from now on: a server killed again before the agent writes a word
      // still resumes it (hooks and the agent's store take over once they say more).
      runtime.noteConversation(id, {
        id: c.id,
        source: `restored: ${c.source.replace(/^(restored: )+/, "")}`,
        cwd: c.cwd,
        transcript: c.transcript,
      });
    }
    this.#pending.delete(name);
    this.recorder.keep(id, { command: plan.savedCommand, secrets: plan.secrets });
    const notes = [...plan.notes];
    // Its resume policy, and its pending resume at a usage limit: re-armed, typed once the
    // agent is back (docs/limits.md).
    if (saved.resumePolicy !== null) runtime.resumes.setSessionPolicy(id, saved.resumePolicy);
    if (
      saved.limitResume !== null &&
      runtime.resumes.restore(id, { agent: saved.agent, name }, saved.limitResume)
    ) notes.push("its resume at the usage limit's reset is kept");
    if (plan.watcher !== null) {
      try {
        runtime.arm(id, plan.watcher);
      } catch (error) {
        notes.push(`watcher not armed: ${messageOf(error)}`);
      }
    }
    const more = notes.length ? `; ${notes.join("; ")}` : "";
    return { name, ok: true, id, text: `${name}: ${plan.how} (${id})${more}` };
  }

  #context(): PlanContext {
    return planContext(this.#runtime.env, this.#runtime.catalog);
  }
}

/** What a name that is not saved (nor running) comes to. */
export function notSaved(name: string): RestoreOutcome {
  return { name, ok: false, text: `${name}: no saved session of that name` };
}

/** What planning a restore reads: this environment, the agents' manifests, the disk. */
export function planContext(env: Runtime["env"], catalog: Runtime["catalog"]): PlanContext {
  const manifest = (agent: string) => catalog.get(agent);
  const resumeCommand = (agent: string) => manifest(agent)?.resume?.command ?? null;
  return {
    env,
    resumeCommand,
    program: (agent) =>
      resumeCommand(agent)?.trim().split(/\s+/)[0] ??
        manifest(agent)?.identity.processes[0] ?? null,
    isDirectory: (path) => statOf(path)?.isDirectory ?? false,
    exists: (path) => statOf(path) !== null,
    home: env.HOME ?? "/",
  };
}

/** How long a new shell's output must pause before its prompt is taken to be up. */
const PROMPT_QUIET_MS = 200;
/** Typed by then at the latest (a shell that prints nothing still reads its input). */
const PROMPT_WAIT_MS = 5000;

/**
 * Types `line` and Enter into a new shell once its prompt is up (its first
 * output, then a pause): the shell runs it in its foreground, as if the
 * user had typed it. Scripted input, not typing (it clears no ✓, D5).
 */
function typeAtPrompt(session: Session, line: string): void {
  let quiet: ReturnType<typeof setTimeout> | undefined;
  const done = () => {
    clearTimeout(quiet);
    clearTimeout(latest);
    sub[Symbol.dispose]();
  };
  const type = () => {
    done();
    session.write(`${line}\r`, false);
  };
  const latest = setTimeout(type, PROMPT_WAIT_MS);
  const sub = session.on((e) => {
    if (e.type === "exit") done();
    if (e.type !== "output") return;
    clearTimeout(quiet);
    quiet = setTimeout(type, PROMPT_QUIET_MS);
  });
}

function specOf(plan: RestorePlan) {
  return {
    name: plan.name,
    group: plan.group,
    ...(plan.command !== undefined ? { command: plan.command } : {}),
    cwd: plan.cwd,
    env: plan.env,
    origin: plan.origin,
    ...(plan.preface !== undefined ? { preface: plan.preface } : {}),
  };
}

function statOf(path: string): Deno.FileInfo | null {
  try {
    return Deno.statSync(path);
  } catch {
    return null;
  }
}
