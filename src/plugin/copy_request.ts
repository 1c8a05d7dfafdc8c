/**
 * The bytes a plugin's `copy` request (docs/plugin-protocol.md §6) writes to
 * the user's terminal: OSC 52 "set the clipboard" with the text in base64.
 * Pure. Inside tmux the server wraps it for passthrough (notify/policy.ts
 * tmuxWrap), like notifications.
 */

/** `ESC ] 52 ; c ; <base64 of the UTF-8 text> BEL` */
export function osc52(text: string): string {
  const bytes = new TextEncoder().encode(text);
  let binary = "";
  for (const b of bytes) binary += String.fromCharCode(b);
  return `\x1b]52;c;${btoa(binary)}\x07`;
}
