/**
 * Replay is the live detection engine (docs/detection.md, Checking it): the fixture suite and
 * `lazyshell detect` run the SessionDetector a live session runs, on a virtual clock, so what
 * its schedule does to real captured bytes shows here — a change to the engine's settle or hold
 * times changes these replays, and there is no second schedule to keep in step. And a capture's
 * keys, hooks, resizes and exit reach the engine as live ones do.
 */

import assert from "node:assert/strict";
import { loadCatalog } from "../src/runtime/catalog.ts";
import { type Capture, captureReplay, readCapture } from "../src/replay/fixtures.ts";
import type { Chunk } from "../src/replay/capture.ts";
import { replay, type ReplayOptions, type ReplayPoint } from "../src/replay/replay.ts";
import { detectFile } from "../src/cli/commands/detect.ts";

const ROOT = new URL("../fixtures/captures/", import.meta.url);
const catalog = await loadCatalog({ userDir: null });
const capture = (name: string) => readCapture(new URL(`${name}/`, ROOT));

/** The capture's chunks before `from`, then each [from, to) of `parts` at its own time. */
function timed(c: Capture, from: number, parts: readonly [number, number, number][]): Chunk[] {
  const before = c.chunks!.filter((ch) => ch.off + ch.len <= from);
  return [...before, ...parts.map(([off, end, t_ms]) => ({ off, len: end - off, t_ms }))];
}

/**
 * The states read along a replay of the bytes up to `end` (every classification and change)
 * after `from` bytes, with the screen rules alone.
 */
async function statesAlong(
  c: Capture,
  options: Partial<ReplayOptions>,
  from: number,
  end: number,
): Promise<string[]> {
  const seen: string[] = [];
  const onPoint = (p: ReplayPoint) => {
    if (p.offset > from) seen.push(`${p.status?.state}/${p.status?.ruleId}`);
  };
  const input = c.input.filter((k) => k.off < end);
  await replay(c.bytes.subarray(0, end), [end], {
    ...captureReplay(c, catalog, false),
    input,
    ...options,
    onPoint,
  });
  return seen;
}

/**
 * Claude Code draws its permission prompt in one 1994-byte write (claude-tool, byte 11984);
 * cut at 12984 the screen reads idle (the spinner erased, the prompt not drawn yet). Whether a
 * replay sees that idle is the engine's schedule — a check 30 ms after the output, at the next
 * point of the 50 ms grid (docs/detection.md, Scheduling) — against when the rest arrives.
 * The cases pin it: a settle of 29 or 31 ms, or another grid, fails one of them.
 */
Deno.test("replay classifies where the engine's settle timer puts it (a frame cut by a read)", async () => {
  const c = await capture("claude-tool");
  const [start, cut, end] = [11984, 12984, 13978];
  const [before] = await replay(c.bytes, [start], captureReplay(c, catalog, false));
  assert.equal(before!.status?.state, "working");
  /** The states after `start` with the cut frame in at `cutAt` and the rest at `restAt`. */
  const split = async (cutAt: number, restAt: number, engine: ReplayOptions["engine"] = {}) => {
    const chunks = timed(c, start, [[start, cut, cutAt], [cut, end, restAt]]);
    const states = await statesAlong(c, { chunks, engine }, start - 1, end);
    return states.filter((s, i) => s !== states[i - 1]).map((s) => s.split("/")[0]);
  };
  // 10320 + 30 is the grid point 10350: checked there, before the rest at 10351.
  assert.deepEqual(await split(10320, 10351), ["idle", "blocked"]);
  // 10321 + 30 waits for the grid point 10400: the rest at 10375 comes first.
  assert.deepEqual(await split(10321, 10375), ["blocked"]);
  assert.deepEqual(await split(10321, 10401), ["idle", "blocked"]);
  // The engine's own settle moves them (29 ms: checked at 10350; 31 ms: at 10400).
  assert.deepEqual(await split(10321, 10375, { settleMs: 29 }), ["idle", "blocked"]);
  assert.deepEqual(await split(10320, 10351, { settleMs: 31 }), ["blocked"]);
});

/**
 * opencode wraps every redraw in a synchronized update; in opencode-fail-overload the screen cut
 * 64 bytes into the one at 167494 reads idle while the agent works (tests/hub_mid_update_test.ts
 * shows it on a real PTY). The engine holds such a frame until the update ends, at most 1 s.
 */
