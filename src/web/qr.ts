/**
 * The URL `lazyshell web` prints, as a QR code a phone's camera reads off
 * the terminal: two modules a character cell (upper and lower half
 * blocks), dark on light with the quiet zone the standard asks for.
 */

import qrcode from "qrcode-generator";

/** The QR code's modules: true is dark. */
export function qrMatrix(text: string): boolean[][] {
  const qr = qrcode(0, "L");
  qr.addData(text, "Byte");
  qr.make();
  const n = qr.getModuleCount();
  return Array.from({ length: n }, (_, r) => Array.from({ length: n }, (_, c) => qr.isDark(r, c)));
}

/** Lines of text drawing `text` as a QR code (light background: readable on dark terminals). */
export function qrText(text: string, quiet = 2): string[] {
  const m = qrMatrix(text);
  const n = m.length + 2 * quiet;
  const dark = (r: number, c: number) => m[r - quiet]?.[c - quiet] === true;
  const lines: string[] = [];
  for (let r = 0; r < n; r += 2) {
    let line = "";
    for (let c = 0; c < n; c++) {
      const top = dark(r, c);
      const bottom = r + 1 < n && dark(r + 1, c);
      // Light modules are the ink (bright white), dark ones the black background: the same
      // code on dark and light terminals.
      line += top && bottom ? " " : top ? "▄" : bottom ? "▀" : "█";
    }
    lines.push(`\x1b[97;40m${line}\x1b[0m`);
  }
  return lines;
}
