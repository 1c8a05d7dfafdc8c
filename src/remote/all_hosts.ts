/**
 * `lazyshell ctl list --all-hosts [--group G] [--json]` (docs/remote.md,
 * "One list across hosts"): this host's sessions and those of every
 * `hosts:` entry of config.yml, asked at once (one ssh each, through the
 * bridge, no server started), in one list with the host's name. A host ssh
 * cannot reach is tried again with backoff (backoff.ts) up to 3 times
 * within the time allowed, then listed as down with the reason; the others,
 * and this host's list, are shown whatever it does.
 */

import denoJson from "../../deno.json" with { type: "json" };
import { messageOf, UserError } from "../errors.ts";
import type { Env } from "../config/paths.ts";
import type { SessionEntry } from "../control/entry.ts";
import { printable } from "../model/printable.ts";
import { parseVerbArgv } from "../ctl/argv.ts";
import { type CtlIo, request } from "../ctl/client.ts";
import { findControlSocket } from "../ctl/find.ts";
import listSpec from "../control/specs/list.ts";
import { delay } from "../util/async.ts";
import { HOST_BACKOFF, retryDelay } from "./backoff.ts";
import { bridgeTarget, type HostEntry, hostList } from "./main.ts";
import { BridgeError, openBridge } from "./transport.ts";

export const LOCAL_HOST = "local";
const TRIES = 3;
const TIMEOUT_MS = 20_000;

export type HostList =
  | { readonly host: string; readonly up: true; readonly sessions: readonly SessionEntry[] }
  | { readonly host: string; readonly up: false; readonly error: string; readonly tries: number };

export async function runAllHosts(argv: readonly string[], env: Env, io: CtlIo): Promise<number> {
  try {
    const parsed = parseVerbArgv(listSpec, argv.filter((a) => a !== "--all-hosts"), Deno.cwd());
    const hosts = await hostList(env);
    const lists = await Promise.all([
      listLocal(env, parsed.args),
      ...hosts.map((h) => listHost(h, env, parsed.args)),
    ]);
    if (parsed.json) io.out(JSON.stringify({ id: 1, ok: true, result: { hosts: lists } }));
    else io.out(formatAll(lists));
    return 0;
  } catch (error) {
    io.err(`lazyshell ctl: ${messageOf(error)}`);
    return error instanceof UserError ? 2 : 1;
  }
}

async function listLocal(env: Env, args: Record<string, unknown>): Promise<HostList> {
  try {
    const path = await findControlSocket(env, async () => {
      const { loadConfig } = await import("../config/load.ts");
      return loadConfig(env).config.control.enabled;
    });
    const { response } = await request(path, "list", args, TIMEOUT_MS, env);
    if (!response.ok) return { host: LOCAL_HOST, up: false, error: response.error, tries: 1 };
    return { host: LOCAL_HOST, up: true, sessions: sessionsOf(response.result) };
  } catch (error) {
    return { host: LOCAL_HOST, up: false, error: messageOf(error), tries: 1 };
  }
}

/** One host: tried again with backoff while ssh cannot reach it, within TIMEOUT_MS. */
export async function listHost(
  host: HostEntry,
  env: Env,
  args: Record<string, unknown>,
): Promise<HostList> {
  const target = await bridgeTarget(host.name, env, denoJson.version);
  const until = performance.now() + TIMEOUT_MS;
  for (let tries = 1;; tries++) {
    try {
      const { response } = await request(
        host.name,
        "list",
        args,
        Math.max(1000, until - performance.now()),
        env,
        async () => (await openBridge(target, "control", false)).conn,
      );
      if (!response.ok) return { host: host.name, up: false, error: response.error, tries };
      return { host: host.name, up: true, sessions: sessionsOf(response.result) };
    } catch (error) {
      const wait = retryDelay(tries, HOST_BACKOFF, Math.random());
      const down = error instanceof BridgeError && error.down;
      if (!down || tries >= TRIES || performance.now() + wait > until) {
        return { host: host.name, up: false, error: messageOf(error), tries };
      }
      await delay(wait);
    }
  }
}

function sessionsOf(result: unknown): SessionEntry[] {
  const sessions = (result as { sessions?: unknown } | null)?.sessions;
  if (!Array.isArray(sessions)) throw new UserError("a list reply without sessions");
  return sessions as SessionEntry[];
}

/** The list verb's table with a HOST column; a host down is one row saying why. */
export function formatAll(lists: readonly HostList[]): string {
  const rows: string[][] = [["HOST", "ID", "NAME", "GROUP", "STATUS", "AGENT", "STATE"]];
  const notes: string[] = [];
  for (const list of lists) {
    if (!list.up) {
      notes.push(
        `${list.host}: down (${list.error}${list.tries > 1 ? `; ${list.tries} tries` : ""})`,
      );
      continue;
    }
    if (list.sessions.length === 0) notes.push(`${list.host}: no sessions`);
    for (const s of list.sessions) {
      rows.push([
        list.host,
        s.id,
        s.name,
        s.group ?? "-",
        s.status === "exited"
          ? `exited (${s.signal !== null ? `signal ${s.signal}` : `code ${s.exitCode}`})`
          : "running",
        s.agent ?? "-",
        s.state === null ? "-" : s.kind ? `${s.state} (${s.kind})` : s.state,
      ].map((c) => printable(String(c))));
    }
  }
  const widths = rows[0]!.map((_, i) => Math.max(...rows.map((r) => r[i]!.length)));
  const table = rows.length > 1
    ? rows.map((r) => r.map((c, i) => c.padEnd(widths[i]!)).join("  ").trimEnd())
    : [];
  return [...table, ...notes.map(printable)].join("\n");
}
