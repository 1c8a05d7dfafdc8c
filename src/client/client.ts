/**
 * The client: what a person's terminal runs (`lazyshell`, `lazyshell
 * attach`, `ls`, `kill-server`, `restore`, `reload`). It draws nothing itself: it puts the
 * terminal in raw mode and the alternate screen, hands the terminal to the
 * lasting server (which reads it and draws on it, src/server/client_tty.ts;
 * where it cannot, the client forwards what is typed and writes what the
 * server sends), relays the terminal's size and signals, and restores the
 * terminal however it ends (detach, the server's end, a lost server,
 * SIGTERM). Killing it loses nothing: the server keeps every session
 * (docs/architecture.md, "Server and clients").
 *
 * Loads no npm package (tests/hook_graph_test.ts): attaching costs about
 * a bare Deno start-up.
 */

import { dataDir, type Env } from "../config/paths.ts";
import { UserError } from "../errors.ts";
import { ensureRuntimeRoot } from "../ipc/runtime_dir.ts";
import { checkOwnSocket } from "../ipc/private_path.ts";
import { selfCommand } from "../plugin/self.ts";
import { isAlive } from "../platform/liveness.ts";
import { ownTerminal } from "../platform/terminal.ts";
import { HostTerminal } from "../tui/host.ts";
import { leaveSplash, showSplash, splashHandedOver } from "../tui/splash.ts";
import { serverName, serverPaths } from "../wire/paths.ts";
import {
  type ClientMode,
  type ExitMessage,
  frame,
  FrameReader,
  FrameType,
  type HelloMessage,
  parseExit,
  parseWelcome,
  type RestoreRequest,
  SERVER_PROTOCOL,
  versionMismatch,
  type WebRequest,
} from "../wire/protocol.ts";
import { canConnect, ensureServer } from "../wire/spawn.ts";
import { trimLater } from "../util/memory_trim.ts";
import { clientEnvironment } from "../model/update_env.ts";
import { delay, later } from "../util/async.ts";
import type { Duplex } from "../ipc/duplex.ts";
import { printable } from "../model/printable.ts";

export interface ClientOptions {
  readonly mode: ClientMode;
  /** `-L NAME`. */
  readonly name?: string | undefined;
  /** Start a server when none runs (plain `lazyshell`), with this project file. */
  readonly start?: boolean;
  readonly project?: string | undefined;
  /** `--yes`: trust the nearest lazyshell.yml as it is now. */
  readonly yes?: boolean | undefined;
  readonly version: string;
  /** `restore` only: what to restore, forget or list. */
  readonly restore?: RestoreRequest;
  /** `web` only (src/web/view.ts). */
  readonly web?: WebRequest;
  /** `attach -t TARGET`: the session to show first (id or name). */
  readonly select?: string;
  /**
   * `-H DEST` (src/remote/): the server on another host, reached through
   * ssh and `lazyshell bridge` instead of the unix socket. `open` starts the
   * server there first when asked; `cwd` is the bridge's folder there.
   */
  readonly remote?: {
    readonly label: string;
    open(start: boolean): Promise<{ conn: Duplex; cwd: string }>;
    /** What the terminal gets of each Output frame (the host's name in notifications). */
    shown?(bytes: Uint8Array): Uint8Array;
  };
}

