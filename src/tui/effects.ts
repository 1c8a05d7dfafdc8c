/**
 * The effect runner: carries out what the reducer asked for against the
 * runtime (sessions, focus, watchers) and the plugin tabs. Failures that
 * are the user's (bad name, bad pattern) come back as a message event.
 */

import { messageOf, UserError } from "../errors.ts";
import { encodeLegacyMouse, encodeSgrMouse, keyBytes, type MouseEvent } from "./core/keys.ts";
import type { Tab } from "./core/tab.ts";
import type { Runtime } from "../runtime/runtime.ts";
import { MAX_COPY_BYTES } from "./clipboard.ts";
import { agentChoices, knownAgentChoices, launchAgent } from "../runtime/launch.ts";
import { promptText } from "../runtime/first_prompt.ts";
import type { TuiEffect, TuiEvent } from "./core/events.ts";
import { answerPrompt } from "../control/answer.ts";
import type { Choice, Prompt } from "../model/prompt.ts";
import type { SessionRestore } from "../restore/restore.ts";
import { offerEvent, runRestore } from "./restore_effects.ts";
import { finishSessionWorktree } from "./worktree_effects.ts";
import { runLimitEffect } from "./limit_effects.ts";
import { answerRemote, attachRemote, type RemoteContext } from "./remote_effects.ts";

export interface EffectContext {
  readonly runtime: Runtime;
  /** This client's id (focus and session sizes are per client). */
  readonly client: string;
  /** Where this client's new sessions start (null: the runtime's directory). */
  readonly cwd: string | null;
  readonly tabs: () => readonly Tab[];
  dispatch(event: TuiEvent): void;
  /** The size session `id` gets here (its tile's inside when tiled); without id, the pane's. */
  paneSize(id?: string): { cols: number; rows: number };
  /**
   * The session cell at the top-left of session `id`'s pane here: the pane
   * shows a window of a bigger screen (src/tui/core/view/pane_window.ts).
   */
  windowOf?(id: string): { top: number; left: number };
  /** The area plugin tabs draw in (the whole screen under the tab bar). */
  bodySize(): { width: number; height: number };
  /** Current scrollback offset of a session's view. */
  scrollOf(id: string): number;
  quit(code: number): void;
  /** Leaves this client; the sessions keep running. */
  detach(): void;
  /** Puts text on the clipboard of this client's terminal (OSC 52). */
  clipboard(text: string): void;
  /** The sessions an earlier server saved (null: this runtime keeps none). */
  readonly restore: SessionRestore | null;
  /** Other hosts' sessions: answering and attaching them (remote_effects.ts). */
  readonly remote?: RemoteContext;
}

const PASTE_END = "\x1b[201~";