Deno.test("replay holds a frame half drawn inside a synchronized update, as the engine does", async () => {
  const c = await capture("opencode-fail-overload");
  const [update, cut, end] = [167494, 167558, 167859 + "\x1b[?2026l".length];
  const t = c.chunks!.find((ch) => ch.off + ch.len > update)!.t_ms;
  const along = (rest: number, engine: ReplayOptions["engine"] = {}) => {
    const chunks = timed(c, update, [[update, cut, t], [cut, end, t + rest]]);
    return statesAlong(c, { chunks, engine }, update, end);
  };
  const held = await along(400);
  assert.deepEqual(held.filter((s) => !s.startsWith("working")), [], held.join(" "));
  // Not held (the hold off), or held past its 1 s limit: the half-drawn frame is read.
  assert.ok((await along(400, { midUpdateMaxMs: 0 })).some((s) => s.startsWith("idle")));
  assert.ok((await along(1500)).some((s) => s.startsWith("idle")));
});

Deno.test("an Enter submitted with nothing drawn yet is working: the hook it fired, as live", async () => {
  const c = await capture("claude-interrupt");
  const enter = c.input.find((k) => k.data === "\r")!;
  const points: ReplayPoint[] = [];
  await replay(c.bytes, [c.bytes.length], {
    ...captureReplay(c, catalog),
    onPoint: (p) => points.push(p),
  });
  // UserPromptSubmit, 57 ms after the Enter, before a byte of the turn was drawn.
  const first = points.find((p) => p.status?.state === "working")!;
  assert.deepEqual([first.offset, first.status?.source], [enter.off, "hook"]);
  assert.ok(first.time - enter.t_ms < 100, `${first.time - enter.t_ms} ms`);
  // The Esc the user typed mid-turn ends it (no hook fires on an interrupt).
  const last = points.at(-1)!.status!;
  assert.deepEqual([last.state, last.source, last.ruleId], ["idle", "input", "interrupt"]);
});

Deno.test("a capture whose program exited reads exited (its state cleared), not done", async () => {
  const c = await capture("claude-tool");
  const last = c.chunks!.at(-1)!;
  // Claude Code printed its goodbye ("Resume this session with …") and exited after it.
  const exit = { type: "exit", t_ms: last.t_ms + 5, off: c.bytes.length } as const;
  const [before] = await replay(c.bytes, [Infinity], captureReplay(c, catalog));
  assert.equal(before!.view.status, "running");
  const events = [{ ...exit, exitCode: 0, signal: null }];
  const [after] = await replay(c.bytes, [Infinity], {
    ...captureReplay(c, catalog),
    events,
  });
  assert.deepEqual([after!.view.status, after!.view.exitCode], ["exited", 0]);
  assert.equal(after!.agent, null, "no program in the foreground any more");

  // `lazyshell detect` on the folder with that events.jsonl says so.
  const dir = await Deno.makeTempDir();
  try {
    for await (const f of Deno.readDir(new URL("claude-tool/", ROOT))) {
      await Deno.copyFile(new URL(`claude-tool/${f.name}`, ROOT), `${dir}/${f.name}`);
    }
    await Deno.writeTextFile(
      `${dir}/events.jsonl`,
      JSON.stringify({ t_ms: exit.t_ms, byte_offset_in_raw: exit.off, type: "exit", exitCode: 0 }),
    );
    const [row] = await detectFile(dir, {});
    assert.equal(row!.status, "exited");
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("a resize reaches the engine: the prompt redrawn at the new size is read again", async () => {
  const c = await capture("claude-tool");
  const at = 13978; // the permission prompt is on screen, 8 s before the user answers it
  const t = c.chunks!.findLast((ch) => ch.off < at)!.t_ms + 2000;
  const events = [{ type: "resize", t_ms: t, off: at, cols: 100, rows: 40 }] as const;
  const seen: ReplayPoint[] = [];
  const [p] = await replay(c.bytes, [at + 1], {
    ...captureReplay(c, catalog, false),
    events,
    onPoint: (x) => seen.push(x),
  });
  assert.deepEqual([p!.view.cols, p!.view.rows], [100, 40]);
  assert.ok(seen.some((x) => x.time > t && x.offset === at), "classified after the resize");
  assert.equal(p!.status?.state, "blocked");
});