export async function runClient(options: ClientOptions): Promise<number> {
  const env = Deno.env.toObject();
  const name = serverName(env, options.name);
  const paths = serverPaths(env, name);
  const flag = name === "default" ? "" : ` -L ${name}`;
  if (options.mode === "attach" && (!Deno.stdin.isTerminal() || !Deno.stdout.isTerminal())) {
    throw new UserError("lazyshell needs a terminal; use `lazyshell serve` without one");
  }
  if (options.remote) {
    const { conn, cwd } = await options.remote.open(options.start === true);
    const link = new ClientLink(conn);
    return await speak(options, env, name, link, cwd, options.remote.label, false);
  }
  if (options.mode === "restore" && options.start) {
    const code = await restoreWithoutServer(env, name, paths, options.restore);
    if (code !== null) return code;
  }
  let started = false;
  if (options.start) {
    ensureRuntimeRoot(env);
    const running = await canConnect(paths.socket);
    // A new server starts the nearest lazyshell.yml: the user says yes to it first, here.
    // `restore` starts none: the saved sessions, project ones too, come back as they were saved.
    const approved = options.mode === "attach" &&
      (running || options.project !== undefined || options.yes === true || await trusted(env));
    if (!running && options.mode === "attach") await showSplash();
    try {
      started = await ensureServer({
        paths,
        name,
        self: selfCommand(),
        project: options.project,
        projectArgs: options.yes ? ["--yes"] : approved ? [] : ["--no-project"],
        cwd: Deno.cwd(),
        env,
        logFile: serverLog(env),
      });
    } catch (error) {
      leaveSplash();
      throw error;
    }
  }
  // Keys typed here go to that socket: only into a directory of ours (docs/control-api.md).
  checkOwnSocket(paths.socket);
  let conn: Deno.UnixConn;
  try {
    conn = await Deno.connect({ transport: "unix", path: paths.socket });
  } catch {
    leaveSplash();
    throw new UserError(
      `No lazyshell server is running${flag ? ` named ${name}` : ""} (${paths.socket})` +
        (options.mode === "attach" ? `: start one with \`lazyshell${flag}\`` : ""),
    );
  }
  if (options.project && !started) {
    console.error(`lazyshell: a server is already running: --project ${options.project} ignored`);
  }
  return await speak(options, env, name, new ClientLink(conn), Deno.cwd(), null, started);
}

/**
 * `restore` with no server running, when it starts no saved session
 * (listing, `--forget`, names none of which is saved): answered from the
 * state file, in the server's words, and no server is started
 * (src/restore/without_server.ts). Null: a server answers. The start lock
 * is held meanwhile: no client starts a server that reads the file then.
 */
async function restoreWithoutServer(
  env: Env,
  name: string,
  paths: ReturnType<typeof serverPaths>,
  ask: RestoreRequest = { all: false, forget: false, names: [] },
): Promise<number | null> {
  ensureRuntimeRoot(env);
  if (await canConnect(paths.socket)) return null;
  using lock = await Deno.open(paths.lock, { create: true, write: true, mode: 0o600 });
  await lock.lock(true);
  try {
    if (await canConnect(paths.socket)) return null;
    // Loaded only here: the manifests and the state file's schema are npm-backed.
    const { answerWithoutServer } = await import("../restore/without_server.ts");
    const answer = await answerWithoutServer(env, name, ask);
    if (answer === null) return null;
    await Deno.stdout.write(new TextEncoder().encode(answer.text));
    return answer.code;
  } finally {
    await lock.unlock();
  }
}

