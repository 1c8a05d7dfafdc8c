/**
 * `ls`, `kill-server`, `restore`, `reload` and `web` (src/client/client.ts): print what the
 * server says, exit with its code. Loads neither the terminal's code nor, but when asked to
 * wait for a server's end or to show another host's text, what that needs.
 */

import { UserError } from "../errors.ts";
import type { ClientLink } from "./link.ts";
import {
  FrameType,
  type HelloMessage,
  parseExit,
  parseWelcome,
  SERVER_PROTOCOL,
  versionMismatch,
} from "../wire/protocol.ts";

export async function oneShot(
  link: ClientLink,
  hello: HelloMessage,
  name: string,
  remote: string | null,
): Promise<number> {
  // Text from another host is shown, never obeyed: no escape reaches this terminal.
  const printable = remote === null ? null : (await import("../model/printable.ts")).printable;
  const shown = (text: string) => printable === null ? text : printable(text);
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
      if (printable === null) await Deno.stdout.write(f.payload);
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
        if (remote === null) await (await import("./gone.ts")).gone(pid, 10_000);
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
