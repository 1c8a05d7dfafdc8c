/**
 * A fake agent that replays a real capture in parts: bytes 0..CUT1 at once,
 * then each SIGUSR1 writes up to the next cut. Copied to `opencode.ts`,
 * `codex.ts`, … so that lazyshell identifies it as that agent (deno +
 * script name). After each part it appends `part N` to LOG.
 *
 *   deno run -A opencode.ts CAPTURE_DIR LOG CUT1 [CUT2 ...]
 */

const [dir, log, ...cuts] = Deno.args;
const raw = Deno.readFileSync(`${dir}/output.raw`);
const ends = cuts.map(Number);
const logFile = Deno.openSync(log!, { create: true, append: true });
const enc = new TextEncoder();
let part = 0;
let from = 0;

function writePart(): void {
  const to = ends[part]!;
  const bytes = raw.subarray(from, to);
  for (let n = 0; n < bytes.length;) n += Deno.stdout.writeSync(bytes.subarray(n));
  from = to;
  part++;
  logFile.writeSync(enc.encode(`part ${part}\n`));
}

// Listening before anything is drawn: a SIGUSR1 sent once the first part shows must not kill us.
Deno.addSignalListener("SIGUSR1", () => {
  if (part < ends.length) writePart();
});
writePart();
// Hold the screen (and the PTY) until killed.
setInterval(() => {}, 60_000);
