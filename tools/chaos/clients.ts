/**
 * The chaos run's clients, three kinds:
 *
 * - `pty`: the real `lazyshell -L NAME attach` in a PTY of ours; the server
 *   opens that terminal and draws on it itself (src/server/client_tty.ts);
 * - `relay`: the same with `LAZYSHELL_CLIENT_RELAY=1`, the client relaying
 *   keys and frames through the attach socket;
 * - `wire`: a relaying client in this process, speaking the attach socket's
 *   wire (src/wire/protocol.ts) as the real client does: hello, Input and
 *   Resize frames, Output read and dropped, the Exit kept.
 *
 * Each can type, resize and leave in the ways a person's terminal does
 * (`d`, SIGTERM, SIGHUP, SIGKILL, a closed socket), and says how it ended.
 */

import { spawnPty } from "../../src/session/pty.ts";
import type { Pty } from "../../src/session/pty.ts";
import {
  type ExitMessage,
  frame,
  FrameReader,
  FrameType,
  parseExit,
  SERVER_PROTOCOL,
} from "../../src/wire/protocol.ts";

export type ClientKind = "pty" | "relay" | "wire";

/** How a client was asked to leave. */
export type Leave = "d" | "SIGTERM" | "SIGHUP" | "SIGKILL" | "close";

export interface ClientEnd {
  /** The server's Exit reason, `exit N` (a PTY client's code), or `closed` (no Exit). */
  readonly how: string;
  /** The line the client printed or the Exit's message (empty: none). */
  readonly message: string;
  /** A PTY client that said nothing and exited non-zero: the last of what its terminal showed. */
  readonly shown?: string;
}

export interface ChaosClient {
  readonly kind: ClientKind;
  readonly id: number;
  cols: number;
  rows: number;
  /** Output bytes seen (a `pty` client's are the server's own writes to its terminal). */
  readonly bytes: () => number;
  type(keys: string): void;
  resize(cols: number, rows: number): void;
  leave(how: Leave): void;
  /** Resolves once it ended. */
  readonly ended: Promise<ClientEnd>;
}

export interface ClientSetup {
  readonly main: string;
  readonly name: string;
  readonly env: Record<string, string>;
  readonly cwd: string;
  /** The attach socket (`wire` clients). */
  readonly socket: string;
}

/** `lazyshell -L NAME attach` in a PTY (relaying with `relay`). */
export function ptyClient(
  setup: ClientSetup,
  id: number,
  kind: "pty" | "relay",
  cols: number,
  rows: number,
): ChaosClient {
  const env: Record<string, string> = { ...setup.env, TERM: "xterm-256color" };
  if (kind === "relay") env.LAZYSHELL_CLIENT_RELAY = "1";
  const pty: Pty = spawnPty({
    file: Deno.execPath(),
    args: ["run", "-A", "--quiet", setup.main, "-L", setup.name, "attach"],
    cwd: setup.cwd,
    env,
    cols,
    rows,
  });
  let tail = "";
  let bytes = 0;
  const ended = Promise.withResolvers<ClientEnd>();
  pty.onData((data) => {
    bytes += data.length;
    tail = (tail + data).slice(-4096);
  });
  pty.onExit((e) => {
    // What the client said when it gave the terminal back (after it left the alternate screen):
    // its last `lazyshell: …` line.
    const restored = tail.lastIndexOf("\x1b[?1049l");
    const plain = (restored >= 0 ? tail.slice(restored) : tail).replace(
      // deno-lint-ignore no-control-regex
      /\x1b\[[0-?]*[ -/]*[@-~]|\x1b\][^\x07\x1b]*(?:\x07|\x1b\\)|\x1b[()][0-9A-Za-z]|\x1b[=>78c]/g,
      "",
    );
    const said = plain.split(/\r?\n|\r/)
      .map((l) => /lazyshell: .*|^\s*error: .*/.exec(l)?.[0].trim() ?? "")
      .filter((l) => l !== "").at(-1) ?? "";
    // Nothing said and not a clean exit: the last of what the terminal showed says more.
    const last = plain.replace(/\s+/g, " ").trim().slice(-160);
    ended.resolve({
      how: e.signal ? `signal ${e.signal}` : `exit ${e.exitCode}`,
      message: said.replace(/^lazyshell: /, ""),
      ...(!said && e.exitCode !== 0 && last ? { shown: last } : {}),
    });
  });
  const client: ChaosClient = {
    kind,
    id,
    cols,
    rows,
    bytes: () => bytes,
    type: (keys) => void pty.write(keys),
    resize(c, r) {
      client.cols = c;
      client.rows = r;
      try {
        pty.resize(c, r);
      } catch { /* ended */ }
    },
    leave(how) {
      try {
        if (how === "d") void pty.write("d");
        else if (how === "close") pty.kill("SIGHUP");
        else pty.kill(how);
      } catch { /* ended */ }
    },
    ended: ended.promise,
  };
  return client;
}

/** A relaying client on the attach socket, in this process. */
export async function wireClient(
  setup: ClientSetup,
  id: number,
  cols: number,
  rows: number,
): Promise<ChaosClient> {
  const conn = await Deno.connect({ transport: "unix", path: setup.socket });
  let bytes = 0;
  let closed = false;
  // One write at a time: a frame written in part must not have another's bytes in its middle.
  let writing = Promise.resolve();
  const send = (type: FrameType, payload: Uint8Array | object) => {
    if (closed) return;
    const bytes = frame(type, payload);
    writing = writing.then(async () => {
      try {
        for (let n = 0; n < bytes.length && !closed;) n += await conn.write(bytes.subarray(n));
      } catch { /* the server closed it */ }
    });
  };
  const close = () => {
    if (closed) return;
    closed = true;
    try {
      conn.close();
    } catch { /* closed */ }
  };
  const ended = (async (): Promise<ClientEnd> => {
    const reader = new FrameReader();
    const buf = new Uint8Array(256 * 1024);
    let exit: ExitMessage | null = null;
    try {
      reading: for (;;) {
        const n = await conn.read(buf);
        if (n === null) break;
        for (const f of reader.push(buf.subarray(0, n))) {
          if (f.type === FrameType.Output) bytes += f.payload.length;
          else if (f.type === FrameType.Exit) {
            exit = parseExit(f.payload);
            break reading;
          }
        }
      }
    } catch (error) {
      if (!closed) return { how: "closed", message: `read: ${String(error)}` };
    } finally {
      close();
    }
    return exit ? { how: exit.reason, message: exit.message } : { how: "closed", message: "" };
  })();
  send(FrameType.Hello, {
    protocol: SERVER_PROTOCOL,
    version: "chaos",
    mode: "attach",
    cols,
    rows,
    tmux: false,
    cwd: setup.cwd,
  });
  const client: ChaosClient = {
    kind: "wire",
    id,
    cols,
    rows,
    bytes: () => bytes,
    type: (keys) => send(FrameType.Input, new TextEncoder().encode(keys)),
    resize(c, r) {
      client.cols = c;
      client.rows = r;
      send(FrameType.Resize, { cols: c, rows: r });
    },
    leave(how) {
      if (how === "d") send(FrameType.Input, new TextEncoder().encode("d"));
      else if (how === "SIGTERM" || how === "SIGHUP") send(FrameType.Detach, {});
      else close();
    },
    ended,
  };
  return client;
}
