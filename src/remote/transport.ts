/**
 * The local end of `lazyshell -H DEST …` (docs/remote.md): runs
 * `ssh … DEST <remote lazyshell> bridge MODE`, waits for the bridge's
 * greeting (greeting.ts) and hands the client a byte stream that reads ssh's
 * stdout and writes its stdin: the same attach frames or control lines a
 * unix socket carries. Every way of not getting there — no ssh, ssh failing,
 * no lazyshell on the host, another bridge version, the remote server
 * unreachable — is one UserError line saying what to do; what the remote
 * side printed is shown through printable(), never raw.
 */

import { UserError } from "../errors.ts";
import { printable } from "../model/printable.ts";
import { later } from "../util/async.ts";
import type { Duplex } from "../ipc/duplex.ts";
import { BRIDGE_PROTOCOL, findGreeting, type Greeting } from "./greeting.ts";
import type { Destination } from "./ssh_command.ts";
import { sshArgv } from "./ssh_command.ts";

export interface BridgeTarget {
  /** The ssh command's words (`ssh`, `$LAZYSHELL_SSH`, `ssh.command`). */
  readonly ssh: readonly string[];
  readonly dest: Destination;
  /** The remote lazyshell command, for the remote shell (hosts[].command; default `lazyshell`). */
  readonly remote: string;
  /** `-L NAME` on the remote; null: the default server. */
  readonly server: string | null;
  /** This lazyshell's version, for the mismatch line. */
  readonly version: string;
}

export interface Bridge {
  readonly conn: Duplex;
  /** The remote bridge's working directory (its user's home): new sessions' folder. */
  readonly cwd: string;
  readonly greeting: Greeting;
}

/** Keeps what ssh writes on stderr: its last 16 KiB, for the error line. */
class StderrTail {
  #text = "";
  readonly done: Promise<void>;
  constructor(stream: ReadableStream<Uint8Array>) {
    const decoder = new TextDecoder();
    this.done = (async () => {
      try {
        for await (const chunk of stream) {
          this.#text = (this.#text + decoder.decode(chunk, { stream: true })).slice(-16384);
        }
      } catch { /* ssh is gone */ }
    })();
  }
  get text(): string {
    return this.#text;
  }
  lastLine(): string | null {
    const lines = this.#text.split("\n").map((l) => l.trim()).filter(Boolean);
    return lines.at(-1) ?? null;
  }
}

export async function openBridge(
  target: BridgeTarget,
  mode: "attach" | "control",
  start: boolean,
  /** Aborted before the greeting: ssh is ended (a host that hangs the handshake). */
  signal?: AbortSignal,
): Promise<Bridge> {
  const bridge = [
    ...(target.server ? ["-L", target.server] : []),
    "bridge",
    mode,
    ...(start ? ["--start"] : []),
  ];
  const [exe, ...args] = sshArgv(target.ssh, target.dest, target.remote, bridge);
  const label = printable(target.dest.label);
  let child: Deno.ChildProcess;
  try {
    child = new Deno.Command(exe!, {
      args,
      stdin: "piped",
      stdout: "piped",
      stderr: "piped",
    }).spawn();
  } catch (error) {
    if (error instanceof Deno.errors.NotFound) {
      throw new UserError(
        `Cannot run ${
          printable(exe!)
        } to reach ${label}: not found (set LAZYSHELL_SSH or ssh.command)`,
      );
    }
    throw new UserError(`Cannot run ${printable(exe!)}: ${printable((error as Error).message)}`);
  }
  const stderr = new StderrTail(child.stderr);
  const abort = () => {
    try {
      child.kill("SIGTERM");
    } catch { /* gone */ }
  };
  signal?.addEventListener("abort", abort, { once: true });
  try {
    return await greeted(child, stderr, target, label);
  } finally {
    signal?.removeEventListener("abort", abort);
  }
}

async function greeted(
  child: Deno.ChildProcess,
  stderr: StderrTail,
  target: BridgeTarget,
  label: string,
): Promise<Bridge> {
  const reader = child.stdout.getReader();
  const writer = child.stdin.getWriter();
  let seen: Uint8Array = new Uint8Array(0);
  for (;;) {
    const found = findGreeting(seen);
    if (found && "greeting" in found) {
      const { greeting, rest } = found;
      const fail = refusal(greeting, label, target.version);
      if (fail !== null) {
        shut(child, writer, reader);
        throw new UserError(fail);
      }
      const conn = new SshDuplex(child, reader, writer, rest);
      return { conn, cwd: (greeting as { cwd: string }).cwd, greeting };
    }
    if (found && "error" in found) {
      shut(child, writer, reader);
      throw new UserError(`lazyshell on ${label} did not answer as expected: ${found.error}`);
    }
    let chunk: ReadableStreamReadResult<Uint8Array> | null;
    try {
      chunk = await reader.read();
    } catch {
      chunk = null;
    }
    if (chunk === null || chunk.done) break;
    const next = new Uint8Array(seen.length + chunk.value.length);
    next.set(seen);
    next.set(chunk.value, seen.length);
    seen = next;
  }
  // stdout ended without a greeting: say why from ssh's status and stderr.
  try {
    await writer.close();
  } catch { /* ssh is gone */ }
  const status = await child.status;
  await stderr.done;
  // 255: ssh's own failure (no route, refused, authentication): the host is down to us.
  throw new BridgeError(
    noGreeting(status.code, stderr.text, stderr.lastLine(), label),
    status.code === 255,
  );
}

