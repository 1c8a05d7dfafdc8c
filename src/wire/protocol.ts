/**
 * The wire between a client (the terminal a person runs `lazyshell` in)
 * and the lasting server (docs/architecture.md, "Server and clients"). Pure:
 * no runtime, no npm import, so the client stays a bare Deno start-up.
 *
 * Frames: one byte of type, four bytes of payload length (big-endian), the
 * payload. Input and output carry raw terminal bytes; the others carry one
 * JSON object. The first frame each way is a hello: its layout never
 * changes, so a client and a server of different versions can always say
 * so in one line instead of misbehaving.
 */

import { ENV_NAME } from "../model/update_env.ts";

/** Bumped on any change to the frames or messages below. */
export const SERVER_PROTOCOL = 4;

/** Longest payload accepted in one frame (a pasted text, a full frame at 500x200). */
export const MAX_FRAME = 4 * 1024 * 1024;

/**
 * The largest side a hello or a resize may name (the kernel's winsize is 16
 * bits): any terminal's size is taken, and the server draws at most
 * src/session/size_limit.ts's.
 */
export const MAX_TERMINAL_SIDE = 65_535;

export const FrameType = {
  /** Client → server, first: HelloMessage. */
  Hello: 1,
  /** Client → server: bytes typed (stdin). */
  Input: 2,
  /** Client → server: the terminal's new size, ResizeMessage. */
  Resize: 3,
  /** Client → server: leave, the sessions keep running. */
  Detach: 4,
  /**
   * Client → server, after a hello that offered its terminal (sent with
   * it): the terminal is in raw mode on the alternate screen, the server
   * may draw on it once it took it (ignored by a server that declined).
   */
  Ready: 5,
  /**
   * Client → server, from a client whose hello says `acks`: AckMessage, the
   * Output frames written to its terminal so far. The server draws no new
   * frame while too much it sent is not acknowledged (frames coalesce on a
   * slow link: src/server/client_output.ts). An older server ignores it.
   */
  Ack: 6,
  /**
   * Client → server: its terminal was taken from it and given back (the
   * client was stopped and continued, SIGCONT: a job-control shell put its
   * own modes in force and wrote over the frame meanwhile). The client has
   * put its modes back; the server draws the next frame whole. An older
   * server ignores it.
   */
  Redraw: 7,
  /** Server → client, first: WelcomeMessage (or an Exit). */
  Welcome: 10,
  /** Server → client: bytes to write to the terminal as they are. */
  Output: 11,
  /** Server → client: the last frame; ExitMessage. */
  Exit: 12,
} as const;
export type FrameType = typeof FrameType[keyof typeof FrameType];

/** What the client wants. */
export type ClientMode = "attach" | "ls" | "kill-server" | "restore" | "reload" | "web";

/** `lazyshell restore [--all|--forget] [NAME...]`: none of them lists what is saved. */
export interface RestoreRequest {
  readonly all: boolean;
  /** Drop the named (or, with `all`, every) saved session instead of restoring it. */
  readonly forget: boolean;
  readonly names: readonly string[];
  /**
   * The client started this server only to ask: once answered, a server
   * that runs no session ends (a restore whose sessions could not start
   * leaves no server behind; listing, `--forget` and an unknown name start
   * none, src/restore/without_server.ts).
   */
  readonly started?: boolean;
}

