/**
 * Finds each agent session's conversation in the agent's own store
 * (docs/restore.md, "Where the conversation id comes from"), so that
 * `lazyshell restore` resumes it with the default config: no hooks, and an
 * agent typed by hand in a shell too. Hooks, where set up, only tell it
 * sooner; a conversation a hook named is never overridden here.
 *
 * For every running session whose foreground agent's manifest has a
 * `resume.store`: its agent process (agent_process.ts: start time, cwd,
 * environment, open files) against the store (conversation_store.ts),
 * matched by conversation_pick.ts. What it finds goes through the same
 * runtime path as a hook's id (`Runtime.noteConversation`), so the state
 * file (recorder.ts) keeps it.
 *
 * When: `delayMs` after an agent is identified or its state changes (a
 * prompt sent, a turn ended: the moments an agent writes its transcript),
 * then every `intervalMs` while such a session runs without a hook's id;
 * never while no agent session runs.
 */

import { messageOf } from "../errors.ts";
import type { ConversationStoreSpec } from "../detect/manifest.ts";
import type { RuntimeChange } from "../model/runtime.ts";
import type { SessionView } from "../model/session.ts";
import type { Runtime } from "../runtime/runtime.ts";
import { openFiles, processGroups, readAgentProcess, startTicksOf } from "./agent_process.ts";
import { pickConversations, type SessionEvidence, START_SLACK_MS } from "./conversation_pick.ts";
import {
  conversationOfProcess,
  conversationsSince,
  type StoredConversation,
} from "./conversation_store.ts";

export interface FinderOptions {
  /** After an agent appears or changes state, look this soon (default 1 s). */
  readonly delayMs?: number;
  /** Then this often while an agent session has no hook's id (default 10 s). */
  readonly intervalMs?: number;
  readonly log?: (line: string) => void;
}

export class ConversationFinder implements Disposable {
  readonly #runtime: Runtime;
  readonly #options: FinderOptions;
  readonly #sub: Disposable;
  #timer: ReturnType<typeof setTimeout> | undefined;
  #due = Infinity;
  #scanning: Promise<void> | null = null;
  #again = false;
  #disposed = false;

  constructor(runtime: Runtime, options: FinderOptions = {}) {
    this.#runtime = runtime;
    this.#options = options;
    this.#sub = runtime.subscribe((change) => this.#onChange(change), {
      name: "conversation finder",
    });
    if (this.#wanted().length > 0) this.#schedule(this.#options.delayMs ?? 1000);
  }

  [Symbol.dispose](): void {
    this.#disposed = true;
    this.#sub[Symbol.dispose]();
    clearTimeout(this.#timer);
  }

  /** Looks now (tests; `lazyshell restore` paths): resolves once every pick is noted. */
  async scan(): Promise<void> {
    if (this.#scanning) {
      this.#again = true;
      return await this.#scanning;
    }
    this.#scanning = this.#scanOnce().catch((error) => {
      this.#options.log?.(`conversation finder: ${messageOf(error)}`);
    }).finally(() => {
      this.#scanning = null;
    });
    await this.#scanning;
    if (this.#again && !this.#disposed) {
      this.#again = false;
      await this.scan();
    }
  }

  #onChange(change: RuntimeChange): void {
    if (change.type !== "added" && change.type !== "updated") return;
    const s = change.session;
    if (s.agent === null || this.#store(s.agent) === null) return;
    const before = change.type === "updated" ? change.previous : null;
    if (
      before === null || before.agent !== s.agent ||
      before.agentStatus?.state !== s.agentStatus?.state
    ) {
      this.#schedule(this.#options.delayMs ?? 1000);
    }
  }

  #schedule(ms: number): void {
    if (this.#disposed) return;
    const at = performance.now() + ms;
    if (at >= this.#due) return;
    clearTimeout(this.#timer);
    this.#due = at;
    this.#timer = setTimeout(() => {
      this.#due = Infinity;
      this.#timer = undefined;
      this.scan().finally(() => {
        // Until each has one; then a new conversation (`/clear`, `/new`) comes with a prompt,
        // whose state change looks again.
        if (this.#wanted().some((s) => s.conversation === null)) {
          this.#schedule(this.#options.intervalMs ?? 10_000);
        }
      });
    }, ms);
  }

  #store(agent: string): ConversationStoreSpec | null {
    return this.#runtime.catalog.get(agent)?.resume?.store ?? null;
  }

  /** Running agent sessions with a store and no hook's id. */
  #wanted(): SessionView[] {
    return this.#runtime.state.sessions.filter((s) =>
      s.status === "running" && s.agent !== null && this.#store(s.agent) !== null &&
      !s.conversation?.source.startsWith("hook ")
    );
  }

  async #scanOnce(): Promise<void> {
    const wanted = this.#wanted();
    if (wanted.length === 0) return;
    const now = Date.now();
    const byAgent = new Map<string, SessionView[]>();
    for (const s of wanted) byAgent.set(s.agent!, [...(byAgent.get(s.agent!) ?? []), s]);
    const groups = await processGroups();
    for (const [agent, views] of byAgent) {
      const spec = this.#store(agent)!;
      const evidence: SessionEvidence[] = [];
      const stored = new Map<string, StoredConversation>();
      for (const view of views) {
        const session = this.#runtime.sessions.get(view.id);
        const fg = session?.foreground();
        if (!session || !fg) continue;
        const proc = readAgentProcess(fg, groups);
        if (proc === null) continue;
        const cwd = proc.cwd ?? view.cwd;
        const facts = { agent, env: proc.env, pid: proc.pid, cwd, now };
        let byProcess: StoredConversation | null = null;
        for (const pid of proc.pids) {
          const ticks = pid === proc.pid ? proc.startTicks : startTicksOf(pid);
          if (ticks === null) continue;
          byProcess = await conversationOfProcess(spec, { ...facts, pid }, ticks);
          if (byProcess) break;
        }
        // The agent's own record is exact: the folder is read only without it.
        const since = proc.startedAt - START_SLACK_MS;
        const found = byProcess ? [byProcess] : await conversationsSince(spec, facts, since);
        for (const c of found) if (!stored.has(c.id)) stored.set(c.id, c);
        evidence.push({
          session: view.id,
          cwd,
          startedAt: proc.startedAt,
          current: view.conversation?.id ?? null,
          byProcess,
          openFiles: byProcess === null && spec.files !== null ? await openFiles(proc.pids) : [],
        });
      }
      if (this.#disposed) return;
      const mine = new Set(evidence.map((e) => e.session));
      const elsewhere = new Set(
        this.#runtime.state.sessions
          .filter((s) => !mine.has(s.id) && s.conversation !== null)
          .map((s) => s.conversation!.id),
      );
      const picks = pickConversations(evidence, [...stored.values()], elsewhere);
      for (const [id, pick] of picks) {
        const c = pick.conversation;
        const view = this.#runtime.view(id);
        if (!view || view.conversation?.source.startsWith("hook ")) continue;
        if (view.conversation?.id === c.id && view.conversation.transcript === c.transcript) {
          continue;
        }
        this.#runtime.noteConversation(id, {
          id: c.id,
          source: c.where,
          cwd: c.cwd,
          transcript: c.transcript,
        });
      }
    }
  }
}
