import assert from "node:assert/strict";
import { deadline, delay, later } from "./async.ts";

/**
 * Polls `ok` until it holds (at most 10 s). `later` (Atomics.waitAsync) and `delay` (Deno's
 * timers) are timers of two kinds: a thread woken late (a loaded machine) runs a due delay(80)
 * before a due later(5), so a fixed delay cannot stand for "long enough" here.
 */
async function until(ok: () => boolean): Promise<void> {
  const end = performance.now() + 10_000;
  while (!ok() && performance.now() < end) await delay(5);
}

Deno.test("later runs its function once, after about the time asked", async () => {
  const t0 = performance.now();
  const fired: number[] = [];
  later(30, () => fired.push(performance.now() - t0));
  await until(() => fired.length > 0);
  await delay(100);
  assert.equal(fired.length, 1);
  assert.ok(fired[0]! >= 29, `fired after ${fired[0]} ms`);
});

Deno.test("a cancelled later never runs", async () => {
  let fired = false;
  const cancel = later(20, () => (fired = true));
  cancel();
  cancel(); // twice is harmless
  await delay(100);
  assert.equal(fired, false);
});

Deno.test("later with 0, a negative time or NaN runs soon, and can still be cancelled", async () => {
  const fired: number[] = [];
  for (const ms of [0, -5, NaN]) later(ms, () => fired.push(ms));
  later(0, () => fired.push(1))();
  await delay(20);
  assert.deepEqual(fired.map(String), ["0", "-5", "NaN"]);
});

Deno.test("a deadline expires once its time is up; a cancelled one never settles", async () => {
  let expired = false;
  void deadline(10).expired.then(() => (expired = true));
  const cancelled = deadline(10);
  let settled = false;
  void cancelled.expired.then(() => (settled = true));
  cancelled.cancel();
  await until(() => expired);
  await delay(80);
  assert.equal(expired, true);
  assert.equal(settled, false);
});

/** A `deno eval` of `code` with the timers imported: its stdout, trimmed. */
async function evaluate(code: string): Promise<string> {
  const url = new URL("./async.ts", import.meta.url).href;
  const out = await new Deno.Command(Deno.execPath(), {
    args: ["eval", `import { delay, later } from "${url}";\n${code}`],
    stdout: "piped",
    stderr: "inherit",
  }).output();
  assert.ok(out.success);
  return new TextDecoder().decode(out.stdout).trim();
}

Deno.test("later does not keep the process alive; delay does", async () => {
  assert.equal(
    await evaluate(`later(5000, () => console.log("late")); console.log("end");`),
    "end",
  );
  assert.equal(await evaluate(`void delay(50).then(() => console.log("slept"));`), "slept");
});
