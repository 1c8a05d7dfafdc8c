/**
 * The runtime's one reducer: engine events in, one RuntimeState and an
 * ordered change out. Pure (no I/O, no clock: times arrive in events), so
 * any behaviour can be tested from a literal state. The Runtime
 * (runtime.ts) feeds it from the store, session detection, the stats
 * command, the watchers and the clients' focus, and publishes each change
 * to its subscribers.
 *
 * Invariants: `seq` grows by one per change; an event that changes nothing
 * produces no change; a view object never changes in place (an unchanged
 * session keeps its identity, so readers compare by reference).
 */

import type { AgentStatus } from "../model/agent.ts";
import type { DetectionEvent } from "../model/events.ts";
import type { ClientFocus, RuntimeChange, RuntimeState, WatcherView } from "../model/runtime.ts";
import {
  type ConversationRef,
  newSessionView,
  type SessionFacts,
  type SessionView,
  type TurnView,
} from "../model/session.ts";

export type { SessionFacts };

/** How often `outputAt` may move: "new output since you looked" needs no finer clock. */
export const OUTPUT_RESOLUTION_MS = 1000;

export type EngineEvent =
  | { readonly type: "session-added"; readonly session: SessionFacts }
  | {
    readonly type: "session-changed";
    readonly id: string;
    readonly name: string;
    readonly group: string | null;
  }
  | {
    readonly type: "session-resized";
    readonly id: string;
    readonly cols: number;
    readonly rows: number;
  }
  | {
    readonly type: "session-exited";
    readonly id: string;
    readonly exitCode: number | null;
    readonly signal: number | null;
    readonly at: number;
  }
  | { readonly type: "session-removed"; readonly id: string }
  /** The session runs a new child in place (`W`): a new view but for its live watcher. */
  | { readonly type: "session-replaced"; readonly session: SessionFacts }
  /** From session detection (session_detector.ts), as it emits them. */
  | DetectionEvent
  | { readonly type: "stats"; readonly id: string; readonly line: string | null }
  | { readonly type: "watcher"; readonly id: string; readonly pattern: string | null }
  | { readonly type: "output"; readonly id: string; readonly at: number }
  /** A hook payload named the agent's conversation (src/ipc/conversation.ts). */
  | {
    readonly type: "conversation";
    readonly id: string;
    readonly conversation: Omit<ConversationRef, "agent">;
  }
  | { readonly type: "problems"; readonly problems: readonly string[] }
  /** A client says what its user looks at: it becomes the most recently active. */
  | { readonly type: "focus"; readonly focus: ClientFocus }
  /** A client left: it looks at nothing any more. */
  | { readonly type: "client-left"; readonly client: string }
  /** The watcher list after a watcher was armed, disarmed or matched. */
  | { readonly type: "watchers"; readonly watchers: readonly WatcherView[] };

export interface Reduced {
  readonly state: RuntimeState;
  /** Null when the event changed nothing. */
  readonly change: RuntimeChange | null;
}

export function reduceRuntime(state: RuntimeState, event: EngineEvent): Reduced {
  switch (event.type) {
    case "session-added": {
      if (state.sessions.some((s) => s.id === event.session.id)) return same(state);
      const session = newSessionView(event.session);
      const seq = state.seq + 1;
      return {
        state: { ...state, seq, sessions: [...state.sessions, session] },
        change: { type: "added", seq, session },
      };
    }
    case "session-removed": {
      const previous = state.sessions.find((s) => s.id === event.id);
      if (!previous) return same(state);
      const seq = state.seq + 1;
      return {
        state: { ...state, seq, sessions: state.sessions.filter((s) => s !== previous) },
        change: { type: "removed", seq, previous },
      };
    }
    case "session-replaced":
      return update(
        state,
        event.session.id,
        (old) => ({ ...newSessionView(event.session), watcher: old.watcher }),
      );
    case "problems": {
      if (sameList(state.problems, event.problems)) return same(state);
      const seq = state.seq + 1;
      return {
        state: { ...state, seq, problems: event.problems },
        change: { type: "problems", seq, problems: event.problems },
      };
    }
    case "focus":
    case "client-left": {
      const client = event.type === "focus" ? event.focus.client : event.client;
      const others = state.focus.filter((f) => f.client !== client);
      const focus = event.type === "focus" ? [...others, event.focus] : others;
      if (sameFocus(state.focus, focus)) return same(state);
      const seq = state.seq + 1;
      return { state: { ...state, seq, focus }, change: { type: "focus", seq, focus } };
    }
    case "watchers": {
      if (sameWatchers(state.watchers, event.watchers)) return same(state);
      const seq = state.seq + 1;
      const watchers = event.watchers;
      return { state: { ...state, seq, watchers }, change: { type: "watchers", seq, watchers } };
    }
    default:
      return update(state, event.id, (s) => apply(s, event));
  }
}