export interface HelloMessage {
  readonly protocol: number;
  /** The client's lazyshell version (for the mismatch message). */
  readonly version: string;
  readonly mode: ClientMode;
  readonly cols: number;
  readonly rows: number;
  /** The client's terminal is inside tmux: notifications need its passthrough. */
  readonly tmux: boolean;
  /** The client acknowledges the Output frames it wrote (FrameType.Ack); an older one does not. */
  readonly acks?: boolean;
  /** The client's working directory (new sessions start there). */
  readonly cwd: string;
  /** Mode `restore` only. */
  readonly restore?: RestoreRequest;
  /** Mode `web` only: `lazyshell web [--rotate] [--off]` (src/web/view.ts). */
  readonly web?: WebRequest;
  /**
   * Mode `attach`, Linux: the client's terminal (the path of its stdin and
   * stdout, its device number and the device number of the filesystem the
   * path is on), for the server to draw on and read itself (client_tty.ts).
   * Absent: the client relays bytes over the socket.
   */
  readonly tty?: TerminalName;
  /**
   * The client runs inside a lazyshell session (its $LAZYSHELL_SESSION_ID and
   * $LAZYSHELL_SOCK): a server refuses to attach a client inside one of its
   * own sessions (src/server/nesting.ts). Absent: not inside one, or forced.
   */
  readonly inside?: InsideSession;
  /**
   * Mode `attach`: the client's environment (src/model/update_env.ts
   * clientEnvironment), of which new sessions take the variables config
   * `update_environment` lists.
   */
  readonly env?: Readonly<Record<string, string>>;
  /** Mode `attach`, `attach -t TARGET`: the session (id or name) to show first. */
  readonly select?: string;
}

/** The lazyshell session a client's environment says it runs in. */
export interface InsideSession {
  readonly session: string;
  /** Its hook socket: the server's instance directory tells whose session it is. */
  readonly sock: string;
}

/**
 * A terminal as its client sees it: `device` is the node's st_rdev, `fs`
 * the st_dev of the filesystem it is on (each devpts mount has its own, so
 * /dev/pts/3 of another container, with the same st_rdev, is told apart).
 */
export interface TerminalName {
  readonly path: string;
  readonly device: number;
  readonly fs: number;
  /**
   * The client's process: the server reads the terminal only while that
   * process is not stopped and is in the terminal's foreground, i.e. while
   * its shell's job control has not taken the terminal back
   * (src/server/client_tty.ts). Absent (an older client): always read.
   */
  readonly pid?: number;
}

export interface WelcomeMessage {
  readonly protocol: number;
  readonly version: string;
  readonly pid: number;
  /** The server opened the terminal the hello named: it waits for Ready, then draws there. */
  readonly tty?: boolean;
}

export interface ResizeMessage {
  readonly cols: number;
  readonly rows: number;
}

/** Why a client's connection ended: each has one line a person can act on. */
export type ExitReason =
  | "detached"
  | "server-exit"
  | "killed"
  | "version"
  | "error"
  | "done";

export interface ExitMessage {
  readonly reason: ExitReason;
  /** One line for the person at the terminal (empty: nothing to say). */
  readonly message: string;
  /** The client's exit code. */
  readonly code: number;
}

const encoder = new TextEncoder();
const decoder = new TextDecoder();

export function frame(type: FrameType, payload: Uint8Array | string | object): Uint8Array {
  const body = payload instanceof Uint8Array
    ? payload
    : encoder.encode(typeof payload === "string" ? payload : JSON.stringify(payload));
  const out = new Uint8Array(5 + body.length);
  out[0] = type;
  new DataView(out.buffer).setUint32(1, body.length);
  out.set(body, 5);
  return out;
}

export interface Frame {
  readonly type: number;
  readonly payload: Uint8Array;
}

export class FrameError extends Error {}

/**
 * Splits a byte stream into frames; throws FrameError on a frame over
 * `limit`, or the first one over `first` (the server reads a hello first: a
 * small frame).
 */
export class FrameReader {
  #buf = new Uint8Array(0);
  readonly #limit: number;
  #first: number | null;

  constructor(limit = MAX_FRAME, first = limit) {
    this.#limit = limit;
    this.#first = first;
  }

