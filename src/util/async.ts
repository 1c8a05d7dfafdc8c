/**
 * Small promise helpers that never leak a timer (tests run with sanitizers on).
 *
 * `later` and `delay` are also what the paths that must start in about a
 * bare Deno start-up use (the client, `lazyshell hook`, `ctl`): Deno 2.9's
 * global `setTimeout` and `setInterval` are Node's, loaded on their first
 * read, 13–15 ms of a ~70 ms process (docs/architecture.md, "Start-up").
 * These two cost under 1 ms and load nothing; tests/light_timers_test.ts
 * checks that none of those paths reads the globals.
 */

/**
 * Runs `fn` once, `ms` from now (0 or less, or NaN: in a microtask, as
 * setTimeout would), unless the returned cancel runs first. V8's own
 * `Atomics.waitAsync` with a timeout: it does not keep the process alive.
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

/**
 * A deadline that loads no timers (see `later`): `expired` resolves `ms`
 * from now, unless `cancel` runs first (then it never settles).
 */
export function deadline(ms: number): { readonly expired: Promise<void>; cancel(): void } {
  let cancel = () => {};
  const expired = new Promise<void>((resolve) => (cancel = later(ms, () => resolve())));
  return { expired, cancel };
}

/** Resolves true when `promise` settles within `ms`, false otherwise. */
export async function within(promise: Promise<unknown>, ms: number): Promise<boolean> {
  let timer: ReturnType<typeof setTimeout> | undefined;
  const timeout = new Promise<false>((resolve) => (timer = setTimeout(() => resolve(false), ms)));
  try {
    return await Promise.race([promise.then(() => true, () => true), timeout]);
  } finally {
    clearTimeout(timer);
  }
}

/** Resolves `ms` from now; the process stays alive meanwhile (`AbortSignal.timeout`, Deno's own timer). */
export function delay(ms: number): Promise<void> {
  return new Promise((resolve) => {
    AbortSignal.timeout(ms).addEventListener("abort", () => resolve(), { once: true });
  });
}

/** Waits `ms`, or less when `signal` aborts; never leaves a timer behind. */
export function pause(ms: number, signal: AbortSignal): Promise<void> {
  return new Promise((resolve) => {
    if (signal.aborted) return resolve();
    const done = () => {
      clearTimeout(timer);
      signal.removeEventListener("abort", done);
      resolve();
    };
    const timer = setTimeout(done, ms);
    signal.addEventListener("abort", done, { once: true });
  });
}
