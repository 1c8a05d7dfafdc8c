import assert from "node:assert/strict";
import { writeCorpus } from "../../bench/corpus.ts";
import { FlowControl, HIGH_WATER, LOW_WATER, spawnNodePty } from "./pty.ts";
import { SessionStore } from "./store.ts";
import { TEST_SHELL, testEnv } from "./test_util.ts";

Deno.test("FlowControl pauses above the high-water mark and resumes below the low one", () => {
  const calls: string[] = [];
  const flow = new FlowControl({
    pause: () => calls.push("pause"),
    resume: () => calls.push("resume"),
  });
  flow.queued(HIGH_WATER);
  assert.deepEqual(calls, []);
  flow.queued(1);
  assert.deepEqual(calls, ["pause"]);
  flow.queued(HIGH_WATER);
  assert.deepEqual(calls, ["pause"], "paused once, not per chunk");
  flow.parsed(2 * HIGH_WATER + 1 - LOW_WATER);
  assert.deepEqual(calls, ["pause"], "still at the low-water mark");
  flow.parsed(1);
  assert.deepEqual(calls, ["pause", "resume"]);
  assert.equal(flow.paused, false);
});

Deno.test("a 50 MB flood through a session keeps its backlog and memory bounded", async () => {
  const dir = await Deno.makeTempDir();
  const file = `${dir}/flood.txt`;
  // SGR-heavy text: the emulator parses it slower than the PTY can deliver it.
  await writeCorpus(file, "sgr", 50 * 1024 * 1024);
  try {
    await using store = new SessionStore({
      shell: TEST_SHELL,
      env: testEnv(),
      cols: 200,
      rows: 60,
      scrollback: 1000,
    });
    // This isolate's heap and buffers, not the process's RSS: with --parallel other test files
    // run in the same process and their memory counted against this one (196 MB once).
    const used = () => {
      const m = Deno.memoryUsage();
      return m.heapUsed + m.external;
    };
    const before = used();
    let peak = before;
    const sample = setInterval(() => peak = Math.max(peak, used()), 20);
    try {
      const session = store.create({ command: `cat ${file}; echo; echo flood-finished` });
      await session.exited;
      assert.equal(session.exitCode, 0);
      assert.match(session.terminal.visibleLines().join("\n"), /flood-finished/);
      // The reader parses each read before the next one (pty_reactor.ts), or
      // pauses the PTY above the mark (node-pty's streams): either way the
      // backlog stays under the mark plus one read.
      const { maxPending } = session.flow.stats;
      assert.ok(maxPending <= HIGH_WATER + 256 * 1024, `backlog reached ${maxPending} bytes`);
    } finally {
      clearInterval(sample);
    }
    const growthMb = (peak - before) / 1024 / 1024;
    assert.ok(growthMb < 64, `Memory grew by ${growthMb.toFixed(1)} MB during a 50 MB flood`);
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

/** A program drawing full-screen synchronized frames on a timer (bench/frame_writer.ts). */
const FRAME_WRITER = new URL("../../bench/frame_writer.ts", import.meta.url).pathname;

Deno.test("synchronized frames drawn faster than the grid reads are read at the writer's pace", async () => {
  // 5–6 KiB frames, 1 ms apart: two fill the PTY (10–12 KiB), and the writer never writes
  // while it is being read. Read once per grid point, this took 3–3.6× the bare reader.
  const frames = 400;
  const command = `${Deno.execPath()} run --quiet ${FRAME_WRITER} ${frames} 120 40 1`;
  const spec = { cols: 120, rows: 40 };
  // The same program read by node-pty's own stream, nothing parsed: the writer's pace.
  const bare = async () => {
    const t0 = performance.now();
    const pty = spawnNodePty({
      file: "/bin/sh",
      args: ["-c", command],
      cwd: "/tmp",
      env: testEnv(),
      ...spec,
    });
    let text = "";
    pty.onData((data) => text = (text + data).slice(-64));
    await new Promise((resolve) => pty.onExit(resolve));
    assert.match(text, new RegExp(`last frame ${frames}`));
    return performance.now() - t0;
  };
  const ours = async () => {
    await using store = new SessionStore({ shell: TEST_SHELL, env: testEnv(), ...spec });
    const t0 = performance.now();
    const session = store.create({ command });
    await session.exited;
    const elapsed = performance.now() - t0;
    assert.match(session.terminal.visibleLines().join("\n"), new RegExp(`last frame ${frames}`));
    return elapsed;
  };
  let bareMs = Infinity;
  let oursMs = Infinity;
  for (let round = 0; round < 2; round++) {
    bareMs = Math.min(bareMs, await bare());
    oursMs = Math.min(oursMs, await ours());
  }
  const ratio = oursMs / bareMs;
  assert.ok(
    ratio < 2,
    `the last frame came ${ratio.toFixed(2)}× later than to a bare reader ` +
      `(${oursMs.toFixed(0)} ms against ${bareMs.toFixed(0)} ms): the reader stalls`,
  );
});
