/**
 * How one saved session comes back (docs/restore.md): its command, cwd,
 * env and screen, and one line saying what happens. Pure: the caller says
 * what exists on disk, what the environment holds and how each agent
 * resumes (its manifest's `resume`).
 *
 * - A plain shell restarts in its cwd.
 * - An agent session with a conversation id restarts with the agent's
 *   resume command (`claude --resume <id>`). A session whose own command
 *   launched the agent gets the resume command instead of its command (the
 *   command's own prompt, if it had one, must not be sent twice); a shell
 *   the agent was typed into starts again and gets the resume command typed
 *   at its prompt — so the agent runs in the shell's foreground, as before
 *   (identity reads the foreground process: `sh -c 'agent; exec sh'` would
 *   leave the shell there), and the shell is back when it exits.
 * - An agent session without a known id (or whose transcript is gone)
 *   restarts the agent fresh, and says so. An id read from the file passes
 *   the rule a hook's id passes (src/ipc/conversation.ts) or is not used.
 */

import { shellQuote } from "../ipc/integrations.ts";
import { isConversationId } from "../ipc/conversation.ts";
import { printable } from "../model/printable.ts";
import { RESTORED_RULE, type SavedSession } from "./state_file.ts";

export interface PlanContext {
  /** Where secret env values are read again from (the server's environment). */
  readonly env: Readonly<Record<string, string | undefined>>;
  /** The agent's resume command (with `{id}`), from its manifest; null: none. */
  readonly resumeCommand: (agent: string) => string | null;
  /** The command that starts the agent fresh (its program); null: unknown. */
  readonly program: (agent: string) => string | null;
  readonly isDirectory: (path: string) => boolean;
  readonly exists: (path: string) => boolean;
  /** Where a session whose directory is gone starts instead. */
  readonly home: string;
}

export interface RestorePlan {
  readonly name: string;
  readonly group: string | null;
  /** The command to run now (absent: the shell itself). */
  readonly command?: string;
  /** A line to type at the shell's prompt once it is up (an agent that ran in a shell). */
  readonly typed?: string;
  readonly cwd: string;
  readonly env: Readonly<Record<string, string>>;
  readonly origin: string | null;
  /** The last screen, dimmed, to write above the new output (absent: none saved). */
  readonly preface?: string;
  /** What the state file keeps as the session's command from now on: the saved one. */
  readonly savedCommand: string | null;
  /** The entry's secret variables: named in the file again, set or not. */
  readonly secrets: readonly string[];
  /** The project file's watchers of this session (declared again by name). */
  readonly watch: SavedSession["watch"];
  readonly watcher: string | null;
  /** The agent conversation resumed, or null. */
  readonly resumed: { readonly agent: string; readonly id: string } | null;
  /** What happens, in a few words: `resumes claude conversation 4f2a… (hook Stop: session_id)`. */
  readonly how: string;
  /** What could not be kept as it was: a secret not in the environment, a gone directory. */
  readonly notes: readonly string[];
}

export function planRestore(saved: SavedSession, ctx: PlanContext): RestorePlan {
  const notes: string[] = [];
  const env: Record<string, string> = {};
  const secrets: string[] = [];
  const missing: string[] = [];
  for (const e of saved.env) {
    if ("value" in e) env[e.name] = e.value;
    else {
      secrets.push(e.name);
      if (ctx.env[e.name] !== undefined) env[e.name] = ctx.env[e.name]!;
      else missing.push(e.name);
    }
  }
  if (missing.length > 0) notes.push(`not in the environment, not set: ${missing.join(", ")}`);
  const agent = saved.agent;
  const c = saved.conversation;
  const template = agent === null ? null : ctx.resumeCommand(agent);
  let why: string | null = null;
  if (agent !== null) {
    if (c === null || c.agent !== agent) why = "no conversation id was seen";
    else if (!isConversationId(c.id)) {
      // A hand-edited file: `--dangerously-skip-permissions` would be an option, not an id.
      why = `the saved conversation id ${printable(JSON.stringify(c.id))} is not an id`;
    } else if (template === null) why = `its manifest has no resume command`;
    else if (c.transcript !== null && !ctx.exists(c.transcript)) why = "its transcript is gone";
  }
  const resumed = agent !== null && why === null ? { agent, id: c!.id } : null;
  let cwd = resumed && c!.cwd !== null && ctx.isDirectory(c!.cwd) ? c!.cwd : saved.cwd;
  if (!ctx.isDirectory(cwd)) {
    notes.push(`${cwd} is gone: started in ${ctx.home}`);
    cwd = ctx.home;
  }
  let command: string | undefined = saved.command ?? undefined;
  let typed: string | undefined;
  let how: string;
  if (resumed) {
    const line = template!.replaceAll("{id}", shellQuote(resumed.id));
    if (saved.command === null) typed = line;
    else command = line;
    how = `resumes ${agent} conversation ${resumed.id} (${c!.source})`;
  } else if (agent !== null) {
    const program = ctx.program(agent);
    if (saved.command === null && program !== null) typed = program;
    how = `starts ${agent} fresh: ${why}`;
  } else {
    how = saved.command === null ? `shell in ${cwd}` : `runs ${saved.command}`;
  }
  return {
    name: saved.name,
    group: saved.group,
    ...(command !== undefined ? { command } : {}),
    ...(typed !== undefined ? { typed } : {}),
    cwd,
    env,
    origin: saved.origin,
    ...(saved.screen.length > 0 ? { preface: preface(saved.screen) } : {}),
    savedCommand: saved.command,
    secrets,
    watch: saved.watch,
    watcher: saved.watcher,
    resumed,
    how,
    notes,
  };
}

/** The last screen, dimmed, then a rule: drawn above whatever the new process prints. */
export function preface(rows: readonly string[]): string {
  // deno-lint-ignore no-control-regex -- a hand-edited file must not drive the emulator
  const clean = rows.map((r) => r.replace(/[\x00-\x1f\x7f-\x9f]/g, " "));
  return `\x1b[2m${clean.join("\r\n")}\r\n${RESTORED_RULE}\x1b[0m\r\n`;
}
