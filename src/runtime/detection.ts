/**
 * The DetectionHub (docs/detection.md): follows every session
 * of a SessionStore and keeps one arbitrated AgentStatus per session.
 *
 * Scheduling (D7): screen classification after output settles (trailing
 * debounce `settleMs`, at most `maxWaitMs` after the first unclassified
 * output, coalesced), at once on OSC 133;A and OSC 7501 records, and
 * synchronously through `classifyNow()` before anything types into a
 * session. Identity comes from the PTY's foreground process (S4); rules
 * read only the rows they need (session/screen_view.ts).
 *
 * Owns: one timer per session at most (settle) plus one for a visible
 * blocker going stale, and a foreground sampler while a declared
 * working/blocked is live, all on the shared timer grid (util/ticker.ts:
 * the settle checks of busy sessions ride the PTY reactor's wake-ups);
 * `dispose` clears them all.
 */

import type { AgentStatus } from "../model/agent.ts";
import type { DetectionEvent, HookEvent } from "../model/events.ts";
import { MID_UPDATE_MAX_MS } from "../session/terminal.ts";
import { initialState, nextCheckAt, reduce } from "../detect/arbiter.ts";
import type { ArbiterState, Evidence } from "../detect/arbiter.ts";
import type { Manifest } from "../detect/manifest.ts";
import { Bursts, type Osc7501Record, RecordLog } from "../detect/osc7501.ts";
import { classify } from "../detect/rules.ts";
import { promptFor, readInput } from "../detect/prompt.ts";
import { equalPrompts, type Prompt } from "../model/prompt.ts";
import { identify, isLauncher } from "../session/identity.ts";
import type { AgentIdentity } from "../session/identity.ts";
import { ticker } from "../util/ticker.ts";
import type { ProcessInfo } from "../model/snapshot.ts";
import type { Session } from "../session/session.ts";
import type { SessionEvent } from "../session/session_events.ts";
import type { SessionStore, StoreEvent } from "../session/store.ts";
import type { Catalog } from "./catalog.ts";

export type { DetectionEvent, HookEvent } from "../model/events.ts";

export interface DetectionOptions {
  readonly now?: () => number;
  /** Quiet time after output before classifying (default 30 ms). */
  readonly settleMs?: number;
  /** Longest delay between output and a classification under steady output (default 100 ms). */
  readonly maxWaitMs?: number;
  /** Longest hold on a half-drawn frame (default MID_UPDATE_MAX_MS; tests lengthen it). */
  readonly midUpdateMaxMs?: number;
}

/** Keys that interrupt a turn: Esc, Ctrl+C (also as kitty keyboard CSI u). */
const INTERRUPT_KEYS = new Set(["\x1b", "\x1b[27u", "\x1b[27;1u", "\x1b[99;5u", "\x03"]);

/** How often the foreground is sampled while a declared state waits for its program (D5). */
const FG_SAMPLE_MS = 250;

/** How often a session with nothing to classify (no agent, no declaration) is identified. */
const IDENTITY_MS = 500;

function isInterrupt(data: string): boolean {
  return INTERRUPT_KEYS.has(data) || data.includes("\x03");
}

interface Tracked {
  readonly session: Session;
  state: ArbiterState;
  agent: string | null;
  manifest: Manifest | null;
  capable: boolean;
  readonly records: RecordLog;
  readonly bursts: Bursts;
  /** Judges a burst still open at the last classification once it may be over. */
  burstCheck: Disposable | null;
  flushQueued: boolean;
  firstOutputAt: number | null;
  lastOutputAt: number;
  settle: Disposable | null;
  recheck: Disposable | null;
  /** Samples the foreground while a declared working/blocked waits for its program to end. */
  fgWatch: Disposable | null;
  exited: boolean;
  /** pid of the last foreground process seen (program exit = the shell is back). */
  foregroundPid: number | null;
  /** The process table's answer at the last classification (same object: same process). */
  foreground: ProcessInfo | null;
  /** When the foreground was last looked at while nothing could be classified. */
  identifiedAt: number;
  /** What the screen asked at the last classification while blocked (issue 15). */
  prompt: Prompt | null;
  /** Since when a settled screen has been held back for being mid-update, or null. */
  midUpdateSince: number | null;
}

export class DetectionHub implements Disposable {
  readonly #store: SessionStore;
  readonly #catalog: Catalog;
  readonly #identities: AgentIdentity[];
  readonly #now: () => number;
  readonly #settleMs: number;
  readonly #maxWaitMs: number;
  readonly #midUpdateMaxMs: number;
  #sessions = new Map<string, Tracked>();
  #listeners = new Set<(e: DetectionEvent) => void>();
  #subscription: Disposable;
  #disposed = false;

