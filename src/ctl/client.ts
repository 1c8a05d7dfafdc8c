/**
 * `lazyshell ctl <verb> [args] [--json]` (C2–C3): a thin client over the
 * verb table. It turns argv into one request, sends it to the control
 * socket, and prints the reply — the verb's own formatting, or with
 * `--json` the raw response line. Any failure: one line on stderr and a
 * non-zero exit (1 for a refused request, 2 for a usage mistake or when
 * lazyshell cannot be reached). `--help` is generated from the table.
 *
 * What the peer sends is never printed raw: control characters in its
 * reply are shown escaped (printable.ts), so a socket that is not ours —
 * or a session name with an escape sequence — cannot drive the terminal.
 */

import { messageOf, UserError } from "../errors.ts";
import type { Env } from "../config/paths.ts";
import { CONTROL_LINE_LIMIT, encodeLine, readLines, writeAll } from "../ipc/jsonl.ts";
import type { ControlResponse } from "../ipc/protocol.ts";
import { checkArgs, describe, flagName, usage, type VerbSpec } from "../control/spec.ts";
import { loadSpec } from "../control/specs/load.ts";
import { parseVerbArgv } from "./argv.ts";
import { findControlSocket } from "./find.ts";
import { checkOwnSocket } from "../ipc/private_path.ts";
import { printable } from "../model/printable.ts";
import { deadline } from "../util/async.ts";
import type { Duplex } from "../ipc/duplex.ts";

const DEFAULT_TIMEOUT_MS = 30_000;
/** Stands for the caller's folder under -H, to find the relative paths given. */
const REMOTE_CWD = "\0remote";

export interface CtlIo {
  out(text: string): void;
  err(text: string): void;
}

const STDIO: CtlIo = { out: (t) => console.log(t), err: (t) => console.error(t) };

/** The whole table: loaded for this only (`ctl VERB` loads that verb's spec alone). */
export async function ctlHelp(): Promise<string> {
  const { SPECS } = await import("../control/specs/mod.ts");
  const width = Math.max(...SPECS.map((v) => usage(v).length));
  return [
    "Usage: lazyshell ctl <verb> [arguments] [--json]",
    "",
    "Drive a running lazyshell through its control socket (off unless control.enabled: true).",
    "TARGET is a session id (session-2) or an exact name. --json prints the raw response.",
    "Which server: `lazyshell -L NAME ctl …` or $LAZYSHELL_SERVER, else $LAZYSHELL_CONTROL,",
    "else the default one.",
    "",
    "Verbs:",
    ...SPECS.map((v) => `  ${usage(v).padEnd(width)}  ${v.summary}`),
    "",
    "lazyshell ctl <verb> --help describes a verb's arguments.",
    "lazyshell -H DEST ctl … drives another host's lazyshell over ssh; ctl list --all-hosts",
    "lists this host's sessions and every hosts: entry's in one table (docs/remote.md).",
  ].join("\n");
}

export function verbHelp(verb: VerbSpec): string {
  const lines = [`Usage: lazyshell ctl ${usage(verb)} [--json]`, "", verb.summary];
  if (verb.args.length > 0) lines.push("");
  for (const spec of verb.args) {
    const name = spec.positional ? describe(spec) : `--${flagName(spec)}`;
    lines.push(`  ${name.padEnd(14)} ${spec.help}${spec.required ? " (required)" : ""}`);
  }
  return lines.join("\n");
}

