/**
 * The bridge's greeting (docs/remote.md, "The bridge"): the first line
 * `lazyshell bridge` writes on its stdout, before the bytes of the server's
 * own protocol (attach frames, control lines) pass through unchanged.
 *
 *   LAZYSHELL-BRIDGE {"bridge":1,"version":"0.1.0","ok":true,"cwd":"/home/me"}
 *   LAZYSHELL-BRIDGE {"bridge":1,"version":"0.1.0","ok":false,"error":"…"}
 *
 * The marker lets the client skip what a remote shell's start-up files print
 * on stdout before it, and tells "no lazyshell there" (no greeting) from "an
 * incompatible one" (another `bridge`) and "it could not reach its server"
 * (`ok: false`). Pure.
 */

import { newlineAt } from "../util/lines.ts";

export const BRIDGE_PROTOCOL = 1;
export const GREETING_MARK = "LAZYSHELL-BRIDGE ";
/** What is read looking for the greeting before giving up. */
export const GREETING_LIMIT = 64 * 1024;

export type Greeting =
  | { readonly bridge: number; readonly version: string; readonly ok: true; readonly cwd: string }
  | {
    readonly bridge: number;
    readonly version: string;
    readonly ok: false;
    readonly error: string;
  };

export function greetingLine(greeting: Greeting): string {
  return `${GREETING_MARK}${JSON.stringify(greeting)}\n`;
}

const decoder = new TextDecoder();

/**
 * Looks for the greeting in what stdout gave so far: the greeting and the
 * bytes after it (the protocol's), `null` when more is needed, or an error
 * line when what came is no greeting.
 */
export function findGreeting(
  bytes: Uint8Array,
): { greeting: Greeting; rest: Uint8Array } | { error: string } | null {
  let start = 0;
  for (;;) {
    const nl = newlineAt(bytes, start);
    if (nl === -1) {
      return bytes.length > GREETING_LIMIT ? { error: "no greeting in its first 64 KiB" } : null;
    }
    const line = decoder.decode(bytes.subarray(start, nl)).replace(/\r$/, "");
    if (line.startsWith(GREETING_MARK)) {
      const greeting = parseGreeting(line.slice(GREETING_MARK.length));
      if (greeting === null) return { error: "a greeting that cannot be read" };
      return { greeting, rest: bytes.subarray(nl + 1) };
    }
    start = nl + 1; // a line a start-up file printed
  }
}

function parseGreeting(json: string): Greeting | null {
  let v: Record<string, unknown>;
  try {
    v = JSON.parse(json);
  } catch {
    return null;
  }
  if (typeof v !== "object" || v === null) return null;
  if (typeof v.bridge !== "number" || typeof v.version !== "string") return null;
  if (v.ok === true && typeof v.cwd === "string") {
    return { bridge: v.bridge, version: v.version, ok: true, cwd: v.cwd };
  }
  if (v.ok === false && typeof v.error === "string") {
    return { bridge: v.bridge, version: v.version, ok: false, error: v.error };
  }
  // A later bridge may say more; its number says whether we can follow it.
  if (v.bridge !== BRIDGE_PROTOCOL) {
    return { bridge: v.bridge, version: v.version, ok: false, error: "" };
  }
  return null;
}
