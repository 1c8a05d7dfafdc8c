/**
 * The client: what a person's terminal runs (`lazyshell`, `lazyshell
 * attach`, `ls`, `kill-server`, `restore`, `reload`, `web`). It draws nothing itself: it puts the
 * terminal in raw mode and the alternate screen, hands the terminal to the
 * lasting server (which reads it and draws on it, src/server/client_tty.ts;
 * where it cannot, the client forwards what is typed and writes what the
 * server sends), relays the terminal's size and signals, and restores the
 * terminal however it ends (detach, the server's end, a lost server,
 * SIGTERM). Killing it loses nothing: the server keeps every session
 * (docs/architecture.md, "Server and clients").
 *
 * Loads no npm package (tests/hook_graph_test.ts): attaching costs about
 * a bare Deno start-up. Before its hello this module loads only what the
 * hello needs (tests/client_graph_test.ts); the rest is loaded by mode:
 * starting a server (start.ts), a one-shot answer (one_shot.ts), the
 * attached terminal (attached.ts, loaded while the server draws).
 */

import type { Env } from "../config/paths.ts";
import { UserError } from "../errors.ts";
import { checkOwnSocket } from "../ipc/private_path.ts";
import { ownTerminal, terminalSize } from "../platform/terminal.ts";
import { serverName, serverPaths } from "../wire/paths.ts";
import {
  type ClientMode,
  FrameType,
  type HelloMessage,
  type RestoreRequest,
  SERVER_PROTOCOL,
  type WebRequest,
} from "../wire/protocol.ts";
import { clientEnvironment } from "../model/update_env.ts";
import type { Duplex } from "../ipc/duplex.ts";
import { ClientLink } from "./link.ts";
// Loaded with the rest (not on demand): nothing waits between it and the hello.
import { HostTerminal } from "../tui/host.ts";

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
  // Only a client that may start a server loads how (start.ts).
  const start = options.start ? await import("./start.ts") : null;
  if (start && options.mode === "restore") {
    const code = await start.restoreWithoutServer(env, name, paths, options.restore);
    if (code !== null) return code;
  }
  const started = start ? await start.startServer(options, env, name, paths) : false;
  // Keys typed here go to that socket: only into a directory of ours (docs/control-api.md).
  checkOwnSocket(paths.socket);
  let conn: Deno.UnixConn;
  try {
    conn = await Deno.connect({ transport: "unix", path: paths.socket });
  } catch {
    if (start) (await import("../tui/splash.ts")).leaveSplash();
    throw new UserError(
      `No lazyshell server is running${flag ? ` named ${name}` : ""} (${paths.socket})` +
        (options.mode === "attach" ? `: start one with \`lazyshell${flag}\`` : ""),
    );
  }
  if (start && !started) {
    (await import("./project_notice.ts")).sayProjectNotStarted(options, env, name);
  }
  return await speak(options, env, name, new ClientLink(conn), Deno.cwd(), null, started);
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
  const size = terminalSize();
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
  if (tty) hello = { ...hello, tty: { ...tty, pid: Deno.pid } };
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
  // Offered to the server, the terminal is taken first (raw mode, the alternate screen: the
  // first byte it gets), and Ready goes with the hello: the server's first frame waits for no
  // round trip to this client (a server that declines the terminal ignores Ready).
  const host = tty ? new HostTerminal() : null;
  host?.enter();
  link.send(FrameType.Hello, hello);
  if (host) link.send(FrameType.Ready, {});
  // Loaded while the server answers.
  if (options.mode !== "attach") {
    const { oneShot } = await import("./one_shot.ts");
    return await oneShot(link, hello, name, remote);
  }
  try {
    const { attached } = await import("./attached.ts");
    return await attached(link, host, hello, name, env, remote, options.remote?.shown);
  } finally {
    host?.restore();
  }
}
