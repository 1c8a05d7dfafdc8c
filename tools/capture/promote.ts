/**
 * From a lab capture to a fixture (fixtures/captures/README.md):
 *
 *   deno run -A tools/capture/promote.ts <capture-dir>             # review: every label's screen
 *   deno run -A tools/capture/promote.ts <capture-dir> --to DIR    # write DIR/<name>/
 *
 * Review prints, at each label's settled offset, the screen as the emulator
 * draws it (resizes applied) beside what `lazyshell detect` reads there with
 * and without OSC 7501 — to write the truth's `prompt` and `kind` by hand.
 * Promote keeps what a fixture holds, cut where the user's quit key was
 * typed: output.raw, truth.json (labels before the cut; prompts and kinds
 * already written there are kept), meta.json, input.jsonl, chunks.jsonl
 * without b64, and the side channel (hooks.jsonl, plugin-events.jsonl,
 * server-events.jsonl, notify.jsonl).
 */

import { parseArgs } from "node:util";
import { loadCatalog } from "../../src/runtime/catalog.ts";
import { captureReplay, expectations, readCapture } from "../../src/replay/fixtures.ts";
import { replay } from "../../src/replay/replay.ts";
import { screensAt } from "./screen.ts";

const SIDE = ["hooks.jsonl", "plugin-events.jsonl", "server-events.jsonl", "notify.jsonl"];

type Json = Record<string, unknown>;

/** JSON lines of a file, or [] when it does not exist. */
function lines(path: string): Json[] {
  let text: string;
  try {
    text = Deno.readTextFileSync(path);
  } catch (error) {
    if (error instanceof Deno.errors.NotFound) return [];
    throw error;
  }
  return text.split("\n").filter((l) => l.trim() !== "").map((l) => JSON.parse(l));
}

/** Where the user's quit key was typed (its index in input.jsonl and byte offset), if ever. */
export function quitAt(input: readonly Json[]): { index: number; off: number } | null {
  const index = input.findIndex((e) => e.src === "user" && /^quit key/.test(String(e.note)));
  const off = input[index]?.byte_offset_in_raw;
  return typeof off === "number" ? { index, off } : null;
}

/**
 * The streams of a capture cut at its quit key: the output before it,
 * chunks without b64, the input typed before it, the labels in effect by
 * then (a label at the cut is drawn by the bytes before it).
 */
export function trimStreams(
  raw: Uint8Array,
  chunks: readonly Json[],
  input: readonly Json[],
  timeline: readonly Json[],
): { raw: Uint8Array; chunks: Json[]; input: Json[]; timeline: Json[] } {
  const quit = quitAt(input);
  const cut = Math.min(raw.length, quit?.off ?? raw.length);
  return {
    raw: raw.subarray(0, cut),
    chunks: chunks.filter((c) => Number(c.off) < cut).map(({ b64: _, ...c }) => ({
      ...c,
      len: Math.min(Number(c.len), cut - Number(c.off)),
    })),
    input: quit ? input.slice(0, quit.index) : [...input],
    timeline: timeline.filter((l) => Number(l.byte_offset_in_raw) <= cut).map((l) => ({
      ...l,
      ...(typeof l.screen_settled_offset === "number"
        ? { screen_settled_offset: Math.min(cut, l.screen_settled_offset) }
        : {}),
    })),
  };
}

function jsonl(records: readonly Json[]): string {
  return records.map((r) => JSON.stringify(r) + "\n").join("");
}

async function promote(dir: string, to: string): Promise<string> {
  const meta = JSON.parse(await Deno.readTextFile(`${dir}/meta.json`));
  const name = String(meta.capture);
  const raw = await Deno.readFile(`${dir}/output.raw`);
  const truth = JSON.parse(await Deno.readTextFile(`${dir}/truth.json`));
  const chunks = lines(`${dir}/chunks.jsonl`);
  const t = trimStreams(raw, chunks, lines(`${dir}/input.jsonl`), truth.timeline);
  const out = `${to}/${name}`;
  await Deno.mkdir(out, { recursive: true });
  await Deno.writeFile(`${out}/output.raw`, t.raw);
  await Deno.writeTextFile(`${out}/chunks.jsonl`, jsonl(t.chunks));
  await Deno.writeTextFile(`${out}/input.jsonl`, jsonl(t.input));
  const note = `${truth.note}; kind (optional) = the kind the detector must report with the ` +
    "state; cut where the quit key was typed; chunks.jsonl without b64 (output.raw holds the bytes)";
  const trimmed = { ...truth, note, timeline: t.timeline };
  await Deno.writeTextFile(`${out}/truth.json`, JSON.stringify(trimmed, null, 1) + "\n");
  await Deno.writeTextFile(`${out}/meta.json`, JSON.stringify(meta, null, 1) + "\n");
  for (const file of SIDE) {
    const records = lines(`${dir}/${file}`);
    if (records.length > 0) await Deno.writeTextFile(`${out}/${file}`, jsonl(records));
  }
  return out;
}

/** Every label's settled screen and what the detector reads there, both ways. */
async function review(dir: string): Promise<void> {
  const catalog = await loadCatalog({ userDir: null });
  const capture = await readCapture(new URL(`file://${Deno.realPathSync(dir)}/`));
  const wanted = expectations(capture.truth);
  const run = (declared: boolean) =>
    replay(capture.bytes, wanted.map((w) => w.offset), captureReplay(capture, catalog, declared));
  const [full, bare] = [await run(true), await run(false)];
  const screens = await screensAt(dir, wanted.map((w) => String(w.offset)));
  const byOffset = new Map(screens.map((s) => [Number(/^--- offset (\d+)/.exec(s)![1]), s]));
  wanted.forEach((w, i) => {
    const show = (r: typeof full[number]) =>
      `${r.status?.state}${r.status?.kind ? `:${r.status.kind}` : ""} (${r.status?.ruleId})` +
      (r.prompt ? `\n    prompt ${JSON.stringify(r.prompt)}` : "");
    console.log(`\n=== @${w.offset} truth ${w.state}${w.kind ? `:${w.kind}` : ""}: ${w.label}`);
    if (w.prompt) console.log(`    truth prompt ${JSON.stringify(w.prompt)}`);
    console.log(`  full   ${show(full[i]!)}\n  screen ${show(bare[i]!)}`);
    console.log(byOffset.get(w.offset) ?? "");
  });
}

if (import.meta.main) {
  const { values, positionals } = parseArgs({
    args: Deno.args,
    allowPositionals: true,
    options: { to: { type: "string" } },
  });
  const dir = positionals[0];
  if (!dir) {
    console.error("Usage: deno run -A tools/capture/promote.ts <capture-dir> [--to DIR]");
    Deno.exit(2);
  }
  if (values.to) console.log(`wrote ${await promote(dir.replace(/\/$/, ""), values.to)}`);
  else await review(dir);
}
