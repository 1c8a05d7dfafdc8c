/**
 * The live connection's messages (docs/web.md, "The live connection"):
 * JSON text frames both ways. What the page is told of a session is a
 * projection of the runtime's SessionView; the list's order puts the
 * sessions that need someone first. Pure.
 */

import type { Prompt } from "../model/prompt.ts";
import type { SessionView } from "../model/session.ts";

export interface WebSession {
  readonly id: string;
  readonly name: string;
  readonly group: string | null;
  readonly status: "running" | "exited";
  readonly exitCode: number | null;
  readonly agent: string | null;
  /** Agent state, or null (no agent, or no evidence yet). */
  readonly state: string | null;
  readonly kind: string | null;
  /** Epoch ms the state began. */
  readonly since: number | null;
  readonly msg: string | null;
  readonly prompt: {
    readonly question: string;
    readonly subject: string | null;
    readonly options: readonly string[];
    readonly approve: number | null;
    readonly deny: number | null;
  } | null;
  readonly turn: { readonly startedAt: number | null; readonly lastMs: number | null };
  readonly worktree: string | null;
  readonly cols: number;
  readonly rows: number;
}

export function webSession(view: SessionView): WebSession {
  const s = view.agentStatus;
  return {
    id: view.id,
    name: view.name,
    group: view.group,
    status: view.status,
    exitCode: view.exitCode,
    agent: view.agent,
    state: s?.state ?? null,
    kind: s?.kind ?? null,
    since: s?.since ?? null,
    msg: s?.msg ?? null,
    prompt: view.prompt === null ? null : webPrompt(view.prompt),
    turn: { startedAt: view.turn.startedAt, lastMs: view.turn.lastMs },
    worktree: view.worktree?.branch ?? null,
    cols: view.cols,
    rows: view.rows,
  };
}

function webPrompt(p: Prompt): NonNullable<WebSession["prompt"]> {
  return {
    question: p.question,
    subject: p.subject,
    options: p.options.map((o) => o.label),
    approve: p.approve,
    deny: p.deny,
  };
}

const LIMITED = new Set(["rate_limit", "quota", "overloaded"]);

/** Lower first: blocked, limited, failed, done, working, idle, the rest, exited last. */
export function urgency(s: Pick<WebSession, "status" | "state" | "kind">): number {
  if (s.status === "exited") return 9;
  if (s.state === "blocked") return 0;
  if (s.state === "error") return s.kind !== null && LIMITED.has(s.kind) ? 1 : 2;
  return { done: 3, working: 4, idle: 5 }[s.state ?? ""] ?? 6;
}

// ---- server → page

export type ServerMessage =
  /** First, and again after a token rotation would close it: the whole list. */
  | {
    readonly t: "hello";
    readonly readOnly: boolean;
    /** The server's clock (turn timers are drawn from it). */
    readonly now: number;
    readonly seq: number;
    readonly sessions: readonly WebSession[];
  }
  | { readonly t: "session"; readonly seq: number; readonly session: WebSession }
  | { readonly t: "removed"; readonly seq: number; readonly id: string }
  /** A session's screen from scratch: its size, then scrollback lines and rows to write. */
  | {
    readonly t: "screen";
    readonly id: string;
    readonly cols: number;
    readonly rows: number;
    readonly data: string;
  }
  /** Rows of the watched screen that changed since the last frame. */
  | { readonly t: "rows"; readonly id: string; readonly data: string }
  /** The answer to a request (`answer`, `send`, `diff`): ok with its text, or why not. */
  | { readonly t: "reply"; readonly req: number; readonly ok: boolean; readonly text: string }
  /** The connection ends (token rotated, server ending): the page says why. */
  | { readonly t: "bye"; readonly reason: string };

// ---- page → server

export type PageMessage =
  | { readonly t: "watch"; readonly id: string | null }
  | {
    readonly t: "answer";
    readonly req: number;
    readonly id: string;
    /** 1-based option, as shown. */
    readonly option: number;
    /** The question, subject and option labels the page showed: the server re-checks them. */
    readonly question: string;
    readonly subject?: string | null;
    readonly options: readonly string[];
  }
  | {
    readonly t: "send";
    readonly req: number;
    readonly id: string;
    readonly text: string;
    readonly enter: boolean;
  }
  | { readonly t: "diff"; readonly req: number; readonly id: string };

/** Bytes of text a page may send in one message. */
export const MAX_PAGE_MESSAGE = 64 * 1024;

/** A page's message, checked; throws with a one-line reason. */
export function parsePageMessage(text: string): PageMessage {
  if (text.length > MAX_PAGE_MESSAGE) throw new Error(`message over ${MAX_PAGE_MESSAGE} bytes`);
  const m = JSON.parse(text) as Record<string, unknown>;
  if (typeof m !== "object" || m === null) throw new Error("not an object");
  const str = (k: string, max = 4096): string => {
    const v = m[k];
    if (typeof v !== "string" || v.length > max) throw new Error(`bad ${k}`);
    return v;
  };
  const int = (k: string): number => {
    const v = m[k];
    if (typeof v !== "number" || !Number.isInteger(v) || v < 0 || v > 2 ** 31) {
      throw new Error(`bad ${k}`);
    }
    return v;
  };
  switch (m.t) {
    case "watch":
      return { t: "watch", id: m.id === null ? null : str("id", 64) };
    case "answer": {
      const options = m.options;
      if (
        !Array.isArray(options) || options.length > 64 ||
        !options.every((o) => typeof o === "string" && o.length <= 4096)
      ) {
        throw new Error("bad options");
      }
      return {
        t: "answer",
        req: int("req"),
        id: str("id", 64),
        option: int("option"),
        question: str("question"),
        ...(m.subject === null || typeof m.subject === "string"
          ? { subject: m.subject === null ? null : str("subject", 16 * 1024) }
          : {}),
        options: options as string[],
      };
    }
    case "send":
      return {
        t: "send",
        req: int("req"),
        id: str("id", 64),
        text: str("text", 16 * 1024),
        enter: m.enter === true,
      };
    case "diff":
      return { t: "diff", req: int("req"), id: str("id", 64) };
    default:
      throw new Error(`unknown message type ${JSON.stringify(m.t)}`);
  }
}
