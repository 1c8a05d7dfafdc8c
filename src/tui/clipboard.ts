/**
 * The host clipboard through OSC 52 (`ESC ] 52 ; c ; <base64> BEL`): the
 * terminal a client runs in sets its clipboard, over SSH too. Inside tmux
 * the sequence is wrapped for passthrough (`ESC P tmux; … ESC \`, every
 * ESC doubled), as notifications are; tmux then needs `allow-passthrough
 * on` (tmux ≥ 3.3), and the outer terminal must allow clipboard writes.
 */

import { tmuxWrap } from "../notify/policy.ts";

/**
 * The most text one copy sends. Terminals cap OSC 52 differently (xterm
 * at its `maxStringLength`, tmux at its input buffer); beyond this a copy
 * is refused with a message instead of arriving cut.
 */
export const MAX_COPY_BYTES = 512 * 1024;

/** The bytes that put `text` on the clipboard of the terminal they are written to. */
export function osc52(text: string, insideTmux: boolean): string {
  const sequence = `\x1b]52;c;${base64(new TextEncoder().encode(text))}\x07`;
  return insideTmux ? tmuxWrap(sequence) : sequence;
}

function base64(bytes: Uint8Array): string {
  let binary = "";
  // Chunks: String.fromCharCode takes its arguments on the stack.
  for (let i = 0; i < bytes.length; i += 0x8000) {
    binary += String.fromCharCode(...bytes.subarray(i, i + 0x8000));
  }
  return btoa(binary);
}