/** The hello, then the mode's exchange, over a socket or (`remote`: its label) a bridge. */
async function speak(
  options: ClientOptions,
  env: Env,
  name: string,
  link: ClientLink,
  cwd: string,
  remote: string | null,
  started: boolean,
): Promise<number> {
  const host = new HostTerminal();
  const size = host.size;
  let hello: HelloMessage = {
    protocol: SERVER_PROTOCOL,
    version: options.version,
    mode: options.mode,
    cols: size.cols,
    rows: size.rows,
    tmux: Boolean(env.TMUX),
    cwd,
    ...(options.mode === "attach" ? { acks: true } : {}),
    ...(options.mode === "attach" && options.select ? { select: options.select } : {}),
    ...(options.mode === "restore"
      ? {
        restore: {
          ...(options.restore ?? { all: false, forget: false, names: [] }),
          // Then a server that runs nothing once it answered ends: no side effect.
          ...(started ? { started: true } : {}),
        },
      }
      : {}),
    ...(options.mode === "web"
      ? {
        web: {
          rotate: options.web?.rotate === true,
          off: options.web?.off === true,
          qr: Deno.stdout.isTerminal(),
        },
      }
      : {}),
  };
  // A remote server cannot open this terminal: it relays.
  const tty = options.mode === "attach" && env.LAZYSHELL_CLIENT_RELAY !== "1" && remote === null
    ? ownTerminal()
    : null;
  if (tty) hello = { ...hello, tty };
  // New sessions take the variables config lists from here (update_environment), as in tmux;
  // not on another host: this one's SSH_AUTH_SOCK, DISPLAY or keys mean nothing there.
  if (options.mode === "attach" && remote === null) {
    hello = { ...hello, env: clientEnvironment(env) };
  }
  // Run inside a lazyshell session: its server refuses to draw itself into it (src/server/nesting.ts).
  if (options.mode === "attach" && env.LAZYSHELL_SESSION_ID && remote === null) {
    hello = {
      ...hello,
      inside: { session: env.LAZYSHELL_SESSION_ID, sock: env.LAZYSHELL_SOCK ?? "" },
    };
  }
  link.send(FrameType.Hello, hello);
  if (options.mode !== "attach") return await oneShot(link, hello, name, remote);
  // What starting (a server too, maybe) left in the heap goes back to the system (~9 MB).
  trimLater();
  return await attached(link, host, hello, name, env, remote, options.remote?.shown);
}

/** `ls`, `kill-server`, `restore` and `reload`: print what the server says, exit with its code. */
async function oneShot(
  link: ClientLink,
  hello: HelloMessage,
  name: string,
  remote: string | null,
): Promise<number> {
  // Text from another host is shown, never obeyed: no escape reaches this terminal.
  const shown = (text: string) => remote === null ? text : printable(text);
  const decoder = new TextDecoder();
  let ended: number | null = null;
  let pid: number | null = null;
  for await (const f of link.frames()) {
    if (f.type === FrameType.Welcome) {
      const welcome = parseWelcome(f.payload);
      if (welcome.protocol !== SERVER_PROTOCOL) {
        throw new UserError(shown(versionMismatch(hello, welcome, name)));
      }
      pid = welcome.pid;
    } else if (f.type === FrameType.Output) {
      if (remote === null) await Deno.stdout.write(f.payload);
      else {
        const text = printable(decoder.decode(f.payload, { stream: true }));
        await Deno.stdout.write(new TextEncoder().encode(text));
      }
    } else if (f.type === FrameType.Exit) {
      const exit = parseExit(f.payload);
      for (const line of exit.message ? exit.message.split("\n") : []) {
        console.error(`lazyshell: ${shown(line)}`);
      }
      // kill-server returns once the server is gone: its sessions, sockets and directory too;
      // so does a restore that ended the server it started (its state file written).
      // (On another host the bridge's end says so: ssh's stdout closes.)
      const ends = hello.mode === "kill-server" || exit.reason === "server-exit";
      if (ends && pid !== null) {
        if (remote === null) await gone(pid, 10_000);
        else {
          ended = exit.code;
          continue;
        }
      }
      return exit.code;
    }
  }
  if (ended !== null) return ended;
  throw new UserError(
    remote === null
      ? "The lazyshell server closed the connection without an answer"
      : `The connection to ${remote} closed without an answer`,
  );
}