/** Not reached; `down` when ssh itself failed (worth trying again later), else an answer. */
export class BridgeError extends UserError {
  constructor(message: string, readonly down: boolean) {
    super(message);
  }
}

/** The one line for a bridge that answered but cannot be used; null when it can. */
export function refusal(greeting: Greeting, label: string, version: string): string | null {
  if (greeting.bridge !== BRIDGE_PROTOCOL) {
    return `lazyshell on ${label} (${printable(greeting.version)}) speaks bridge protocol ` +
      `${greeting.bridge}, this one (${version}) speaks ${BRIDGE_PROTOCOL}: install the same ` +
      `version on both (npm install -g lazyshell@${version})`;
  }
  if (!greeting.ok) return `on ${label}: ${printable(greeting.error)}`;
  return null;
}

/** Why ssh gave no greeting, from its exit code and stderr. */
export function noGreeting(
  code: number,
  stderr: string,
  last: string | null,
  label: string,
): string {
  const said = last ? `: ${printable(last)}` : "";
  if (/Unknown command: bridge/.test(stderr)) {
    return `lazyshell on ${label} has no bridge command (an older version): upgrade it there ` +
      `(npm install -g lazyshell)`;
  }
  // 255 is ssh's own failure (no route, refused, authentication); else the remote command's.
  if (code === 255) return `ssh to ${label} failed${said}`;
  if (code === 127 || code === 126 || /command not found|No such file or directory/.test(stderr)) {
    return `lazyshell not found on ${label}: install it there (npm install -g lazyshell) or set ` +
      `hosts[].command`;
  }
  return `lazyshell on ${label} exited (${code}) without answering${said}`;
}

function shut(
  child: Deno.ChildProcess,
  writer: WritableStreamDefaultWriter<Uint8Array>,
  reader: ReadableStreamDefaultReader<Uint8Array>,
): void {
  writer.close().catch(() => {});
  reader.cancel().catch(() => {});
  try {
    child.kill("SIGTERM");
  } catch { /* gone */ }
  child.status.catch(() => {});
}

/** ssh's stdout and stdin as one byte stream (what comes after the greeting). */
class SshDuplex implements Duplex {
  readonly #child: Deno.ChildProcess;
  readonly #reader: ReadableStreamDefaultReader<Uint8Array>;
  readonly #writer: WritableStreamDefaultWriter<Uint8Array>;
  #pending: Uint8Array;
  #closed = false;

  constructor(
    child: Deno.ChildProcess,
    reader: ReadableStreamDefaultReader<Uint8Array>,
    writer: WritableStreamDefaultWriter<Uint8Array>,
    rest: Uint8Array,
  ) {
    this.#child = child;
    this.#reader = reader;
    this.#writer = writer;
    this.#pending = rest;
  }

  async read(p: Uint8Array): Promise<number | null> {
    if (this.#pending.length === 0) {
      const chunk = await this.#reader.read();
      if (chunk.done) return null;
      this.#pending = chunk.value;
    }
    const n = Math.min(p.length, this.#pending.length);
    p.set(this.#pending.subarray(0, n));
    this.#pending = this.#pending.subarray(n);
    return n;
  }

  async write(p: Uint8Array): Promise<number> {
    if (this.#closed) throw new Deno.errors.BrokenPipe("closed");
    await this.#writer.write(p.slice());
    return p.length;
  }

  /** Ends ssh's stdin (the bridge then closes the server's socket); ssh ends with it. */
  close(): void {
    if (this.#closed) return;
    this.#closed = true;
    this.#writer.close().catch(() => {});
    this.#reader.cancel().catch(() => {});
    // ssh exits once the remote command does; a stuck one goes after 3 s, unwaited for.
    const cancel = later(3000, () => {
      try {
        this.#child.kill("SIGTERM");
      } catch { /* gone */ }
    });
    this.#child.status.then(cancel).catch(() => {});
  }
}
