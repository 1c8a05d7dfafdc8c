/**
 * Timers for the paths that must start in about a bare Deno start-up (the
 * client, `lazyshell hook`). Deno 2.9's global `setTimeout` and
 * `setInterval` are Node's, loaded on their first use: 13–15 ms of a
 * ~70 ms process, measured (docs/architecture.md, "Start-up"). These two
 * cost under 1 ms and load nothing:
 *
 * - `later`: V8's own `Atomics.waitAsync` with a timeout. It does not keep
 *   the process alive and is cancelled by a notify.
 * - `sleep`: `AbortSignal.timeout`, Deno's internal timer. It keeps the
 *   process alive until it fires (it cannot be cancelled: for waits only).
 *
 * tests/hook_graph_test.ts checks that neither path calls the globals.
 */

/** Runs `fn` once, `ms` from now, unless the returned cancel runs first. */
export function later(ms: number, fn: () => void): () => void {
  const cell = new Int32Array(new SharedArrayBuffer(4));
  const wait = Atomics.waitAsync(cell, 0, 0, ms);
  if (!wait.async) { // cannot happen with a value of 0 and a timeout; run it as asked
    queueMicrotask(fn);
    return () => {};
  }
  let cancelled = false;
  void wait.value.then(() => {
    if (!cancelled) fn();
  });
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