async function attached(
  link: ClientLink,
  host: HostTerminal,
  hello: HelloMessage,
  name: string,
  env: Env,
  remote: string | null,
  shown?: (bytes: Uint8Array) => Uint8Array,
): Promise<number> {
  let exit: ExitMessage | null = null;
  let welcomed = false;
  let serverPid: number | null = null;
  let quiet = false;
  /** Output frames written to the terminal (FrameType.Ack). */
  let acked = 0;
  /** The server draws on this terminal and reads it itself: nothing to relay but sizes. */
  let direct = false;
  const stop = Promise.withResolvers<void>();
  const onWinch = () => {
    const { cols, rows } = host.size;
    link.send(FrameType.Resize, { cols, rows });
  };
  const onSignal = (signal: Deno.Signal) => () => {
    const codes = { SIGTERM: 143, SIGHUP: 129, SIGINT: 130 } as Record<string, number>;
    exit = { reason: "detached", message: "", code: codes[signal] ?? 1 };
    if (!direct) return stop.resolve();
    // The server lets the terminal go (its last frame written) before this client restores it.
    link.send(FrameType.Detach, {});
    later(300, () => stop.resolve());
  };
  const relay = () => {
    void forwardInput(link, stop.promise).then(() => {
      // stdin ended (the terminal went away): leave as a detach.
      exit ??= { reason: "detached", message: "", code: 0 };
      stop.resolve();
    });
  };
  const signals = (["SIGTERM", "SIGHUP", "SIGINT"] as const).map((s) => [s, onSignal(s)] as const);
  try {
    for (const [s, handler] of signals) Deno.addSignalListener(s, handler);
    Deno.addSignalListener("SIGWINCH", onWinch);
    const reading = (async () => {
      for await (const f of link.frames()) {
        if (f.type === FrameType.Output) {
          host.writeBytes(shown ? shown(f.payload) : f.payload);
          // Written to the terminal: the server may draw the next frame (frames coalesce behind).
          if (!direct) link.send(FrameType.Ack, { frames: ++acked });
          if (!quiet) host.quietStderr(dataDir(env));
          quiet = true;
        } else if (f.type === FrameType.Welcome) {
          const welcome = parseWelcome(f.payload);
          if (welcome.protocol !== SERVER_PROTOCOL) {
            exit = {
              reason: "version",
              message: versionMismatch(hello, welcome, name),
              code: 2,
            };
            break;
          }
          welcomed = true;
          serverPid = welcome.pid;
          host.enter();
          splashHandedOver();
          direct = welcome.tty === true && hello.tty !== undefined;
          if (direct) {
            link.send(FrameType.Ready, {});
            // The server draws the first frame meanwhile: quieting stderr (~5 ms) delays nothing.
            host.quietStderr(dataDir(env));
            quiet = true;
          } else if (hello.tty !== undefined) relay(); // declined: relay from now on
          // The terminal may have changed size between the hello and now.
          onWinch();
        } else if (f.type === FrameType.Exit) {
          // A signal's own exit code stands (the server answered its Detach).
          exit ??= parseExit(f.payload);
          break;
        }
      }
      stop.resolve();
    })();
    // Offering the terminal to the server: stdin is not read until the server declines
    // (a read in flight here would take a key from it).
    if (hello.tty === undefined) relay();
    await stop.promise;
    link.close();
    await reading.catch(() => {});
  } finally {
    Deno.removeSignalListener("SIGWINCH", onWinch);
    for (const [s, handler] of signals) Deno.removeSignalListener(s, handler);
    host.restore();
    leaveSplash();
  }
  const end = exit as ExitMessage | null;
  if (end === null) {
    const flag = name === "default" ? "" : ` -L ${name}`;
    console.error(
      remote !== null
        ? `lazyshell: lost the connection to ${remote}${welcomed ? "" : " before attaching"}${
          link.unanswered > 0
            ? ` (${link.unanswered} input${
              link.unanswered === 1 ? "" : "s"
            } typed after its last answer may not have arrived)`
            : ""
        }: the sessions there go on (run the same command to attach again)`
        : welcomed
        ? `lazyshell: lost the server (it was killed or crashed; see its crash log in ` +
          `${dataDir(env)}): \`lazyshell${flag}\` starts a new one`
        : "lazyshell: the server closed the connection before attaching",
    );
    return 1;
  }
  // The server ends: the terminal comes back once its sessions and sockets are gone.
  if (
    (end.reason === "server-exit" || end.reason === "killed") && serverPid !== null &&
    remote === null
  ) {
    await gone(serverPid, 10_000);
  }
  // What another host says is shown, never obeyed.
  const message = remote === null ? end.message : printable(end.message);
  // `[detached (from session …, server …)]` on stdout, as tmux prints it; anything else is a problem.
  if (end.reason === "detached" && message) console.log(message);
  else if (message) console.error(`lazyshell: ${message}`);
  return end.code;
}

