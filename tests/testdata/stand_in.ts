/**
 * A stand-in executable named like an agent (so the process table
 * identifies it) that writes a capture's output chunks [0, end) into its
 * PTY with their recorded gaps (capped at `maxGapMs` to keep tests short;
 * the 30 ms settle still sees the same quiet points), then waits. A pause
 * of a second or more is a person's (a prompt waiting for an answer): it
 * lasts `pauseMs`, so that what is on screen then stays long enough to be
 * seen on a loaded machine, as it would (a permission prompt shown 45 ms
 * was missed under load). With
 * `waitFor`, it starts only once that file exists (the test has set up
 * what it measures, e.g. the session's size).
 */

import { readChunks } from "../../src/replay/capture.ts";

const CAPTURES = new URL("../../fixtures/captures/", import.meta.url);

export async function standIn(
  dir: string,
  agent: string,
  capture: string,
  end: number,
  options: { maxGapMs?: number; pauseMs?: number; waitFor?: string } = {},
): Promise<string> {
  const maxGap = options.maxGapMs ?? 45;
  const pause = options.pauseMs ?? 400;
  const raw = await Deno.readFile(new URL(`${capture}/output.raw`, CAPTURES));
  const chunks = (await readChunks(new URL(`${capture}/chunks.jsonl`, CAPTURES)))!;
  const lines = ["#!/bin/bash"];
  if (options.waitFor) lines.push(`while [ ! -e '${options.waitFor}' ]; do sleep 0.02; done`);
  let previous = chunks[0]!.t_ms;
  for (const c of chunks) {
    if (c.off >= end) break;
    const recorded = c.t_ms - previous;
    const gap = recorded >= 1000 ? Math.max(maxGap, pause) : Math.min(recorded, maxGap);
    previous = c.t_ms;
    if (gap >= 1) lines.push(`sleep ${(gap / 1000).toFixed(3)}`);
    const bytes = raw.subarray(c.off, Math.min(end, c.off + c.len));
    const hex = [...bytes].map((b) => `\\x${b.toString(16).padStart(2, "0")}`).join("");
    lines.push(`printf '%b' '${hex}'`);
  }
  lines.push("sleep 60");
  const path = `${dir}/${agent}`;
  await Deno.writeTextFile(path, lines.join("\n") + "\n");
  await Deno.chmod(path, 0o755);
  return path;
}
