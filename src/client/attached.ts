/**
 * An attached client (src/client/client.ts), once its hello is sent: with
 * the terminal (raw mode, the alternate screen; taken before the hello when
 * it was offered to the server, else when the server welcomes it), it either
 * lets the server read and draw on it, or relays keys and frames; it relays
 * sizes and signals, and gives the terminal back however it ends. Loaded
 * while the server draws the first frame: nothing here delays the hello.
 */

import { dataDir, type Env } from "../config/paths.ts";
import { HostTerminal } from "../tui/host.ts";
import { leaveSplash, splashHandedOver } from "../tui/splash.ts";
import {
  ACK_EVERY_BYTES,
  type ExitMessage,
  FrameType,
  type HelloMessage,
  parseExit,
  parseWelcome,
  SERVER_PROTOCOL,
  versionMismatch,
} from "../wire/protocol.ts";
import { trimLater } from "../util/memory_trim.ts";
import { later } from "../util/async.ts";
import { printable } from "../model/printable.ts";
import type { ClientLink } from "./link.ts";

/** `taken`: the terminal, when the client took it before its hello (it offered it). */
export async function attached(
  link: ClientLink,
  taken: HostTerminal | null,
  hello: HelloMessage,
  name: string,
  env: Env,
  remote: string | null,
  shown?: (bytes: Uint8Array) => Uint8Array,
): Promise<number> {
  const host = taken ?? new HostTerminal();
  // What starting (a server too, maybe) left in the heap goes back to the system (~9 MB).
  trimLater();
  let exit: ExitMessage | null = null;
  let welcomed = false;
  let serverPid: number | null = null;
  let quiet = false;
  /** Output frames written to the terminal (FrameType.Ack), and their bytes since the last Ack. */
  let written = 0;
  let unacked = 0;
  /** The server draws on this terminal and reads it itself: nothing to relay but sizes. */
  let direct = false;
  const stop = Promise.withResolvers<void>();
  const onWinch = () => {
    const { cols, rows } = host.size;
    link.send(FrameType.Resize, { cols, rows });
  };
  // Stopped and continued (`fg` after a SIGSTOP or SIGTSTP): the shell had the terminal meanwhile.
  // Also before the Welcome is read: a client offering its terminal took it before its hello.
  const onContinue = () => {
    try {
      host.retake();
    } catch {
      return; // stdin gone: the end is near anyway
    }
    link.send(FrameType.Redraw, {});
    // Resized meanwhile: SIGWINCH goes to the terminal's foreground process group, not to it.
    onWinch();
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
    Deno.addSignalListener("SIGCONT", onContinue);
    const reading = (async () => {
      for await (const f of link.frames()) {
        if (f.type === FrameType.Output) {
          host.writeBytes(shown ? shown(f.payload) : f.payload);
          // Written to the terminal: the server may draw the next frame (frames coalesce behind).
          written++;
          unacked += f.payload.length;
          if (!direct && unacked >= ACK_EVERY_BYTES) {
            link.send(FrameType.Ack, { frames: written });
            unacked = 0;
          }
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
          host.querySync();
          splashHandedOver();
          direct = welcome.tty === true && hello.tty !== undefined;
          if (direct) {
            // The server draws on the terminal itself: quieting stderr (~5 ms) delays nothing.
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
    Deno.removeSignalListener("SIGCONT", onContinue);
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
    await (await import("./gone.ts")).gone(serverPid, 10_000);
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