  push(chunk: Uint8Array): Frame[] {
    if (this.#buf.length === 0) this.#buf = chunk.slice();
    else {
      const joined = new Uint8Array(this.#buf.length + chunk.length);
      joined.set(this.#buf);
      joined.set(chunk, this.#buf.length);
      this.#buf = joined;
    }
    const out: Frame[] = [];
    let at = 0;
    while (this.#buf.length - at >= 5) {
      const length = new DataView(this.#buf.buffer, this.#buf.byteOffset + at + 1, 4).getUint32(0);
      const limit = this.#first ?? this.#limit;
      if (length > limit) {
        throw new FrameError(
          `A ${this.#first === null ? "frame" : "first frame (the hello)"} of ${length} ` +
            `bytes, over the limit of ${limit}: connection closed`,
        );
      }
      if (this.#buf.length - at - 5 < length) break;
      this.#first = null;
      out.push({ type: this.#buf[at]!, payload: this.#buf.slice(at + 5, at + 5 + length) });
      at += 5 + length;
    }
    this.#buf = at === 0 ? this.#buf : this.#buf.slice(at);
    return out;
  }
}

export function text(payload: Uint8Array): string {
  return decoder.decode(payload);
}

function json(payload: Uint8Array): Record<string, unknown> {
  let value: unknown;
  try {
    value = JSON.parse(decoder.decode(payload));
  } catch {
    throw new FrameError("Not a JSON message");
  }
  if (typeof value !== "object" || value === null || Array.isArray(value)) {
    throw new FrameError("Not a JSON object");
  }
  return value as Record<string, unknown>;
}

function int(v: unknown, name: string, min: number, max: number): number {
  if (typeof v !== "number" || !Number.isInteger(v) || v < min || v > max) {
    throw new FrameError(`Bad ${name}: ${JSON.stringify(v)}`);
  }
  return v;
}

function str(v: unknown, name: string): string {
  if (typeof v !== "string") throw new FrameError(`Bad ${name}: ${JSON.stringify(v)}`);
  return v;
}

const MODES: readonly ClientMode[] = ["attach", "ls", "kill-server", "restore", "reload", "web"];

/** Names one restore request may carry (a session name is at most 64 characters). */
const MAX_RESTORE_NAMES = 1024;

function restoreRequest(v: unknown): RestoreRequest {
  const m = (typeof v === "object" && v !== null ? v : {}) as Record<string, unknown>;
  const names = m.names ?? [];
  if (
    !Array.isArray(names) || names.length > MAX_RESTORE_NAMES ||
    !names.every((n) => typeof n === "string" && n.length > 0 && n.length <= 256)
  ) {
    throw new FrameError("Bad restore names");
  }
  return {
    all: m.all === true,
    forget: m.forget === true,
    names,
    ...(m.started === true ? { started: true } : {}),
  };
}

/**
 * The protocol number of a hello, read first and alone: a hello of another
 * protocol is still answered with a clear mismatch, whatever else it holds.
 */
export function helloProtocol(payload: Uint8Array): number {
  return int(json(payload).protocol, "protocol", 0, 2 ** 31);
}

export function parseHello(payload: Uint8Array): HelloMessage {
  const m = json(payload);
  const mode = str(m.mode, "mode") as ClientMode;
  if (!MODES.includes(mode)) throw new FrameError(`Bad mode: ${mode}`);
  return {
    protocol: int(m.protocol, "protocol", 0, 2 ** 31),
    version: str(m.version, "version"),
    mode,
    cols: int(m.cols, "cols", 1, MAX_TERMINAL_SIDE),
    rows: int(m.rows, "rows", 1, MAX_TERMINAL_SIDE),
    tmux: m.tmux === true,
    ...(m.acks === true ? { acks: true } : {}),
    cwd: str(m.cwd, "cwd"),
    ...(mode === "restore" ? { restore: restoreRequest(m.restore) } : {}),
    ...(mode === "web" ? { web: webRequest(m.web) } : {}),
    ...(m.tty !== undefined ? { tty: terminal(m.tty) } : {}),
    ...(m.inside !== undefined ? { inside: insideSession(m.inside) } : {}),
    ...(m.env !== undefined ? { env: clientEnv(m.env) } : {}),
    ...(typeof m.select === "string" ? { select: m.select.slice(0, 256) } : {}),
  };
}

/** The web request is three flags; anything else in it is ignored. */
export interface WebRequest {
  readonly rotate: boolean;
  readonly off: boolean;
  readonly qr: boolean;
}

function webRequest(v: unknown): WebRequest {
  const m = (typeof v === "object" && v !== null ? v : {}) as Record<string, unknown>;
  return { rotate: m.rotate === true, off: m.off === true, qr: m.qr === true };
}

function clientEnv(v: unknown): Record<string, string> {
  if (typeof v !== "object" || v === null || Array.isArray(v)) throw new FrameError("Bad env");
  const out: Record<string, string> = {};
  for (const [name, value] of Object.entries(v)) {
    if (!ENV_NAME.test(name) || typeof value !== "string") throw new FrameError("Bad env");
    out[name] = value;
  }
  return out;
}

function insideSession(v: unknown): InsideSession {
  const m = (typeof v === "object" && v !== null ? v : {}) as Record<string, unknown>;
  const session = str(m.session, "inside session");
  const sock = str(m.sock, "inside sock");
  if (session.length > 64 || sock.length > 4096) throw new FrameError("Bad inside");
  return { session, sock };
}

function terminal(v: unknown): TerminalName {
  const m = (typeof v === "object" && v !== null ? v : {}) as Record<string, unknown>;
  const path = str(m.path, "tty path");
  if (path.length > 256) throw new FrameError("Bad tty path");
  return {
    path,
    device: int(m.device, "tty device", 0, Number.MAX_SAFE_INTEGER),
    fs: int(m.fs, "tty fs", 0, Number.MAX_SAFE_INTEGER),
    ...(m.pid !== undefined ? { pid: int(m.pid, "tty pid", 1, 2 ** 31 - 1) } : {}),
  };
}

export function parseWelcome(payload: Uint8Array): WelcomeMessage {
  const m = json(payload);
  return {
    protocol: int(m.protocol, "protocol", 0, 2 ** 31),
    version: str(m.version, "version"),
    pid: int(m.pid, "pid", 0, 2 ** 31),
    ...(m.tty === true ? { tty: true } : {}),
  };
}

/**
 * A client acknowledges once it wrote this many bytes of Output since its
 * last Ack, not after each frame: an Ack written just before a keystroke
 * holds that keystroke on a link without TCP_NODELAY (ssh with no terminal)
 * until the Ack's segment is acknowledged — a delayed ACK, ~40 ms an echo.
 * A quarter of the server's window (src/server/client_output.ts ACK_WINDOW),
 * so the server never waits on what the client holds back.
 */
export const ACK_EVERY_BYTES = 4 * 1024;

/** FrameType.Ack: Output frames written to the terminal since the Welcome. */
export interface AckMessage {
  readonly frames: number;
}

export function parseAck(payload: Uint8Array): AckMessage {
  return { frames: int(json(payload).frames, "frames", 0, Number.MAX_SAFE_INTEGER) };
}

export function parseResize(payload: Uint8Array): ResizeMessage {
  const m = json(payload);
  return {
    cols: int(m.cols, "cols", 1, MAX_TERMINAL_SIDE),
    rows: int(m.rows, "rows", 1, MAX_TERMINAL_SIDE),
  };
}

const REASONS: readonly ExitReason[] = [
  "detached",
  "server-exit",
  "killed",
  "version",
  "error",
  "done",
];

export function parseExit(payload: Uint8Array): ExitMessage {
  const m = json(payload);
  const reason = str(m.reason, "reason") as ExitReason;
  if (!REASONS.includes(reason)) throw new FrameError(`Bad reason: ${reason}`);
  return { reason, message: str(m.message, "message"), code: int(m.code, "code", 0, 255) };
}

/** The one line a client prints when the server speaks another protocol. */
export function versionMismatch(
  client: { version: string; protocol: number },
  server: { version: string; protocol: number },
  name: string,
): string {
  const flag = name === "default" ? "" : ` -L ${name}`;
  return `The running lazyshell server is version ${server.version} (protocol ${server.protocol}), ` +
    `this client is ${client.version} (protocol ${client.protocol}): run \`lazyshell${flag} ` +
    `kill-server\` to end it (its sessions end with it), or run lazyshell ${server.version}`;
}