/** Runs ctl; returns the exit code. */
export async function runCtl(
  argv: readonly string[],
  env: Env = Deno.env.toObject(),
  raw: CtlIo = STDIO,
  /** `-H DEST` (src/remote/): the control socket on another host, through ssh. */
  remote?: { readonly label: string; open(): Promise<Duplex> },
): Promise<number> {
  const io: CtlIo = { out: (t) => raw.out(printable(t)), err: (t) => raw.err(printable(t)) };
  const [name, ...rest] = argv;
  if (name === undefined || name === "--help" || name === "-h" || name === "help") {
    io.out(await ctlHelp());
    return name === undefined ? 2 : 0;
  }
  try {
    const verb = await loadSpec(name);
    if (!verb) {
      const { SPECS } = await import("../control/specs/mod.ts");
      throw new UserError(
        `Unknown verb: ${name} (expected ${SPECS.map((v) => v.name).join(", ")})`,
      );
    }
    // On another host this folder means nothing: a relative path there is refused, not guessed.
    const parsed = parseVerbArgv(verb, rest, remote ? REMOTE_CWD : Deno.cwd());
    if (remote) {
      for (const [key, value] of Object.entries(parsed.args)) {
        if (typeof value === "string" && value.startsWith(`${REMOTE_CWD}/`)) {
          throw new UserError(
            `--${key} must be an absolute path on ${remote.label} (this folder is not there)`,
          );
        }
      }
    }
    if (parsed.help) {
      io.out(verbHelp(verb));
      return 0;
    }
    checkArgs(verb, parsed.args); // the server's own checks (bounds), before connecting
    const path = remote ? remote.label : await findControlSocket(env, async () => {
      // Only when no instance answers: the config (yaml + zod) is not loaded otherwise.
      const { loadConfig } = await import("../config/load.ts");
      return loadConfig(env).config.control.enabled;
    });
    const timeoutMs = verb.clientTimeoutMs?.(parsed.args) ?? DEFAULT_TIMEOUT_MS;
    const { line, response } = await request(
      path,
      verb.name,
      parsed.args,
      timeoutMs,
      env,
      remote?.open,
    );
    if (parsed.json) io.out(line);
    if (!response.ok) {
      io.err(`lazyshell ctl: ${response.error}`);
      // id null: not an answer to our request but the connection refused (busy, over a limit).
      return response.id === null ? 2 : 1;
    }
    if (!parsed.json) {
      const text = (verb.format as (r: unknown) => string)(response.result);
      if (text) io.out(text);
    }
    return 0;
  } catch (error) {
    io.err(`lazyshell ctl: ${messageOf(error)}`);
    return error instanceof UserError ? 2 : 1;
  }
}

/**
 * One request on a fresh connection; the raw reply line and its parse.
 * Every way of not getting a reply is a UserError (exit 2, "cannot reach").
 */
export async function request(
  path: string,
  verb: string,
  args: Readonly<Record<string, unknown>>,
  timeoutMs: number,
  env?: Env,
  /** Instead of the socket at `path` (then the host's name): a bridge over ssh. */
  open?: () => Promise<Duplex>,
): Promise<{ line: string; response: ControlResponse }> {
  const conn = open ? await open() : await connect(path, env);
  let timer: ReturnType<typeof deadline> | null = null;
  try {
    let sent: unknown = null;
    try {
      await writeAll(conn, encodeLine({ id: 1, verb, args }));
    } catch (error) {
      // Closed on us (refused when busy): its one-line reason may still be waiting to be read.
      sent = error;
    }
    const reply = (async () => {
      try {
        for await (const item of readLines(conn, CONTROL_LINE_LIMIT)) {
          if (item.type !== "line") throw new UserError("Reply over the line limit");
          if (item.text.trim() !== "") return item.text; // a blank line is a liveness probe
        }
      } catch (error) {
        if (error instanceof UserError) throw error;
        sent ??= error;
      }
      const why = sent === null ? "it closed the connection without replying" : messageOf(sent);
      throw new UserError(`Cannot reach lazyshell at ${path}: ${why}`);
    })();
    reply.catch(() => {}); // settled by the close below when the timeout wins
    timer = deadline(timeoutMs);
    const timeout = timer.expired.then((): never => {
      throw new UserError(`No reply within ${Math.round(timeoutMs / 1000)} s`);
    });
    const line = await Promise.race([reply, timeout]);
    return { line, response: readResponse(line) };
  } finally {
    timer?.cancel();
    try {
      conn.close();
    } catch { /* closed */ }
  }
}

async function connect(path: string, env?: Env): Promise<Deno.UnixConn> {
  checkOwnSocket(path, env);
  try {
    return await Deno.connect({ transport: "unix", path });
  } catch (error) {
    if (error instanceof Deno.errors.NotFound) {
      throw new UserError(`No control socket at ${path} (is lazyshell still running?)`);
    }
    if (error instanceof Deno.errors.ConnectionRefused) {
      throw new UserError(`Nothing answers at ${path} (lazyshell was killed?)`);
    }
    throw new UserError(`Cannot connect to ${path}: ${messageOf(error)}`);
  }
}

/**
 * The reply, checked by hand: the shape of protocol.ts `controlResponseSchema`
 * without loading zod in every `ctl` run (protocol_test.ts checks both agree).
 */
export function readResponse(line: string): ControlResponse {
  let value: unknown;
  try {
    value = JSON.parse(line);
  } catch {
    throw new UserError("lazyshell sent a reply that is not JSON");
  }
  const r = value as Record<string, unknown> | null;
  const id = r?.id;
  if (r && (id === null || typeof id === "number")) {
    if (r.ok === true && "result" in r) return { id, ok: true, result: r.result };
    if (r.ok === false && typeof r.error === "string") return { id, ok: false, error: r.error };
  }
  throw new UserError("lazyshell sent a reply that is not a control response");
}
