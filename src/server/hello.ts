/**
 * A connection's hello, checked before anything is done for it
 * (docs/architecture.md, "Server and clients"): its first frame must be a
 * hello of this server's protocol (a client of another version hears both
 * versions), a client inside one of this server's own sessions is refused
 * before its terminal is touched (nesting.ts), and an attach past the limit
 * of clients is told why (attach_limits.ts). Each refusal closes the link.
 */

import { messageOf } from "../errors.ts";
import type { Runtime } from "../runtime/runtime.ts";
import {
  type ExitMessage,
  type Frame,
  FrameType,
  type HelloMessage,
  helloProtocol,
  parseHello,
  SERVER_PROTOCOL,
  text,
  versionMismatch,
} from "../wire/protocol.ts";
import { type AttachLimits, attachRefusal } from "./attach_limits.ts";
import type { Link } from "./link.ts";
import { nestedIn, nestedMessage } from "./nesting.ts";

/** What the server says of itself in its Welcome (and to a client of another version). */
export interface Welcome {
  readonly protocol: number;
  readonly version: string;
  readonly pid: number;
}

/** What the checks need of the server. */
export interface HelloChecks {
  readonly runtime: Runtime;
  /** The server's name (`-L`), for messages. */
  readonly name: string;
  readonly welcome: Welcome;
  /** The server's sockets directory (nesting.ts); undefined: not checked. */
  readonly instanceDir: string | undefined;
  /** Clients attached now. */
  readonly clients: number;
  readonly limits: AttachLimits;
}

/** The hello in `first`, or null once the link was refused (or told why it cannot attach). */
export async function checkHello(
  link: Link,
  first: Frame,
  checks: HelloChecks,
): Promise<HelloMessage | null> {
  if (first.type !== FrameType.Hello) {
    link.refuse("The first frame was not a hello: closed");
    return null;
  }
  let protocol: number;
  try {
    protocol = helloProtocol(first.payload);
  } catch (error) {
    link.refuse(`Bad hello: ${messageOf(error)}`);
    return null;
  }
  if (protocol !== SERVER_PROTOCOL) {
    let version = "unknown";
    try {
      version = String(JSON.parse(text(first.payload)).version ?? version);
    } catch { /* the protocol number was enough */ }
    link.send(
      FrameType.Exit,
      {
        reason: "version",
        message: versionMismatch({ version, protocol }, checks.welcome, checks.name),
        code: 2,
      } satisfies ExitMessage,
    );
    await link.flush();
    link.close();
    return null;
  }
  let hello: HelloMessage;
  try {
    hello = parseHello(first.payload);
  } catch (error) {
    link.refuse(`Bad hello: ${messageOf(error)}`);
    return null;
  }
  // Inside one of our own sessions: refused before its terminal is touched.
  const nested = hello.mode === "attach" && checks.instanceDir
    ? nestedIn(hello, checks.runtime.state.sessions, checks.instanceDir)
    : null;
  if (nested) {
    link.send(FrameType.Exit, { reason: "error", message: nestedMessage(nested), code: 2 });
    await link.flush();
    link.close();
    return null;
  }
  const full = hello.mode === "attach" ? attachRefusal(checks.clients, checks.limits) : null;
  if (full) {
    link.refuse(full);
    return null;
  }
  return hello;
}
