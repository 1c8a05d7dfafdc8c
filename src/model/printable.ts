/**
 * Text from a peer (a control reply, a session or group name) made safe to
 * print on a terminal: C0 controls other than newline and tab, DEL and the
 * C1 controls (U+0080–U+009F, which terminals honour as CSI, OSC, … even
 * UTF-8 encoded) are shown as `\xNN` / `\u00NN` instead of being sent raw.
 * An ESC cannot start a sequence, a CR cannot overwrite the line. The
 * bidirectional controls (U+202E …) are shown as `\uNNNN` too: they would
 * make the text after them read in another order.
 */

// deno-lint-ignore no-control-regex -- matching control characters is the point
const CONTROLS = /[\x00-\x08\x0b-\x1f\x7f-\x9f\u061c\u200e\u200f\u202a-\u202e\u2066-\u2069]/g;

export function printable(text: string): string {
  return text.replace(CONTROLS, (c) => {
    const code = c.charCodeAt(0);
    const hex = code.toString(16).padStart(code < 0x100 ? 2 : 4, "0");
    return code < 0x80 ? `\\x${hex}` : code < 0x100 ? `\\u00${hex}` : `\\u${hex}`;
  });
}

/** Whether `text` holds a character printable() would escape (or a newline or tab). */
export function hasControls(text: string): boolean {
  // deno-lint-ignore no-control-regex -- see CONTROLS
  return /[\x00-\x1f\x7f-\x9f]/.test(text);
}

/**
 * Escape sequences in text a peer sent (a hook's message, an agent's OSC
 * 7501 msg): CSI (`ESC [` or C1 `\x9b` … final byte), OSC, DCS, SOS, PM and
 * APC strings (to BEL or ST, or the end), and any other `ESC x`.
 */
const SEQUENCES =
  // deno-lint-ignore no-control-regex -- escape sequences are what is removed
  /(\x1b\[|\x9b)[\x20-\x3f]*[\x40-\x7e]?|(\x1b[\]PX^_]|[\x90\x98\x9d-\x9f])[^\x07\x1b\x9c]*(\x07|\x1b\\|\x9c)?|\x1b[\x20-\x7e]?/g;

/**
 * The text with escape sequences removed, every other control (newlines and
 * tabs included) made a space, and bidirectional controls dropped: for a
 * one-line message that is stored and handed on (`ctl list --json` `msg`),
 * where printable() would only escape at print time.
 */
export function plainText(text: string): string {
  return text.replace(SEQUENCES, "").replace(CONTROLS, (c) => c.charCodeAt(0) < 0x100 ? " " : "")
    .replace(/[\t\n]/g, " ");
}