export function runEffect(ctx: EffectContext, fx: TuiEffect): void {
  const { runtime } = ctx;
  const sessions = runtime.sessions;
  try {
    switch (fx.type) {
      case "send-key": {
        const s = sessions.get(fx.id);
        if (!s) return;
        claim(ctx, fx.id);
        s.write(keyBytes(fx.key, s.inputModes().applicationCursorKeys));
        return;
      }
      case "paste": {
        const s = sessions.get(fx.id);
        if (!s) return;
        claim(ctx, fx.id);
        const text = fx.text.replaceAll(PASTE_END, "");
        s.write(
          s.inputModes().bracketedPaste ? `\x1b[200~${text}${PASTE_END}` : text,
        );
        return;
      }
      case "mouse": {
        const s = sessions.get(fx.id);
        if (!s) return;
        const modes = s.inputModes();
        if (!wants(modes.mouseTracking, fx.event)) {
          // A child that did not ask for the mouse: the wheel scrolls its scrollback.
          if (fx.event.kind === "wheel") scroll(ctx, fx.id, fx.event.button < 0 ? 3 : -3);
          return;
        }
        // Pane cells are the session's through this client's window of its screen.
        const w = ctx.windowOf?.(fx.id) ?? { top: 0, left: 0 };
        const x = fx.x + w.left;
        const y = fx.y + w.top;
        if (x >= s.cols || y >= s.rows) return;
        const bytes = modes.mouseEncoding === "DEFAULT"
          ? encodeLegacyMouse(fx.event, x, y)
          : encodeSgrMouse(fx.event, x, y);
        if (bytes) s.write(bytes);
        return;
      }
      case "create": {
        const s = runtime.createSession({
          ...ctx.paneSize(),
          ...(ctx.cwd !== null ? { cwd: ctx.cwd } : {}),
        });
        claim(ctx, s.id);
        ctx.dispatch({ type: "created", id: s.id });
        return;
      }
      case "new-agent-form": {
        const folder = ctx.cwd ?? sessions.cwd;
        ctx.dispatch({
          type: "new-agent-form",
          folder,
          agents: knownAgentChoices(runtime),
          branchPrefix: runtime.config.worktrees.branch_prefix,
        });
        // Detected again each time: a CLI installed meanwhile shows up.
        void agentChoices(runtime).then(
          (agents) => ctx.dispatch({ type: "agent-choices", agents }),
          (error) => ctx.dispatch({ type: "message", text: messageOf(error), error: true }),
        );
        return;
      }
      case "launch-agent":
        void launch(ctx, fx);
        return;
      case "kill": {
        const what = fx.confirmed ? null : worthAsking(ctx, fx.id);
        if (what !== null) return ctx.dispatch({ type: "confirm-kill", id: fx.id, what });
        sessions.kill(fx.id);
        return;
      }
      case "remove":
        sessions.remove(fx.id);
        return;
      case "finish-worktree":
        void finishSessionWorktree(ctx, fx.id, fx.keepBranch);
        return;
      case "rename":
        sessions.rename(fx.id, fx.name);
        return;
      case "restart": {
        // Sessions running an agent or a program (one, or a group's): ask first, as `x` does.
        const what = fx.confirmed ? null : restartQuestion(ctx, fx.ids);
        if (what !== null) {
          return ctx.dispatch({
            type: "confirm-kill",
            id: fx.ids[0]!,
            what,
            restart: true,
            ...(fx.ids.length > 1 ? { ids: fx.ids } : {}),
          });
        }
        void restart(ctx, fx.ids);
        return;
      }
      case "resume-limit":
      case "cancel-limit":
      case "limit-policy":
        ctx.dispatch({ type: "message", text: runLimitEffect(runtime, fx), error: false });
        return;
      case "watch":
        runtime.arm(fx.id, fx.pattern ?? "");
        ctx.dispatch({
          type: "message",
          text: fx.pattern ? `Watching for /${fx.pattern}/` : "Watcher disarmed",
          error: false,
        });
        return;
      case "scroll":
        scroll(ctx, fx.id, fx.delta);
        return;
      case "focus":
        runtime.setFocus({ selected: fx.selected, terminal: fx.terminal }, ctx.client);
        if (fx.selected !== null) claim(ctx, fx.selected);
        return;
      case "copy-start": {
        const s = sessions.get(fx.id);
        if (!s) return;
        const offset = ctx.scrollOf(fx.id);
        // The shell's cursor when the live screen shows, else the middle of the view.
        const cursor = offset > 0 ? offset + Math.floor(s.rows / 2) : s.rows - 1 - s.cursor.y;
        ctx.dispatch({ type: "copy-started", id: fx.id, top: s.bufferRows() - 1, cursor });
        return;
      }
      case "search": {
        const s = sessions.get(fx.id);
        if (!s) return;
        const hit = s.search(fx.query, fx.from, fx.direction);
        ctx.dispatch({
          type: "search-result",
          id: fx.id,
          query: fx.query,
          direction: fx.direction,
          hit,
          top: s.bufferRows() - 1,
        });
        return;
      }
      case "copy-yank": {
        const text = sessions.get(fx.id)?.copyText(fx.top, fx.bottom);
        if (text === undefined) return;
        const bytes = new TextEncoder().encode(text).length;
        if (bytes > MAX_COPY_BYTES) {
          throw new UserError(
            `Too much to copy (${Math.ceil(bytes / 1024)} KiB, at most ${
              MAX_COPY_BYTES / 1024
            } KiB): select fewer lines`,
          );
        }
        ctx.clipboard(text);
        const lines = fx.top - fx.bottom + 1;
        ctx.dispatch({
          type: "message",
          text: `Copied ${lines} line${lines === 1 ? "" : "s"} to the clipboard`,
          error: false,
        });
        return;
      }
      case "resize-sessions":
        // A tile newly shown here claims its session's size, as focusing does (latest client
        // wins); then what follows this client takes its pane's size, or its tile's.
        if (fx.claim) {
          for (const t of fx.tiles) runtime.claimSize(t.id, ctx.client, t.cols, t.rows);
        }
        runtime.resizeFor(ctx.client, fx.cols, fx.rows, new Map(fx.tiles.map((t) => [t.id, t])));
        for (const t of ctx.tabs()) t.resize(ctx.bodySize().width, ctx.bodySize().height);
        return;
      case "tab-key":
        ctx.tabs()[fx.tab - 1]?.key(fx.key);
        return;
      case "tab-paste":
        ctx.tabs()[fx.tab - 1]?.paste(fx.text);
        return;
      case "tab-mouse":
        ctx.tabs()[fx.tab - 1]?.mouse(fx.event);
        return;
      case "tab-command":
        ctx.tabs()[fx.tab - 1]?.command(fx.name);
        return;
      case "answer":
        if (ctx.remote && answerRemote(ctx.remote, fx.id, fx.choice, fx.shown)) return;
        void answer(ctx, fx.id, fx.choice, fx.shown);
        return;
      case "remote-attach":
        if (ctx.remote) attachRemote(ctx.remote, fx.host, fx.id);
        return;
      case "restore-offer":
        ctx.dispatch(offerEvent(ctx.restore));
        return;
      case "restore":
        for (const e of runRestore(ctx.restore, fx.names, fx.forget)) ctx.dispatch(e);
        return;
      case "quit":
        ctx.quit(0);
        return;
      case "detach":
        ctx.detach();
        return;
    }
  } catch (error) {
    if (!(error instanceof UserError)) throw error;
    ctx.dispatch({ type: "message", text: messageOf(error), error: true });
  }
}

