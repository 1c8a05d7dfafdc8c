import assert from "node:assert/strict";
import { writeCorpus } from "../../bench/corpus.ts";
import { FlowControl, HIGH_WATER, LOW_WATER } from "./pty.ts";
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
