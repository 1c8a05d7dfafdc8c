/**
 * The lab of the attach socket's bounds (docs/architecture.md, "Server and
 * clients", Bounds): a real `lazyshell serve` (tools/abuse/server.ts, control
 * on, in its own temporary home; ABUSE_MAIN runs another checkout's for a
 * before/after run) and raw clients on its real attach socket, speaking the
 * wire of src/wire/protocol.ts byte by byte, so they can do what the
 * real client never does: stay silent, send an oversized header, never
 * read, claim a huge terminal.
 */

import {
  type ExitMessage,
  FrameReader,
  FrameType,
  parseExit,
  SERVER_PROTOCOL,
} from "../src/wire/protocol.ts";
import { frame } from "../src/wire/protocol.ts";
import { MB, type Server, startServe } from "../tools/abuse/server.ts";

export { MB };

const decoder = new TextDecoder();

export interface AttachLab extends AsyncDisposable {
  readonly server: Server;
  /** The attach socket (server-default.sock). */
  readonly socket: string;
  /** The server's resident memory now, in MB. */
  rssMb(): number;
  /** Whether the server process is still alive (not a zombie). */
  alive(): boolean;
}

export async function attachLab(config = ""): Promise<AttachLab> {
  const server = await startServe({ config });
  const socket = `${server.env.XDG_RUNTIME_DIR}/lazyshell/server-default.sock`;
  return {
    server,
    socket,
    rssMb: () => server.rss() / MB,
    alive: () => {
      try {
        const stat = Deno.readTextFileSync(`/proc/${server.pid}/stat`);
        return !/^\d+ \(.*\) [ZX]/.test(stat);
      } catch {
        return false;
      }
    },
    [Symbol.asyncDispose]: () => server[Symbol.asyncDispose](),
  };
}

export interface HelloOptions {
  readonly mode?: "attach" | "ls" | "kill-server";
  readonly cols?: number;
  readonly rows?: number;
}

/** The hello the real client sends, relaying (no `tty`): the server draws into Output frames. */
export function hello(options: HelloOptions = {}): Uint8Array {
  return frame(FrameType.Hello, {
    protocol: SERVER_PROTOCOL,
    version: "test",
    mode: options.mode ?? "attach",
    cols: options.cols ?? 100,
    rows: options.rows ?? 30,
    tmux: false,
    cwd: "/",
  });
}

/**
 * One connection to the attach socket. It reads only once `read()` is
 * called (a client that never reads never does); what it read is counted,
 * its Exit kept.
 */
export class RawClient implements Disposable {
  readonly conn: Deno.UnixConn;
  /** Output bytes read so far. */
  output = 0;
  /** Keep what was drawn, as text (`text`, its last 4 MB). */
  keepText = false;
  text = "";
  welcomed = false;
  #reading: Promise<ExitMessage | null> | null = null;

  private constructor(conn: Deno.UnixConn) {
    this.conn = conn;
  }

  static async open(socket: string): Promise<RawClient> {
    return new RawClient(await Deno.connect({ transport: "unix", path: socket }));
  }

  /** Writes bytes; false when the server closed the connection. */
  async write(bytes: Uint8Array): Promise<boolean> {
    try {
      for (let n = 0; n < bytes.length;) n += await this.conn.write(bytes.subarray(n));
      return true;
    } catch {
      return false;
    }
  }

  /** Reads until the end: the Exit the server sent, or null when it closed without one. */
  read(): Promise<ExitMessage | null> {
    this.#reading ??= (async () => {
      const reader = new FrameReader();
      const buf = new Uint8Array(256 * 1024);
      try {
        for (;;) {
          const n = await this.conn.read(buf);
          if (n === null) return null;
          for (const f of reader.push(buf.subarray(0, n))) {
            if (f.type === FrameType.Welcome) this.welcomed = true;
            else if (f.type === FrameType.Output) {
              this.output += f.payload.length;
              if (this.keepText) this.text = (this.text + decoder.decode(f.payload)).slice(-4e6);
            } else if (f.type === FrameType.Exit) return parseExit(f.payload);
          }
        }
      } catch {
        return null; // reset: closed without a word
      }
    })();
    return this.#reading;
  }

  /** When this connection ends within `ms` (reading what the server sent): its Exit, or null. */
  async endWithin(ms: number): Promise<{ exit: ExitMessage | null; ms: number } | null> {
    const t0 = performance.now();
    let timer: ReturnType<typeof setTimeout> | undefined;
    const timeout = new Promise<null>((resolve) => (timer = setTimeout(resolve, ms, null)));
    try {
      return await Promise.race([
        this.read().then((exit) => ({ exit, ms: performance.now() - t0 })),
        timeout,
      ]);
    } finally {
      clearTimeout(timer);
    }
  }

  close(): void {
    try {
      this.conn.close();
    } catch { /* closed */ }
  }

  [Symbol.dispose](): void {
    this.close();
  }
}

/** Resolves after `ms`. */
export function sleep(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}

/**
 * Polls `ok` every 50 ms until it holds; false once `ms` passed (a loaded machine may take
 * long: tests wait generously, then assert exactly what they waited for).
 */
export async function until(
  ok: () => boolean | Promise<boolean>,
  ms = 30_000,
): Promise<boolean> {
  const end = performance.now() + ms;
  for (;;) {
    if (await ok()) return true;
    if (performance.now() > end) return false;
    await sleep(50);
  }
}

/** `ctl list` on a fresh connection: its latency in ms, or null when it failed. */
export async function listMs(lab: AttachLab, timeoutMs = 10_000): Promise<number | null> {
  const t0 = performance.now();
  try {
    const r = await lab.server.call("list", {}, timeoutMs);
    return r.ok ? performance.now() - t0 : null;
  } catch {
    return null;
  }
}
