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
import type { WatchedHost } from "../control/specs/hosts.ts";
import { delay } from "../util/async.ts";
import { HOST_BACKOFF, retryDelay } from "./backoff.ts";
import { bridgeTarget, type HostEntry, hostList } from "./main.ts";
import { BridgeError, openBridge } from "./transport.ts";

export const LOCAL_HOST = "local";
const TRIES = 3;
const TIMEOUT_MS = 20_000;

export type HostList =
  | { readonly host: string; readonly up: true; readonly sessions: readonly SessionEntry[] }
  | {
    readonly host: string;
    readonly up: false;
    readonly error: string;
    readonly tries: number;
    /** From a server's table (`ctl hosts`): its next try, and connecting or down. */
    readonly retryAt?: string;
    readonly phase?: "connecting" | "down";
  };

export async function runAllHosts(argv: readonly string[], env: Env, io: CtlIo): Promise<number> {
  try {
    const parsed = parseVerbArgv(listSpec, argv.filter((a) => a !== "--all-hosts"), Deno.cwd());
    const hosts = await hostList(env);
    // A server that watches the hosts answers from its table (no ssh now); else each is asked.
    const lists = await watchedLists(env, parsed.args, hosts) ?? await Promise.all([
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

/**
 * The local server's table of watched hosts (`ctl hosts`), filtered by `--group`; null when no
 * server answers it or it watches other hosts than config.yml names now (not reloaded yet).
 */
async function watchedLists(
  env: Env,
  args: Record<string, unknown>,
  hosts: readonly HostEntry[],
): Promise<HostList[] | null> {
  let result: { hosts?: unknown } | null;
  try {
    const path = await findControlSocket(env, () => Promise.resolve(false));
    const { response } = await request(path, "hosts", {}, TIMEOUT_MS, env);
    if (!response.ok) return null;
    result = response.result as { hosts?: unknown } | null;
  } catch {
    return null;
  }
  if (!Array.isArray(result?.hosts)) return null;
  const table = result.hosts as WatchedHost[];
  const names = table.map((h) => h.host);
  if (JSON.stringify(names) !== JSON.stringify([LOCAL_HOST, ...hosts.map((h) => h.name)])) {
    return null;
  }
  const group = typeof args.group === "string" ? args.group : null;
  return table.map((h): HostList => {
    if (!h.up) {
      return {
        host: h.host,
        up: false,
        error: h.error ?? "",
        tries: h.tries,
        ...(h.retryAt ? { retryAt: h.retryAt } : {}),
        phase: h.phase === "connecting" ? "connecting" : "down",
      };
    }
    const sessions = group === null ? h.sessions : h.sessions.filter((s) => s.group === group);
    return { host: h.host, up: true, sessions };
  });
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
      const retry = list.retryAt
        ? `${list.error || list.tries > 1 ? "; " : ""}next try in ${
          Math.max(0, Math.round((Date.parse(list.retryAt) - Date.now()) / 1000))
        } s`
        : "";
      const why = [list.error, list.tries > 1 ? `${list.tries} tries` : ""].filter(Boolean)
        .join("; ") + retry;
      notes.push(`${list.host}: ${list.phase ?? "down"}${why ? ` (${why})` : ""}`);
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