/** stdin → Input frames until EOF, an error (EIO: the terminal hung up) or `stop`. */
async function forwardInput(link: ClientLink, stop: Promise<void>): Promise<void> {
  const buf = new Uint8Array(64 * 1024);
  let stopped = false;
  void stop.then(() => (stopped = true));
  while (!stopped) {
    let n: number | null;
    try {
      n = await Promise.race([Deno.stdin.read(buf), stop.then(() => null)]);
    } catch {
      return;
    }
    if (n === null) return;
    link.send(FrameType.Input, buf.slice(0, n));
  }
}

async function gone(pid: number, ms: number): Promise<void> {
  const deadline = performance.now() + ms;
  while (isAlive(pid) && performance.now() < deadline) {
    await delay(20);
  }
}

/**
 * Whether the nearest lazyshell.yml may start: true when there is none;
 * otherwise `lazyshell trust --ask` says (silent when it is trusted as it
 * is; else it shows what the file starts and asks on this terminal).
 */
async function trusted(env: Env): Promise<boolean> {
  // Only when no server runs: attaching to one does not load it.
  const { findProjectFile } = await import("../config/project_find.ts");
  if (findProjectFile(Deno.cwd(), env.HOME ?? null) === null) return true;
  const [exe, ...args] = selfCommand();
  const status = await new Deno.Command(exe!, {
    args: [...args, "trust", "--ask"],
    stdin: "inherit",
    stdout: "inherit",
    stderr: "inherit",
  }).spawn().status;
  if (status.code === 2) throw new UserError("The project file was not started (see above)");
  return status.success;
}

function serverLog(env: Env): string {
  const dir = dataDir(env);
  try {
    Deno.mkdirSync(dir, { recursive: true });
  } catch { /* the spawn reports it */ }
  return `${dir}/server.log`;
}

/** The client's end of the connection: ordered writes, frames in. */
class ClientLink {
  readonly #conn: Duplex;
  #chain: Promise<void> = Promise.resolve();
  #inFlight = 0;
  #closed = false;
  /** Input frames sent since the server last sent anything: not known to have arrived. */
  #unanswered = 0;

  constructor(conn: Duplex) {
    this.#conn = conn;
  }

  /**
   * Writes in order. With nothing in flight the write starts in this call
   * (Deno writes a socket at once), so the hello reaches the server while
   * the client still sets up its terminal, and a key goes out without
   * waiting for a microtask.
   */
  send(type: FrameType, payload: Uint8Array | object): void {
    if (type === FrameType.Input) this.#unanswered++;
    if (this.#closed) return;
    const data = frame(type, payload);
    const write = async () => {
      try {
        for (let n = 0; n < data.length && !this.#closed;) {
          n += await this.#conn.write(data.subarray(n));
        }
      } catch {
        /* the connection is gone: frames() ends */
      } finally {
        this.#inFlight--;
      }
    };
    this.#chain = this.#inFlight++ === 0 ? write() : this.#chain.then(write);
  }

  async *frames() {
    const reader = new FrameReader();
    const buf = new Uint8Array(256 * 1024);
    for (;;) {
      let n: number | null;
      try {
        n = await this.#conn.read(buf);
      } catch {
        return;
      }
      if (n === null) return;
      this.#unanswered = 0;
      yield* reader.push(buf.subarray(0, n));
    }
  }

  get unanswered(): number {
    return this.#unanswered;
  }

  close(): void {
    if (this.#closed) return;
    this.#closed = true;
    try {
      this.#conn.close();
    } catch { /* closed */ }
  }
}
