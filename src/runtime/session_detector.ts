/**
 * One session's detection (docs/detection.md): its arbiter state, the agent in its foreground,
 * its OSC 7501 records and bursts, the prompt it shows while blocked, and the timers that
 * decide when its screen is classified (docs/detection.md, Scheduling: settle debounce with a
 * maximum wait, held while a synchronized update leaves the frame half drawn, OSC 133;A,
 * record bursts, a foreground sampler while a declared working/blocked is live, a recheck for
 * a blocker waiting on a stale hook).
 *
 * One engine, two drivers: live, the DetectionHub (detection.ts) makes one per session of the
 * store on the process's clock and ticker; offline, replay (src/replay/replay.ts) makes one
 * for a capture on a virtual clock (util/virtual_clock.ts) and feeds it the capture's output,
 * input, resizes, exit and hooks at their recorded times. Either way it hears its session's
 * events itself and emits the runtime's events (model/events.ts DetectionEvent) straight into
 * the runtime's reducer. Time is injected: `now` and the `scheduler` are the context's. The
 * pure parts are the arbiter (detect/arbiter.ts), the rules (detect/rules.ts) and the prompt
 * reader (detect/prompt.ts). Disposing it ends its subscription and its timers.
 */

import type { AgentStatus } from "../model/agent.ts";
import type { HookEvent } from "../model/events.ts";
import { initialState, nextCheckAt, reduce } from "../detect/arbiter.ts";
import type { ArbiterState, Evidence } from "../detect/arbiter.ts";
import type { Manifest } from "../detect/manifest.ts";
import { Bursts, type Osc7501Record, RecordLog } from "../detect/osc7501.ts";
import { classify, type RuleResult } from "../detect/rules.ts";
import { parseResetTime } from "../limits/reset_time.ts";
import { promptFor, readInput } from "../detect/prompt.ts";
import { equalPrompts, type Prompt } from "../model/prompt.ts";
import type { Owner } from "../util/guard.ts";
import type { ProcessInfo } from "../model/snapshot.ts";
import type { SessionEvent } from "../session/session_events.ts";
import type { DetectedSession, DetectorContext } from "./detector_context.ts";
import { ForegroundIdentifier } from "./foreground_identity.ts";
import { SettleTimer } from "./settle_timer.ts";

/** Keys that interrupt a turn: Esc, Ctrl+C (also as kitty keyboard CSI u). */
const INTERRUPT_KEYS = new Set(["\x1b", "\x1b[27u", "\x1b[27;1u", "\x1b[99;5u", "\x03"]);

/** How often the foreground is sampled while a declared state waits for its program (D5). */
const FG_SAMPLE_MS = 250;

/** How often a session with nothing to classify (no agent, no declaration) is identified. */
const IDENTITY_MS = 500;

function isInterrupt(data: string): boolean {
  return INTERRUPT_KEYS.has(data) || data.includes("\x03");
}

export class SessionDetector implements Disposable {
  #state: ArbiterState = initialState();
  #agent: string | null = null;
  #manifest: Manifest | null = null;
  #capable = false;
  readonly #records = new RecordLog();
  readonly #bursts = new Bursts();
  /** Judges a burst still open at the last classification once it may be over. */
  #burstCheck: Disposable | null = null;
  #flushQueued = false;
  /** When the screen is classified after output; also the slot of a look again. */
  readonly #settle: SettleTimer;
  #recheck: Disposable | null = null;
  /** Samples the foreground while a declared working/blocked waits for its program to end. */
  #fgWatch: Disposable | null = null;
  #exited: boolean;
  /** pid of the last foreground process seen (program exit = the shell is back). */
  #foregroundPid: number | null = null;
  /** The process table's answer at the last classification (same object: same process). */
  #foreground: ProcessInfo | null = null;
  /** Who the foreground is (foreground_identity.ts: the last answer while it is the same). */
  readonly #identifier = new ForegroundIdentifier();
  /** When the foreground was last looked at while nothing could be classified. */
  #identifiedAt = -Infinity;
  /** What the screen asked at the last classification while blocked (docs/manifests.md "Prompts"). */
  #prompt: Prompt | null = null;
  readonly #subscription: Disposable;
  #disposed = false;
  /** The last reset time read on screen, and its instant. */
  #resets: { readonly text: string; readonly at: number | null } | null = null;

