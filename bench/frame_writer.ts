/**
 * A program that redraws its whole screen the way Claude Code and opencode
 * do: each frame a synchronized update (`CSI ? 2026 h` … `l`) repainting
 * every row, written with one write(2). The last frame ends with a line
 * `last frame <n>`, so a reader can tell it got everything.
 *
 * Usage: frame_writer.ts FRAMES COLS ROWS [PAUSE_MS]
 * With a pause, it sleeps that long after each frame, as a program that
 * redraws on a timer does (it never writes while its terminal is being
 * read); without, it writes as fast as the terminal takes them (as `cat`).
 * Used by bench/throughput.ts and src/session/flood_test.ts.
 */

const [frames, cols, rows, pause] = Deno.args.map(Number);
if (!frames || !cols || !rows) {
  console.error("usage: frame_writer.ts FRAMES COLS ROWS [PAUSE_MS]");
  Deno.exit(2);
}

const encoder = new TextEncoder();

/** Frame `i`: every row repainted in a colour, its number at the end of each row. */
function frame(i: number, width: number, height: number): string {
  let out = "\x1b[?2026h";
  for (let y = 0; y < height; y++) {
    const tag = ` ${i}:${y}`;
    const fill = String.fromCharCode(97 + (i + y) % 26).repeat(Math.max(0, width - tag.length - 1));
    out += `\x1b[${y + 1};1H\x1b[38;5;${(i + y) % 256}m${fill}\x1b[0m${tag}`;
  }
  return out + "\x1b[?2026l";
}

const cycle = [0, 1, 2].map((i) => encoder.encode(frame(i, cols, rows)));
for (let i = 0; i < frames; i++) {
  const last = i === frames - 1;
  const bytes = last
    ? encoder.encode(frame(i, cols, rows) + `\x1b[${rows};1H\x1b[2Klast frame ${i + 1}`)
    : cycle[i % cycle.length]!;
  for (let at = 0; at < bytes.length;) at += Deno.stdout.writeSync(bytes.subarray(at));
  if (pause) await new Promise((resolve) => setTimeout(resolve, pause));
}
