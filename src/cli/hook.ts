/**
 * `lazyshell hook <idle|working|blocked|done|error> [--kind KIND] [JSON]`
 * (KIND: permission, question, auth for blocked; rate_limit, overloaded,
 * auth, quota, connection for error)
 * (docs/hooks.md): reports one state of the agent running in this session to
 * `$LAZYSHELL_SOCK`.
 *
 * Agents run hooks synchronously, so this always exits 0, prints nothing on
 * stdout and gives up within a few hundred ms whatever happens: no socket,
 * a refused or hung listener, bad arguments, garbage on stdin, permission
 * errors. A socket in a directory that is not private to the user is not
 * written to; that, alone, is said in one line on stderr. It must not load
 * commander, zod, yaml or node-pty (main.ts dispatches here before anything
 * else; tests/hook_graph_test.ts checks the module graph).
 *
 * Metadata: Claude Code writes its hook JSON on stdin (read only when stdin
 * is not a terminal); Codex's `notify` passes one JSON argument after ours.
 */

import {
  type ForwardedPayload,
  forwardedPayload,
  hookMessage,
  parseHookArgs,
  sendHook,
} from "../ipc/hook_client.ts";
import { checkOwnSocket } from "../ipc/private_path.ts";
import { deadline, later } from "../util/async.ts";

/** The whole command is bounded by this (stdin + connect + reply). */
const TOTAL_BUDGET_MS = 450;
const STDIN_BUDGET_MS = 150;
const SEND_BUDGET_MS = 300;
const STDIN_LIMIT = 4 * 1024 * 1024;

/** Reads stdin when it is not a terminal, up to a size and a time budget. */
async function readStdin(budgetMs: number): Promise<string> {
  if (Deno.stdin.isTerminal()) return "";
  const chunks: Uint8Array[] = [];
  let size = 0;
  const budget = deadline(budgetMs);
  const timeout = budget.expired.then(() => "timeout" as const);
  try {
    // Deno.stdin.read, not Deno.stdin.readable: the streams code loads on first use, ~4 ms of the
    // hook's whole ~25 ms of CPU.
    while (size < STDIN_LIMIT) {
      const buf = new Uint8Array(64 * 1024);
      const n = await Promise.race([Deno.stdin.read(buf), timeout]);
      if (n === "timeout" || n === null) break;
      chunks.push(buf.subarray(0, n));
      size += n;
    }
  } finally {
    budget.cancel();
  }
  const all = new Uint8Array(size);
  let offset = 0;
  for (const chunk of chunks) {
    all.set(chunk, offset);
    offset += chunk.length;
  }
  return new TextDecoder().decode(all);
}

function payloadOf(text: string): ForwardedPayload {
  if (!text.trim()) return {};
  try {
    return forwardedPayload(JSON.parse(text));
  } catch {
    return {};
  }
}

/** Runs the hook; resolves when done. Never throws. */
export async function runHook(args: readonly string[]): Promise<void> {
  try {
    const parsed = parseHookArgs(args);
    if (!parsed) return;
    const path = Deno.env.get("LAZYSHELL_SOCK");
    if (!path) return;
    try {
      checkOwnSocket(path);
    } catch (error) {
      // One line on stderr (not stdout, which the agent may parse): why nothing was sent.
      console.error(`lazyshell hook: ${(error as Error).message}`);
      return;
    }
    // A closed or odd stdin (a daemon's) must not stop the event: metadata is optional.
    const metadata = parsed.json ?? await readStdin(STDIN_BUDGET_MS).catch(() => "");
    await sendHook(
      path,
      hookMessage(parsed.state, parsed.kind, payloadOf(metadata)),
      SEND_BUDGET_MS,
    );
  } catch { /* a hook never fails */ }
}

/** Entry point from main.ts: a hard deadline, then exit 0 in every case. */
export async function hookMain(args: readonly string[]): Promise<never> {
  later(TOTAL_BUDGET_MS, () => Deno.exit(0));
  await runHook(args);
  Deno.exit(0);
}