  /** Whose its timers are (util/guard.ts): a failure there waits for the next output. */
  readonly #owner: Owner;

  constructor(readonly session: DetectedSession, private readonly ctx: DetectorContext) {
    this.#owner = { name: `${session.id} detection` };
    this.#settle = new SettleTimer(session, ctx, this.#owner, () => {
      if (!this.#disposed) this.#classify();
    });
    this.#exited = session.status !== "running";
    this.#subscription = session.on((e) => this.#onSession(e));
    if (!this.#exited) this.#schedule();
  }

  get status(): AgentStatus | null {
    return this.#state.status;
  }

  get agent(): string | null {
    return this.#agent;
  }

  get capable(): boolean {
    return this.#capable;
  }

  get records(): readonly Osc7501Record[] {
    return this.#records.records;
  }

  get prompt(): Prompt | null {
    return this.#prompt;
  }

  /** The agent's input box right now ("" empty), or null (no reader, no box on screen). */
  input(): string | null {
    return readInput(this.#manifest?.input ?? null, this.session.screenView());
  }

  hook(event: HookEvent): void {
    if (!this.#disposed) this.#feed({ type: "hook", event });
  }

  /**
   * The catalog was replaced: the agent's manifest is looked up again (its
   * rules and `hasRules` may have changed), and the session identified and
   * classified afresh (a new manifest may name the program it runs).
   */
  catalogChanged(): void {
    if (this.#agent !== null) {
      this.#manifest = this.ctx.catalog.get(this.#agent);
      this.#state = { ...this.#state, options: { turnEnd: this.#manifest?.turnEnd ?? "idle" } };
      const hasRules = (this.#manifest?.rules.length ?? 0) > 0;
      this.ctx.emit({ type: "agent", id: this.session.id, agent: this.#agent, hasRules });
    }
    if (!this.#exited && !this.#disposed) this.#classify(true);
  }

  /** A fresh synchronous classification, for callers about to type into the session (D7). */
  classifyNow(): AgentStatus | null {
    if (!this.#disposed) this.#classify(true);
    return this.#state.status;
  }

  /** Ends the subscription and every timer: nothing runs or is armed any more. */
  [Symbol.dispose](): void {
    if (this.#disposed) return;
    this.#disposed = true;
    this.#subscription[Symbol.dispose]();
    this.#stopTimers();
  }

  #onSession(e: SessionEvent): void {
    if (this.#disposed) return;
    switch (e.type) {
      case "output":
        if (!this.#bursts.empty && !this.session.outputBehind) {
          this.#bursts.caughtUp(this.ctx.now());
        }
        this.#schedule();
        return;
      case "title":
      case "resize":
      case "alt-screen":
        this.#schedule();
        return;
      case "osc7501":
        this.#bursts.add(e.payload, this.ctx.now());
        if (!this.#flushQueued) {
          this.#flushQueued = true;
          // Classify right after the chunk; its records once their burst is over (Bursts).
          this.ctx.scheduler.defer(() => {
            if (!this.#disposed) this.#classify();
          });
        }
        return;
      case "osc7501-query":
        if (!this.#capable) {
          this.#capable = true;
          this.ctx.emit({ type: "capable", id: this.session.id });
        }
        return;
      case "osc133":
        if (e.mark === "A") {
          this.#flushDeclared(true);
          this.#feed({ type: "prompt" });
          this.#classify();
        }
        return;
      case "input":
        // D7: whatever types into a session (keys or ctl send) first gets a
        // fresh state from the output that has not been classified yet.
        if (this.#settle.armed && !this.#nothingNew()) this.#classify(true);
        this.#flushDeclared(true); // records written before the keys come first
        if (!e.typed) {
          // An interrupt key from `ctl send` still ends the turn idle (not done).
          if (isInterrupt(e.data)) this.#feed({ type: "scripted-interrupt" });
          return;
        }
        this.#feed({ type: "typed", interrupt: isInterrupt(e.data) });
        return;
      case "exit":
        this.#stopTimers();
        this.#flushDeclared(true);
        this.#exited = true;
        this.#feed({ type: "exit" });
        this.#setAgent(null);
        return;
      case "child-notify":
      case "bell":
        return;
    }
  }

  #stopTimers(): void {
    this.#settle.cancel();
    this.#recheck?.[Symbol.dispose]();
    this.#fgWatch?.[Symbol.dispose]();
    this.#burstCheck?.[Symbol.dispose]();
    this.#recheck = null;
    this.#fgWatch = null;
    this.#burstCheck = null;
  }

  /**
   * Nothing a classification could find: no agent, no declaration, no
   * record waiting, and the same foreground process as last time (the
   * process table answers with the same object). Typing into a shell then
   * costs no classification per key.
   */
  #nothingNew(): boolean {
    return this.#manifest === null && this.#state.status === null && this.#bursts.empty &&
      this.#foreground !== null && this.session.foreground() === this.#foreground;
  }

  /** Trailing debounce with a maximum wait (D7): settle_timer.ts. */
  #schedule(): void {
    if (this.#exited || this.#disposed) return;
    this.#settle.output();
  }

  /**
   * A usage limit's reset time as an instant (docs/limits.md), read once: the
   * same words on screen keep the instant first read from them (a time of day
   * read again after it passed would be tomorrow's).
   */
  #resolveResets(result: RuleResult): RuleResult {
    const text = result.resets;
    if (text === undefined) return result;
    if (text === null) return { ...result, resetsAt: null };
    if (this.#resets?.text !== text) {
      const epoch = this.ctx.epochAt?.(this.ctx.now()) ?? this.ctx.now();
      const tz = this.session.env?.["TZ"]?.replace(/^:/, "") || this.ctx.timeZone || null;
      this.#resets = { text, at: parseResetTime(text, epoch, tz) };
    }
    return { ...result, resetsAt: this.#resets.at };
  }

  /** `fresh`: someone is about to act on the answer (D7): no identity rate limit. */
  #classify(fresh = false): void {
    this.#settle.reset();
    this.#flushDeclared();
    if (this.#exited) return;
    // No agent, no declaration: no rule can say anything about this screen,
    // only a new program can change that. Look for one at most every
    // IDENTITY_MS (a busy plain session would otherwise pay a foreground
    // lookup and a classification per settle), and once more after the
    // output stops so that a program started meanwhile is not missed.
    if (this.#manifest === null && this.#state.status === null) {
      const since = this.ctx.now() - this.#identifiedAt;
      if (!fresh && since < IDENTITY_MS) {
        this.#settle.retry(IDENTITY_MS - since, () => {
          if (!this.#disposed) this.#classify();
        });
        return;
      }
      this.#identifiedAt = this.ctx.now();
    }
    const fg = this.session.foreground();
    this.#foreground = fg;
    // A program that ran in the foreground exited and the shell is back (D5 lifetimes).
    if (
      fg !== null && fg.pid === this.session.pid && this.#foregroundPid !== null &&
      this.#foregroundPid !== fg.pid
    ) {
      this.#feed({ type: "exit" });
    }
    this.#foregroundPid = fg?.pid ?? null;
    const who = fg === null ? null : this.#identifier.of(fg, this.ctx.identities);
    this.#setAgent(who?.agent ?? null);
    // A launcher (shim, `env`) may exec the agent in place, maybe silently: look again.
    if (this.#agent === null && who?.launcher) this.#lookAgain();
    const result = classify(this.#manifest, this.session.screenView());
    this.#feed({ type: "screen", result: result && this.#resolveResets(result) });
    this.#setPrompt(
      promptFor(this.#manifest?.prompts ?? [], this.#state.status, this.session.screenView()),
    );
    this.ctx.classified?.(this.session.id);
  }

  #lookAgain(): void {
    this.#settle.retry(IDENTITY_MS, () => {
      if (!this.#disposed) this.#classify(true);
    });
  }

  /** Applies the bursts of records that are over (`end`: the open one too). */
  #flushDeclared(end = false): void {
    this.#flushQueued = false;
    this.#burstCheck?.[Symbol.dispose]();
    this.#burstCheck = null;
    if (this.#bursts.empty) return;
    const now = this.ctx.now();
    for (const records of this.#bursts.take(now, this.session.outputBehind, end)) {
      if (records === null || records.length === 0) continue; // over 256 KiB: dropped whole
      this.#records.push(records);
      // One record at a time: every state a program declared is seen, in order.
      for (const record of records) this.#feed({ type: "declare", records: [record] });
    }
    const due = this.#bursts.dueAt();
    if (due === null || this.#exited || this.#disposed) return;
    this.#burstCheck = this.ctx.scheduler.after(Math.max(1, due - now), () => {
      this.#burstCheck = null;
      if (!this.#disposed && !this.#exited) this.#classify();
    }, this.#owner);
  }

  #setAgent(agent: string | null): void {
    if (agent === this.#agent) return;
    this.#agent = agent;
    this.#manifest = this.ctx.catalog.get(agent);
    this.#state = { ...this.#state, options: { turnEnd: this.#manifest?.turnEnd ?? "idle" } };
    this.#feed({ type: "agent", agent });
    const hasRules = (this.#manifest?.rules.length ?? 0) > 0;
    this.ctx.emit({ type: "agent", id: this.session.id, agent, hasRules });
  }

  #feed(e: Evidence): void {
    const previous = this.#state.status;
    const now = this.ctx.now();
    this.#state = reduce(this.#state, e, now);
    const status = this.#state.status;
    // Read again on the next block; gone before the state that ends it, so no reader of the
    // change stream sees a state that is not blocked with the last block's prompt.
    if (status?.state !== "blocked") this.#setPrompt(null);
    if (status !== null && status.seq !== previous?.seq) {
      this.ctx.emit({ type: "state", id: this.session.id, status, at: now });
    }
    this.#armRecheck(now);
    this.#watchForeground();
  }

  /** Read at each classification while blocked; a change (or none any more) is an event. */
  #setPrompt(prompt: Prompt | null): void {
    if (equalPrompts(this.#prompt, prompt)) return;
    this.#prompt = prompt;
    this.ctx.emit({ type: "prompt", id: this.session.id, prompt });
  }

  /**
   * A declared working/blocked ends when its program exits (D5), which a
   * silent program (`printf …; sleep 10`) reports with no output to settle
   * on: sample the foreground every FG_SAMPLE_MS until the state moves.
   */
  #watchForeground(): void {
    const s = this.#state.status;
    const live = !this.#exited && !this.#disposed && s?.source === "declared" &&
      (s.state === "working" || s.state === "blocked");
    if (!live) {
      this.#fgWatch?.[Symbol.dispose]();
      this.#fgWatch = null;
      return;
    }
    this.#fgWatch ??= this.ctx.scheduler.every(FG_SAMPLE_MS, () => {
      if ((this.session.foreground()?.pid ?? null) !== this.#foregroundPid) this.#classify();
    }, this.#owner);
  }

  /** A visible blocker waiting for a hook `working` to go stale needs no output to win. */
  #armRecheck(now: number): void {
    this.#recheck?.[Symbol.dispose]();
    this.#recheck = null;
    const at = nextCheckAt(this.#state, now);
    if (at === null || this.#disposed) return;
    this.#recheck = this.ctx.scheduler.after(Math.max(1, at - now), () => {
      this.#recheck = null;
      if (!this.#disposed) this.#feed({ type: "tick" });
    }, this.#owner);
  }
}