/** How long an answer waits for its receipt (the prompt leaving the screen). */
const ANSWER_RECEIPT_MS = 10_000;

/**
 * Types an answer with `ctl answer`'s checks (src/control/answer.ts): the
 * prompt this client showed must still be on screen, read again right
 * before typing; the receipt comes back as a message.
 */
async function answer(ctx: EffectContext, id: string, choice: Choice, shown: Prompt) {
  const { runtime } = ctx;
  const session = runtime.sessions.get(id);
  if (!session) return;
  const host = {
    view: (sid: string) => runtime.view(sid),
    classifyNow: (sid: string) => void runtime.classifyNow(sid),
  };
  try {
    const done = await answerPrompt(host, session, choice, { shown, timeoutMs: ANSWER_RECEIPT_MS });
    const what = done.option === null ? "cancelled" : `answered ${done.label}`;
    ctx.dispatch({
      type: "message",
      text: done.receipt.left
        ? `✓ ${done.name}: ${what} (${done.receipt.state ?? "no state"})`
        : `${done.name}: ${what}, but the prompt is still on screen`,
      error: !done.receipt.left,
    });
  } catch (error) {
    ctx.dispatch({ type: "message", text: messageOf(error), error: true });
  }
}

/**
 * What `x` would end that deserves a question: an agent (with its state),
 * or a program running in the foreground of the session's shell. Null: a
 * shell at its prompt, or a session whose own command is the program.
 */
