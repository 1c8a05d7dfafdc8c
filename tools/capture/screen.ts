/**
 * Prints the screen of a capture at byte offsets, rendered by the same
 * emulator lazyshell uses (answering nothing; the terminal resized where
 * input.jsonl says it was), for a human check of labels:
 *
 *   deno run -A tools/capture/screen.ts <capture-dir> [offset|end]...
 */

import { HeadlessTerminal } from "../../src/session/terminal.ts";
import { readStreams } from "../../src/replay/capture.ts";

export async function screensAt(dir: string, offsets: readonly string[]): Promise<string[]> {
  const raw = await Deno.readFile(`${dir}/output.raw`);
  const meta = JSON.parse(await Deno.readTextFile(`${dir}/meta.json`));
  const wanted = (offsets.length ? offsets : ["end"])
    .map((o) => (o === "end" ? raw.length : Math.min(raw.length, Math.max(0, Number(o)))))
    .sort((a, b) => a - b);
  using term = new HeadlessTerminal({ cols: meta.cols ?? 120, rows: meta.rows ?? 32 });
  const { events } = await readStreams(new URL(`file://${Deno.realPathSync(dir)}/`), meta);
  const resizes = events.flatMap((e) => e.type === "resize" ? [e] : []);
  const out: string[] = [];
  let pos = 0;
  for (const off of wanted) {
    for (const r of resizes.filter((r) => r.off >= pos && r.off < off)) {
      term.write(raw.subarray(pos, r.off));
      pos = r.off;
      await term.flush();
      term.resize(r.cols, r.rows);
    }
    term.write(raw.subarray(pos, off));
    pos = off;
    await term.flush();
    const head = `--- offset ${off} title ${JSON.stringify(term.title)}` +
      (term.altScreen ? " [alternate screen]" : "");
    out.push(`${head}\n${term.visibleLines().join("\n").replace(/\n+$/, "")}`);
  }
  return out;
}

if (import.meta.main) {
  const [dir, ...offsets] = Deno.args;
  if (!dir) {
    console.error("Usage: deno run -A tools/capture/screen.ts <capture-dir> [offset|end]...");
    Deno.exit(2);
  }
  for (const s of await screensAt(dir, offsets)) console.log(s);
}