/** The view after one per-session event (the same object when nothing changed). */
function apply(s: SessionView, e: EngineEvent): SessionView {
  switch (e.type) {
    case "session-changed":
      return s.name === e.name && s.group === e.group ? s : { ...s, name: e.name, group: e.group };
    case "session-resized":
      return s.cols === e.cols && s.rows === e.rows ? s : { ...s, cols: e.cols, rows: e.rows };
    case "session-exited": {
      if (s.status === "exited") return s;
      const turn = s.turn.startedAt === null ? s.turn : {
        ...s.turn,
        startedAt: null,
        lastMs: Math.max(0, e.at - s.turn.startedAt),
      };
      return { ...s, status: "exited", exitCode: e.exitCode, signal: e.signal, turn };
    }
    case "agent": {
      if (s.agent === e.agent && s.hasRules === e.hasRules) return s;
      // An id seen before the agent was identified belongs to the agent identified next.
      const c = s.conversation;
      const conversation = c && c.agent === null && e.agent !== null ? { ...c, agent: e.agent } : c;
      return { ...s, agent: e.agent, hasRules: e.hasRules, conversation };
    }
    case "conversation":
      return sameConversation(s.conversation, e.conversation, s.agent)
        ? s
        : { ...s, conversation: { ...e.conversation, agent: s.agent } };
    case "state":
      if (s.agentStatus?.seq === e.status.seq && s.agentStatus.state === e.status.state) return s;
      return { ...s, agentStatus: e.status, turn: nextTurn(s.turn, e.status, e.at) };
    case "capable":
      return s.capable ? s : { ...s, capable: true };
    case "prompt":
      return s.prompt === e.prompt ? s : { ...s, prompt: e.prompt };
    case "stats":
      return s.stats === e.line ? s : { ...s, stats: e.line };
    case "watcher":
      return s.watcher === e.pattern ? s : { ...s, watcher: e.pattern };
    case "output":
      return e.at - s.outputAt < OUTPUT_RESOLUTION_MS ? s : { ...s, outputAt: e.at };
    default:
      return s;
  }
}

/**
 * A turn (A2) starts when the state moves into `working` and ends when it
 * reaches `done`, `idle` or `error`. A `blocked` inside a turn (a permission
 * asked and answered) is part of it: one prompt with one approval is one
 * turn, not two.
 */
function nextTurn(turn: TurnView, status: AgentStatus, at: number): TurnView {
  const since = Math.min(status.since || at, at);
  if (status.state === "working" || status.state === "blocked") {
    if (turn.startedAt !== null || status.state === "blocked") return turn;
    return { ...turn, startedAt: since, count: turn.count + 1 };
  }
  if (turn.startedAt === null) return turn;
  return { ...turn, startedAt: null, lastMs: Math.max(0, since - turn.startedAt) };
}

/** The same conversation: every hook repeats the id, and its source alone is no news. */
function sameConversation(
  a: ConversationRef | null,
  b: Omit<ConversationRef, "agent">,
  agent: string | null,
): boolean {
  return a !== null && a.id === b.id && a.agent === agent && a.cwd === b.cwd &&
    a.transcript === b.transcript;
}

function update(
  state: RuntimeState,
  id: string,
  change: (s: SessionView) => SessionView,
): Reduced {
  const i = state.sessions.findIndex((s) => s.id === id);
  if (i < 0) return same(state);
  const previous = state.sessions[i]!;
  const session = change(previous);
  if (session === previous) return same(state);
  const sessions = state.sessions.slice();
  sessions[i] = session;
  const seq = state.seq + 1;
  return {
    state: { ...state, seq, sessions },
    change: { type: "updated", seq, session, previous },
  };
}

function same(state: RuntimeState): Reduced {
  return { state, change: null };
}

function sameList(a: readonly string[], b: readonly string[]): boolean {
  return a.length === b.length && a.every((x, i) => x === b[i]);
}

function sameFocus(a: readonly ClientFocus[], b: readonly ClientFocus[]): boolean {
  return a.length === b.length && a.every((x, i) => {
    const y = b[i]!;
    return x.client === y.client && x.selected === y.selected && x.terminal === y.terminal;
  });
}

function sameWatchers(a: readonly WatcherView[], b: readonly WatcherView[]): boolean {
  return a.length === b.length && a.every((x, i) => {
    const y = b[i]!;
    return x.session === y.session && x.pattern === y.pattern && x.source === y.source &&
      x.notify === y.notify && x.matches === y.matches;
  });
}