/** What a restart of `ids` would end, worth a question; null: nothing is (shells at a prompt). */
function restartQuestion(ctx: EffectContext, ids: readonly string[]): string | null {
  if (ids.length === 1) return worthAsking(ctx, ids[0]!);
  const whats = ids.map((id) => worthAsking(ctx, id)).filter((w) => w !== null);
  if (whats.length === 0) return null;
  const group = ctx.runtime.view(ids[0]!)?.group;
  return `${group ? `group ${group}` : `${ids.length} sessions`}: ${whats.join(", ")}`;
}

function worthAsking(ctx: EffectContext, id: string): string | null {
  const session = ctx.runtime.sessions.get(id);
  const view = ctx.runtime.view(id);
  if (!session || !view || session.status !== "running") return null;
  if (view.agent !== null) {
    const state = view.agentStatus?.state;
    return `${view.name} (${view.agent}${state ? `, ${state}` : ""})`;
  }
  const fg = session.foreground();
  if (fg !== null && fg.pid !== session.pid) return `${view.name} (running ${fg.comm})`;
  return null;
}

/** The session follows this client's pane size from now on (it typed into or focused it). */
function claim(ctx: EffectContext, id: string): void {
  const { cols, rows } = ctx.paneSize(id);
  ctx.runtime.claimSize(id, ctx.client, cols, rows);
}

/** Moves a session's scrollback view by `delta` lines (up is positive), clamped. */
function scroll(ctx: EffectContext, id: string, delta: number): void {
  const s = ctx.runtime.sessions.get(id);
  if (!s) return;
  const max = s.maxScroll();
  const offset = Math.max(0, Math.min(max, ctx.scrollOf(id) + delta));
  if (offset !== ctx.scrollOf(id)) ctx.dispatch({ type: "scrolled", id, offset });
}

/** Which mouse events a child asked for (xterm's mouseTrackingMode). */
function wants(mode: string, e: MouseEvent): boolean {
  switch (mode) {
    case "x10":
      return e.kind === "press";
    case "vt200":
      return e.kind === "press" || e.kind === "release" || e.kind === "wheel";
    case "drag":
      return e.kind !== "move";
    case "any":
      return true;
    default:
      return false;
  }
}

/** The form's enter: the agent session starts (selected; focused when no prompt is coming). */
async function launch(
  ctx: EffectContext,
  fx: Extract<TuiEffect, { type: "launch-agent" }>,
): Promise<void> {
  try {
    const session = await launchAgent(ctx.runtime, {
      agent: fx.agent,
      cwd: fx.cwd,
      worktree: fx.worktree,
      ...(fx.prompt ? { prompt: fx.prompt } : {}),
      ...(fx.name ? { name: fx.name } : {}),
      ...ctx.paneSize(),
      onPrompt: (o) =>
        ctx.dispatch({
          type: "message",
          text: promptText(ctx.runtime.view(o.id)?.name ?? o.id, o),
          // Not taken is worth a look too (and an error is drawn even where hints leave no room).
          error: o.type !== "received",
        }),
    });
    claim(ctx, session.id);
    ctx.dispatch(
      fx.prompt ? { type: "select", id: session.id } : { type: "created", id: session.id },
    );
  } catch (error) {
    ctx.dispatch({ type: "message", text: messageOf(error), error: true });
  }
}

/** W: ends each session, then starts it again with the same command, cwd, name and group. */
async function restart(ctx: EffectContext, ids: readonly string[]): Promise<void> {
  const sessions = ctx.runtime.sessions;
  let last: string | null = null;
  for (const id of ids) {
    const s = sessions.get(id);
    if (!s) continue;
    const spec = {
      ...(s.command !== sessions.shell ? { command: s.command } : {}),
      cwd: s.cwd,
      worktree: s.worktree,
      env: s.env, // a project session keeps its env (S5)
      name: s.name,
      group: s.group,
      ...ctx.paneSize(id),
    };
    await s.end(); // the session's process and what it started (util/escalate.ts)
    try {
      // In place: the same id, name, group and place in the list, watchers kept.
      last = sessions.respawn(id, spec).id;
    } catch (error) {
      ctx.dispatch({ type: "message", text: messageOf(error), error: true });
    }
  }
  if (last) ctx.dispatch({ type: "select", id: last });
}
