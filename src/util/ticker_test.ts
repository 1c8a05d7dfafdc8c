import assert from "node:assert/strict";
import { Ticker, type Timers } from "./ticker.ts";
import { type FaultReport, setFaultSink } from "./guard.ts";
import { VirtualClock } from "./virtual_clock.ts";

function fired(ticker: Ticker, ms: number, log: string[], name: string): Promise<number> {
  return new Promise((resolve) =>
    ticker.after(ms, () => {
      log.push(name);
      resolve(performance.now());
    })
  );
}

Deno.test("callbacks due in the same grid period share one wake-up, in scheduling order", async () => {
  const ticker = new Ticker(50);
  const log: string[] = [];
  await fired(ticker, 0, log, "align"); // now just after a grid point
  const t0 = performance.now();
  const [a] = await Promise.all([fired(ticker, 20, log, "first"), fired(ticker, 1, log, "second")]);
  assert.equal(ticker.wakeups, 2);
  assert.deepEqual(log, ["align", "first", "second"]);
  assert.ok(a >= t0 + 20, "not before the later one was due");
});

Deno.test("a later callback waits for its own grid point", async () => {
  const ticker = new Ticker(20);
  const log: string[] = [];
  const t0 = performance.now();
  const late = await Promise.all([fired(ticker, 1, log, "a"), fired(ticker, 45, log, "b")]);
  assert.deepEqual(log, ["a", "b"]);
  assert.equal(ticker.wakeups, 2);
  assert.ok(late[1]! - t0 >= 45);
});

Deno.test("cancelled callbacks never run and leave no timer behind", async () => {
  const ticker = new Ticker(10);
  let ran = false;
  const sub = ticker.after(5, () => ran = true);
  sub[Symbol.dispose]();
  assert.equal(ticker.pending, 0);
  // A marker due at a later grid point: once it runs, the cancelled one's point has passed.
  const marker = Promise.withResolvers<void>();
  ticker.after(15, () => marker.resolve());
  await marker.promise;
  assert.equal(ran, false);
});

Deno.test("every() repeats on the grid until disposed", async () => {
  const ticker = new Ticker(10);
  let n = 0;
  const done = Promise.withResolvers<void>();
  const sub = ticker.every(10, () => {
    if (++n === 3) done.resolve();
  });
  await done.promise;
  sub[Symbol.dispose]();
  assert.equal(n, 3);
  assert.equal(ticker.pending, 0);
});

/** `base` timers, counted. */
function counted(base: Timers): Timers & { timeouts: number; intervals: number } {
  const c = {
    timeouts: 0,
    intervals: 0,
    setTimeout: (fn: () => void, ms: number) => (c.timeouts++, base.setTimeout(fn, ms)),
    clearTimeout: (id: ReturnType<typeof setTimeout> | undefined) => base.clearTimeout(id),
    setInterval: (fn: () => void, ms: number) => (c.intervals++, base.setInterval(fn, ms)),
    clearInterval: (id: ReturnType<typeof setTimeout> | undefined) => base.clearInterval(id),
    queueMicrotask: (fn: () => void) => base.queueMicrotask(fn),
  };
  return c;
}

Deno.test("a callback that books the next grid point each time runs on one interval, then stops", () => {
  // On a virtual clock: on the host's, a loaded machine may run a callback more than a grid
  // period after its point (its next point then looks sparse: a timer, rightly), and the count
  // below would depend on the machine's load.
  const clock = new VirtualClock(1_000);
  const timers = counted(clock);
  const ticker = new Ticker(10, clock.now, timers);
  let runs = 0;
  const again = () => {
    if (++runs < 6) ticker.after(1, again);
  };
  ticker.after(1, again);
  for (let i = 0; i < 100 && runs < 6; i++) clock.advance(1);
  assert.equal(runs, 6);
  assert.equal(ticker.wakeups, 6);
  assert.equal(ticker.pending, 0);
  // One timer to the first point, then one interval: re-arming a timer at
  // every point costs Deno's loop a second wake-up each time.
  assert.equal(timers.timeouts, 1);
  assert.equal(timers.intervals, 1);
  // Nothing left armed once nothing is due: the interval stopped.
  clock.advance(100);
  assert.equal(clock.pending, 0);
});

Deno.test("a late callback booked while the grid is busy still runs once, at its own point", async () => {
  const ticker = new Ticker(10);
  let busy = 0;
  const stop = Promise.withResolvers<void>();
  const again = () => {
    if (++busy < 3) ticker.after(1, again);
    else stop.resolve();
  };
  const t0 = performance.now();
  const late = new Promise<number>((resolve) => ticker.after(60, () => resolve(performance.now())));
  ticker.after(1, again);
  await stop.promise;
  assert.ok((await late) - t0 >= 60);
  assert.equal(ticker.pending, 0);
});

Deno.test("whenSettled runs after the grid point's callbacks and their microtasks, in the same wake-up", async () => {
  const ticker = new Ticker(10);
  const log: string[] = [];
  assert.equal(ticker.whenSettled(() => log.push("outside")), false);
  const done = Promise.withResolvers<void>();
  ticker.after(1, () => {
    log.push("callback");
    ticker.whenSettled(() => {
      log.push("settled");
      done.resolve();
    });
    Promise.resolve().then(() => log.push("microtask"));
  });
  await done.promise;
  assert.deepEqual(log, ["callback", "microtask", "settled"]);
  assert.equal(ticker.wakeups, 1);
});

Deno.test("a callback that throws fails alone: its owner hears it, the grid point's others run, every() goes on", async () => {
  const ticker = new Ticker(10);
  const heard: FaultReport[] = [];
  setFaultSink((r) => heard.push(r));
  try {
    const log: string[] = [];
    let n = 0;
    const done = Promise.withResolvers<void>();
    const every = ticker.every(10, () => {
      if (++n === 3) done.resolve();
      throw new Error(`tick ${n}`);
    }, { name: "session-4 detection" });
    ticker.after(5, () => {
      throw new Error("one-shot");
    });
    const after = fired(ticker, 5, log, "neighbour");
    await after;
    await done.promise;
    every[Symbol.dispose]();
    assert.deepEqual(log, ["neighbour"]);
    assert.equal(n, 3);
    const seen = heard.map((r) => `${r.owner}: ${(r.error as Error).message}`);
    assert.ok(seen.includes("timer: one-shot"), seen.join("\n"));
    assert.ok(seen.includes("session-4 detection: tick 1"), seen.join("\n"));
  } finally {
    setFaultSink(null);
  }
});

Deno.test("whenSettled from a settled callback runs in the same wake-up, not at a grid point that may never come", async () => {
  // A detection check (settled) changes the state; the TUI asks to draw once it settles.
  const ticker = new Ticker(10);
  const log: string[] = [];
  const done = Promise.withResolvers<void>();
  ticker.after(1, () => {
    ticker.whenSettled(() => {
      log.push("check");
      ticker.whenSettled(() => {
        log.push("draw");
        done.resolve();
      });
    });
  });
  // A bound on a hang (a grid point that never comes), not on speed: wakeups says how it ran.
  const timeout = setTimeout(() => done.reject(new Error(`only ${log.join(", ")} ran`)), 10_000);
  try {
    await done.promise;
  } finally {
    clearTimeout(timeout);
  }
  assert.deepEqual(log, ["check", "draw"]);
  assert.equal(ticker.wakeups, 1);
});
