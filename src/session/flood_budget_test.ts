import assert from "node:assert/strict";
import { FloodBudget } from "./flood_budget.ts";
import { SessionStore } from "./store.ts";
import { TEST_SHELL, testEnv } from "./test_util.ts";

Deno.test("FloodBudget: work goes on at once within the slice, then waits for a new turn", async () => {
  const budget = new FloodBudget(5);
  assert.equal(budget.ready(), null);
  budget.spend(() => {
    const until = performance.now() + 6;
    while (performance.now() < until) { /* a piece of flood work */ }
  });
  const turn = budget.ready();
  assert.ok(turn, "the slice is spent");
  assert.equal(budget.ready(), turn, "every reader waits on the same turn");
  let timerRan = false;
  setTimeout(() => (timerRan = true), 0);
  await turn;
  assert.equal(budget.ready(), null, "a fresh turn, a fresh slice");
  await new Promise((resolve) => setTimeout(resolve, 0));
  assert.ok(timerRan);
});

Deno.test("FloodBudget: a hold stops floods until released, or until it lapses", async () => {
  const budget = new FloodBudget(5);
  const release = budget.hold(60_000);
  let resumed = false;
  budget.ready()!.then(() => (resumed = true));
  await new Promise((resolve) => setTimeout(resolve, 5));
  assert.equal(resumed, false);
  release();
  release(); // twice is harmless
  await new Promise((resolve) => setTimeout(resolve, 0));
  assert.equal(resumed, true);
  budget.hold(5); // never released by hand
  await budget.ready();
  assert.equal(budget.ready(), null);
});

Deno.test("8 sessions flooding at once reach their emulators in small pieces, between turns", async () => {
  const dir = await Deno.makeTempDir();
  const file = `${dir}/flood.txt`;
  await Deno.writeTextFile(
    file,
    "0123456789abcdefghijklmnopqrstuvwxyz flood line\n".repeat(40_000),
  );
  try {
    await using store = new SessionStore({
      shell: TEST_SHELL,
      env: testEnv(),
      cols: 120,
      rows: 40,
      scrollback: 100,
    });
    // What one delivery parses is what a request, a key or a timer may wait behind
    // at once: before the budget, whole 256 KiB reads (of each flooding session).
    let biggest = 0;
    let turns = 0;
    let running = true;
    const turn = () => {
      turns++;
      if (running) setTimeout(turn, 0);
    };
    const sessions = Array.from({ length: 8 }, () => {
      const s = store.create({ command: `cat ${file}` });
      s.tap((data) => (biggest = Math.max(biggest, data.length)));
      return s;
    });
    setTimeout(turn, 0);
    await Promise.all(sessions.map((s) => s.exited));
    running = false;
    await new Promise((resolve) => setTimeout(resolve, 5));
    assert.ok(biggest <= 32 * 1024, `one delivery of ${biggest} bytes`);
    assert.ok(turns > 20, `the event loop turned ${turns} times during 15 MB of floods`);
    for (const s of sessions) assert.equal(s.exitCode, 0);
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});