  constructor(store: SessionStore, catalog: Catalog, options: DetectionOptions = {}) {
    this.#store = store;
    this.#catalog = catalog;
    this.#identities = catalog.identities();
    this.#now = options.now ?? Date.now;
    this.#settleMs = options.settleMs ?? 30;
    this.#maxWaitMs = options.maxWaitMs ?? 100;
    this.#midUpdateMaxMs = options.midUpdateMaxMs ?? MID_UPDATE_MAX_MS;
    for (const session of store.list()) this.#track(session);
    this.#subscription = store.on((e) => this.#onStore(e));
  }

  /** The arbitrated state; null = nothing to show (plain shell, nothing declared). */
  status(id: string): AgentStatus | null {
    return this.#sessions.get(id)?.state.status ?? null;
  }

  /** The catalogued agent in the session's foreground, or null. */
  agent(id: string): string | null {
    return this.#sessions.get(id)?.agent ?? null;
  }

  /** False → the TUI shows a dim "no status" mark for this agent (A1). */
  hasRules(agent: string): boolean {
    return (this.#catalog.get(agent)?.rules.length ?? 0) > 0;
  }

  /** The session's program asked the OSC 7501 `?` query (and was answered). */
  capable(id: string): boolean {
    return this.#sessions.get(id)?.capable ?? false;
  }

  /** The last OSC 7501 records of a session (at most 256), for "explain". */
  records(id: string): readonly Osc7501Record[] {
    return this.#sessions.get(id)?.records.records ?? [];
  }

  /** What the blocked session asks, as last classified; null unless blocked and readable. */
  prompt(id: string): Prompt | null {
    return this.#sessions.get(id)?.prompt ?? null;
  }

  /** The agent's input box right now ("" empty), or null (no reader, no box on screen). */
  input(id: string): string | null {
    const t = this.#sessions.get(id);
    return t ? readInput(t.manifest?.input ?? null, t.session.screenView()) : null;
  }

  /** A hook event from the hook server (issue 4); latches the session (D4). */
  hook(id: string, event: HookEvent): void {
    const t = this.#sessions.get(id);
    if (!t || this.#disposed) return;
    this.#feed(t, { type: "hook", event });
  }

  /** A fresh synchronous classification, for callers about to type into a session (D7). */
  classifyNow(id: string): AgentStatus | null {
    const t = this.#sessions.get(id);
    if (!t || this.#disposed) return null;
    this.#classify(t, true);
    return t.state.status;
  }

  on(listener: (e: DetectionEvent) => void): Disposable {
    this.#listeners.add(listener);
    return { [Symbol.dispose]: () => this.#listeners.delete(listener) };
  }

  [Symbol.dispose](): void {
    if (this.#disposed) return;
    this.#disposed = true;
    this.#subscription[Symbol.dispose]();
    for (const t of this.#sessions.values()) this.#stopTimers(t);
    this.#sessions.clear();
    this.#listeners.clear();
  }

  #onStore(e: StoreEvent): void {
    if (this.#disposed) return;
    switch (e.type) {
      case "added":
        this.#track(e.session);
        return;
      case "removed": {
        const t = this.#sessions.get(e.id);
        if (t) this.#stopTimers(t);
        this.#sessions.delete(e.id);
        return;
      }
      case "replaced": {
        // A new child in the same session: what was known of the old one goes.
        const t = this.#sessions.get(e.session.id);
        if (t) this.#stopTimers(t);
        this.#sessions.delete(e.session.id);
        this.#track(e.session);
        return;
      }
      case "session": {
        const t = this.#sessions.get(e.session.id);
        if (t) this.#onSession(t, e.event);
        return;
      }
      case "changed":
        return;
    }
  }

  #track(session: Session): void {
    if (this.#sessions.has(session.id)) return;
    const t: Tracked = {
      session,
      state: initialState(),
      agent: null,
      manifest: null,
      capable: false,
      records: new RecordLog(),
      bursts: new Bursts(),
      burstCheck: null,
      flushQueued: false,
      firstOutputAt: null,
      lastOutputAt: 0,
      settle: null,
      recheck: null,
      fgWatch: null,
      exited: session.status !== "running",
      foregroundPid: null,
      foreground: null,
      identifiedAt: -Infinity,
      prompt: null,
      midUpdateSince: null,
    };
    this.#sessions.set(session.id, t);
    if (!t.exited) this.#schedule(t);
  }

  #onSession(t: Tracked, e: SessionEvent): void {
    switch (e.type) {
      case "output":
        if (!t.bursts.empty && !t.session.outputBehind) t.bursts.caughtUp(performance.now());
        this.#schedule(t);
        return;
      case "title":
      case "resize":
      case "alt-screen":
        this.#schedule(t);
        return;
      case "osc7501":
        t.bursts.add(e.payload, performance.now());
        if (!t.flushQueued) {
          t.flushQueued = true;
          // Classify right after the chunk; its records once their burst is over (Bursts).
          queueMicrotask(() => {
            if (!this.#disposed && this.#sessions.get(t.session.id) === t) this.#classify(t);
          });
        }
        return;
      case "osc7501-query":
        if (!t.capable) {
          t.capable = true;
          this.#emit({ type: "capable", id: t.session.id });
        }
        return;
      case "osc133":
        if (e.mark === "A") {
          this.#flushDeclared(t, true);
          this.#feed(t, { type: "prompt" });
          this.#classify(t);
        }
        return;
      case "input":
        // D7: whatever types into a session (keys or ctl send) first gets a
        // fresh state from the output that has not been classified yet.
        if (t.settle !== null && !this.#nothingNew(t)) this.#classify(t, true);
        this.#flushDeclared(t, true); // records written before the keys come first
        if (!e.typed) {
          // An interrupt key from `ctl send` still ends the turn idle (not done).
          if (isInterrupt(e.data)) this.#feed(t, { type: "scripted-interrupt" });
          return;
        }
        this.#feed(t, { type: "typed", interrupt: isInterrupt(e.data) });
        return;
      case "exit":
        this.#stopTimers(t);
        this.#flushDeclared(t, true);
        t.exited = true;
        this.#feed(t, { type: "exit" });
        this.#setAgent(t, null);
        return;
      case "child-notify":
      case "bell":
        return;
    }
  }

  /**
   * Nothing a classification could find: no agent, no declaration, no
   * record waiting, and the same foreground process as last time (the
   * process table answers with the same object). Typing into a shell then
   * costs no classification per key.
   */
  #nothingNew(t: Tracked): boolean {
    return t.manifest === null && t.state.status === null && t.bursts.empty &&
      t.foreground !== null && t.session.foreground() === t.foreground;
  }

  /** Trailing debounce with a maximum wait (D7). */
  #schedule(t: Tracked): void {
    if (t.exited || this.#disposed) return;
    const now = Date.now();
    t.firstOutputAt ??= now;
    t.lastOutputAt = now;
    // One timer per quiet period: output during it only moves lastOutputAt
    // (no clear/set per chunk under a flood); the timer re-arms itself.
    if (t.settle === null) this.#arm(t, this.#settleMs);
  }

  #arm(t: Tracked, wait: number): void {
    t.settle = ticker.after(wait, () => {
      t.settle = null;
      if (this.#disposed || t.firstOutputAt === null) return;
      const now = Date.now();
      const quiet = t.lastOutputAt + this.#settleMs - now;
      const deadline = t.firstOutputAt + this.#maxWaitMs - now;
      if (quiet > 0 && deadline > 0) this.#arm(t, Math.min(quiet, deadline));
      else if (this.#halfDrawn(t, now)) this.#arm(t, this.#settleMs);
      else this.#classify(t);
    });
  }

  /**
   * The program is inside a synchronized update: its frame is half drawn
   * (Codex and opencode wrap every redraw in one; a read cut in the middle
   * of one showed a working agent idle in the captures). Wait for the end,
   * at most midUpdateMaxMs.
   */
  #halfDrawn(t: Tracked, now: number): boolean {
    if (!t.session.midUpdate) {
      t.midUpdateSince = null;
      return false;
    }
    t.midUpdateSince ??= now;
    return now - t.midUpdateSince < this.#midUpdateMaxMs;
  }

  /** `fresh`: someone is about to act on the answer (D7): no identity rate limit. */
  #classify(t: Tracked, fresh = false): void {
    t.settle?.[Symbol.dispose]();
    t.settle = null;
    t.firstOutputAt = null;
    this.#flushDeclared(t);
    if (t.exited) return;
    // No agent, no declaration: no rule can say anything about this screen,
    // only a new program can change that. Look for one at most every
    // IDENTITY_MS (a busy plain session would otherwise pay a foreground
    // lookup and a classification per settle), and once more after the
    // output stops so that a program started meanwhile is not missed.
    if (t.manifest === null && t.state.status === null) {
      const since = performance.now() - t.identifiedAt;
      if (!fresh && since < IDENTITY_MS) {
        t.settle = ticker.after(IDENTITY_MS - since, () => {
          t.settle = null;
          if (!this.#disposed) this.#classify(t);
        });
        return;
      }
      t.identifiedAt = performance.now();
    }
    const fg = t.session.foreground();
    t.foreground = fg;
    // A program that ran in the foreground exited and the shell is back (D5 lifetimes).
    if (
      fg !== null && fg.pid === t.session.pid && t.foregroundPid !== null &&
      t.foregroundPid !== fg.pid
    ) {
      this.#feed(t, { type: "exit" });
    }
    t.foregroundPid = fg?.pid ?? null;
    this.#setAgent(t, fg === null ? null : identify(fg, this.#identities));
    // A launcher (shim, `env`) may exec the agent in place, maybe silently: look again.
    if (t.agent === null && fg !== null && isLauncher(fg)) this.#lookAgain(t);
    this.#feed(t, {
      type: "screen",
      result: classify(t.manifest, t.session.screenView()),
    });
    this.#setPrompt(
      t,
      promptFor(t.manifest?.prompts ?? [], t.state.status, t.session.screenView()),
    );
  }

  #lookAgain(t: Tracked): void {
    t.settle ??= ticker.after(IDENTITY_MS, () => {
      t.settle = null;
      if (!this.#disposed) this.#classify(t, true);
    });
  }

  /** Applies the bursts of records that are over (`end`: the open one too). */
  #flushDeclared(t: Tracked, end = false): void {
    t.flushQueued = false;
    t.burstCheck?.[Symbol.dispose]();
    t.burstCheck = null;
    if (t.bursts.empty) return;
    const now = performance.now();
    for (const records of t.bursts.take(now, t.session.outputBehind, end)) {
      if (records === null || records.length === 0) continue; // over 256 KiB: dropped whole
      t.records.push(records);
      // One record at a time: every state a program declared is seen, in order.
      for (const record of records) this.#feed(t, { type: "declare", records: [record] });
    }
    const due = t.bursts.dueAt();
    if (due === null || t.exited || this.#disposed) return;
    t.burstCheck = ticker.after(Math.max(1, due - now), () => {
      t.burstCheck = null;
      if (!this.#disposed && !t.exited) this.#classify(t);
    });
  }

  #setAgent(t: Tracked, agent: string | null): void {
    if (agent === t.agent) return;
    t.agent = agent;
    t.manifest = this.#catalog.get(agent);
    t.state = { ...t.state, options: { turnEnd: t.manifest?.turnEnd ?? "idle" } };
    this.#feed(t, { type: "agent", agent });
    this.#emit({ type: "agent", id: t.session.id, agent });
  }

  #feed(t: Tracked, e: Evidence): void {
    const previous = t.state.status;
    const now = this.#now();
    t.state = reduce(t.state, e, now);
    const status = t.state.status;
    if (status !== null && status.seq !== previous?.seq) {
      this.#emit({ type: "state", id: t.session.id, status, previous });
    }
    if (status?.state !== "blocked") this.#setPrompt(t, null); // read again on the next block
    this.#armRecheck(t, now);
    this.#watchForeground(t);
  }

  /** Read at each classification while blocked; a change (or none any more) is an event. */
  #setPrompt(t: Tracked, prompt: Prompt | null): void {
    if (equalPrompts(t.prompt, prompt)) return;
    t.prompt = prompt;
    this.#emit({ type: "prompt", id: t.session.id, prompt });
  }

  /**
   * A declared working/blocked ends when its program exits (D5), which a
   * silent program (`printf …; sleep 10`) reports with no output to settle
   * on: sample the foreground every FG_SAMPLE_MS until the state moves.
   */
  #watchForeground(t: Tracked): void {
    const s = t.state.status;
    const live = !t.exited && !this.#disposed && s?.source === "declared" &&
      (s.state === "working" || s.state === "blocked");
    if (!live) {
      t.fgWatch?.[Symbol.dispose]();
      t.fgWatch = null;
      return;
    }
    t.fgWatch ??= ticker.every(FG_SAMPLE_MS, () => {
      if ((t.session.foreground()?.pid ?? null) !== t.foregroundPid) this.#classify(t);
    });
  }

  /** A visible blocker waiting for a hook `working` to go stale needs no output to win. */
  #armRecheck(t: Tracked, now: number): void {
    t.recheck?.[Symbol.dispose]();
    t.recheck = null;
    const at = nextCheckAt(t.state, now);
    if (at === null || this.#disposed) return;
    t.recheck = ticker.after(Math.max(1, at - now), () => {
      t.recheck = null;
      if (!this.#disposed) this.#feed(t, { type: "tick" });
    });
  }

  #stopTimers(t: Tracked): void {
    t.settle?.[Symbol.dispose]();
    t.recheck?.[Symbol.dispose]();
    t.fgWatch?.[Symbol.dispose]();
    t.burstCheck?.[Symbol.dispose]();
    t.settle = null;
    t.recheck = null;
    t.fgWatch = null;
    t.burstCheck = null;
  }

  #emit(e: DetectionEvent): void {
    for (const listener of this.#listeners) {
      try {
        listener(e);
      } catch (error) {
        console.error("lazyshell: detection listener failed:", error);
      }
    }
  }
}
