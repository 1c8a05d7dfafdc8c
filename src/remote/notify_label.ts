/**
 * The host's name in the notifications a remote server sends over `-H`
 * (docs/remote.md, "How a remote screen reaches the local terminal"): the
 * remote server's notifier writes OSC 9 (`ESC ] 9 ; body BEL`) and OSC 777
 * (`ESC ] 777 ; notify ; title ; body BEL`), wrapped for tmux or not
 * (src/notify/policy.ts); the client puts `dev: ` in front of the body and
 * the title. Sessions' own bytes never reach the frames raw (the server
 * draws cells), so only the notifier's sequences match. Pure.
 */

import { printable } from "../model/printable.ts";

const encoder = new TextEncoder();
const OSC9 = encoder.encode("]9;");
const OSC777 = encoder.encode("]777;notify;");

function startsAt(bytes: Uint8Array, at: number, prefix: Uint8Array): boolean {
  if (at + prefix.length > bytes.length) return false;
  for (let i = 0; i < prefix.length; i++) if (bytes[at + i] !== prefix[i]) return false;
  return true;
}

/** The label as it may stand inside an OSC field: shown escapes, no `;`. */
export function notifyLabel(host: string): Uint8Array {
  return encoder.encode(`${printable(host).replaceAll(";", ",")}: `);
}

/** `bytes` with `label` after every OSC 9 / OSC 777 notify prefix; the same array when none. */
export function labelNotifications(bytes: Uint8Array, label: Uint8Array): Uint8Array {
  const parts: Uint8Array[] = [];
  let from = 0;
  for (let esc = bytes.indexOf(0x1b); esc !== -1; esc = bytes.indexOf(0x1b, esc + 1)) {
    const prefix = startsAt(bytes, esc + 1, OSC9)
      ? OSC9
      : startsAt(bytes, esc + 1, OSC777)
      ? OSC777
      : null;
    if (prefix === null) continue;
    const end = esc + 1 + prefix.length;
    parts.push(bytes.subarray(from, end), label);
    from = end;
  }
  if (parts.length === 0) return bytes;
  parts.push(bytes.subarray(from));
  const out = new Uint8Array(parts.reduce((n, p) => n + p.length, 0));
  let at = 0;
  for (const p of parts) {
    out.set(p, at);
    at += p.length;
  }
  return out;
}
