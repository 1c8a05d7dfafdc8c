/**
 * `lazyshell restore` when no server runs (docs/restore.md): listing,
 * `--forget` and names none of which is saved are answered from the state
 * file itself, so that asking starts no server. The file is read as a
 * server reads it (`loadState`: the same ownership and mode checks, a
 * damaged or refused file set aside) and written as a server writes it
 * (`StateWriter`: a temporary file, fsync, rename). Restoring a saved
 * session needs a server to run it: then this answers nothing and the
 * client starts one.
 *
 * The caller holds the server's start lock (src/wire/spawn.ts) and has
 * seen no server: none starts while the file is read and written here.
 */

import type { Env } from "../config/paths.ts";
import { UserError } from "../errors.ts";
import { loadCatalogSync } from "../runtime/catalog.ts";
import { planRestore } from "./plan.ts";
import {
  answerRestore,
  type RestoreAnswer,
  type RestoreAsk,
  type SavedSessions,
} from "./answer.ts";
import {
  loadState,
  notSaved,
  type OfferItem,
  planContext,
  type RestoreOutcome,
  stateFile,
  untrustedStatePath,
} from "./restore.ts";
import { formatState, parseState, type SavedSession } from "./state_file.ts";
import { StateWriter } from "./writer.ts";

/** The answer without a server, or null when the request restores a saved session (a server must). */
export async function answerWithoutServer(
  env: Env,
  server: string,
  ask: RestoreAsk,
): Promise<RestoreAnswer | null> {
  const file = stateFile(env, server);
  // With no server, every saved session is pending (a server started now would run none of them).
  if (restoresSome(ask, savedNames(file))) return null;
  const loaded = loadState(file);
  const saved = new FileSessions(env, loaded.sessions, loaded.problem);
  const answer = answerRestore(saved, ask);
  // A file set aside (damaged: its valid part is kept) or a forgotten session: written as a server would.
  if (loaded.problem !== null || saved.changed) await write(file, saved.sessions);
  return answer;
}

/** Whether answering `ask` starts one of the `saved` sessions. */
export function restoresSome(ask: RestoreAsk, saved: ReadonlySet<string>): boolean {
  if (ask.forget || !ask.all && ask.names.length === 0) return false;
  return ask.all ? saved.size > 0 : ask.names.some((n) => saved.has(n));
}

/**
 * The names a server would take from the file, read without touching it (a
 * server's reading may set it aside): none from a file it would refuse.
 */
function savedNames(file: string): ReadonlySet<string> {
  if (untrustedStatePath(file) !== null) return new Set();
  try {
    return new Set(parseState(Deno.readTextFileSync(file)).sessions.map((s) => s.name));
  } catch {
    return new Set();
  }
}

/** The saved sessions of the file alone: all pending, none running. */
class FileSessions implements SavedSessions {
  readonly problem: string | null;
  changed = false;
  #sessions: SavedSession[];
  readonly #env: Env;

  constructor(env: Env, sessions: readonly SavedSession[], problem: string | null) {
    this.#env = env;
    this.#sessions = [...sessions];
    this.problem = problem;
  }

  get sessions(): readonly SavedSession[] {
    return this.#sessions;
  }

  get pendingCount(): number {
    return this.#sessions.length;
  }

  offer(): OfferItem[] {
    const ctx = planContext(this.#env, loadCatalogSync({ env: this.#env }));
    return this.#sessions.map((s) => ({
      name: s.name,
      group: s.group,
      how: planRestore(s, ctx).how,
    }));
  }

  forget(which: readonly string[] | "all"): number {
    const before = this.#sessions.length;
    this.#sessions = which === "all" ? [] : this.#sessions.filter((s) => !which.includes(s.name));
    const n = before - this.#sessions.length;
    if (n > 0) this.changed = true;
    return n;
  }

  /** Only names none of which is saved come here (`restoresSome`). */
  restore(which: readonly string[] | "all"): RestoreOutcome[] {
    return which === "all" ? [] : [...new Set(which)].map(notSaved);
  }
}

async function write(file: string, sessions: readonly SavedSession[]): Promise<void> {
  const dir = file.slice(0, file.lastIndexOf("/"));
  try {
    Deno.mkdirSync(dir, { recursive: true, mode: 0o700 });
  } catch { /* the write says why it cannot write there */ }
  let failed: string | null = null;
  const writer = new StateWriter(file, {
    render: () => formatState(sessions.map((s) => ({ ...s, pending: true })), Date.now()),
    log: (line) => (failed = line),
  });
  await writer.flush(true);
  if (failed !== null) throw new UserError(failed);
}
