/**
 * Timers for the paths that must start in about a bare Deno start-up (the
 * client, `lazyshell hook`, `ctl`). Deno 2.9's global `setTimeout` and
 * `setInterval` are Node's, loaded on their first use: 13–15 ms of a
 * ~70 ms process, measured (docs/architecture.md, "Start-up"). These two
 * cost under 1 ms and load nothing:
 *
 * - `later`: V8's own `Atomics.waitAsync` with a timeout. It does not keep
 *   the process alive and is cancelled by a notify.
 * - `sleep`: `AbortSignal.timeout`, Deno's internal timer. It keeps the
 *   process alive until it fires (it cannot be cancelled: for waits only).
 *
 * tests/light_timers_test.ts checks that none of those paths reads the globals.
 */

/**
 * Runs `fn` once, `ms` from now (0 or less, or NaN: in a microtask, as
 * setTimeout would), unless the returned cancel runs first.
 */
export function later(ms: number, fn: () => void): () => void {
  let cancelled = false;
  const run = () => {
    if (!cancelled) fn();
  };
  const cell = new Int32Array(new SharedArrayBuffer(4));
  // NaN would mean "never" to Atomics (+Infinity); setTimeout reads it as 0.
  const wait = Atomics.waitAsync(cell, 0, 0, Number.isNaN(ms) ? 0 : Math.max(0, ms));
  if (wait.async) void wait.value.then(run);
  else queueMicrotask(run); // a timeout of 0 answers at once
  return () => {
    cancelled = true;
    Atomics.notify(cell, 0);
  };
}

/** Resolves `ms` from now; the process stays alive meanwhile. */
export function sleep(ms: number): Promise<void> {
  return new Promise((resolve) => {
    AbortSignal.timeout(ms).addEventListener("abort", () => resolve(), { once: true });
  });
}
