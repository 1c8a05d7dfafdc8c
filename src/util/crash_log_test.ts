import assert from "node:assert/strict";
import { appendCrash, crashEntry, crashLogSink } from "./crash_log.ts";
import { guard, setFaultSink } from "./guard.ts";

const AT = new Date("2026-01-02T03:04:05.678Z");

Deno.test("an entry: time, owner, where, what was done, then the stack", () => {
  const error = new RangeError("offset is out of bounds");
  const text = crashEntry(
    {
      owner: "client-2",
      where: "draw",
      action: "redrawn from scratch",
      error,
      repeats: 0,
      since: null,
    },
    AT,
  );
  const [first, second, third] = text.split("\n");
  assert.equal(first, "2026-01-02T03:04:05.678Z [client-2] draw failed: redrawn from scratch");
  assert.equal(second, "RangeError: offset is out of bounds");
  assert.match(third!, /^\s+at /);
  assert.ok(text.endsWith("\n"));
});

Deno.test("an entry of a repeated failure counts the ones not written; a non-Error is named", () => {
  const text = crashEntry(
    {
      owner: "timer",
      where: "timer",
      action: null,
      error: 42,
      repeats: 3,
      since: Date.parse("2026-01-02T03:03:00.000Z"),
    },
    AT,
  );
  assert.equal(
    text,
    "2026-01-02T03:04:05.678Z [timer] timer failed: kept (and 3 more times since " +
      "2026-01-02T03:03:00.000Z)\nthrown: 42\n",
  );
});

Deno.test("crash.log is bounded: past the limit it becomes crash.log.1 and a new one starts", () => {
  const dir = Deno.makeTempDirSync();
  try {
    const entry = `${"x".repeat(99)}\n`;
    for (let i = 0; i < 35; i++) appendCrash(`${dir}/data`, entry, 1000);
    const now = Deno.statSync(`${dir}/data/crash.log`).size;
    const before = Deno.statSync(`${dir}/data/crash.log.1`).size;
    assert.ok(now <= 1000 && before <= 1000, `${now} + ${before}`);
    assert.equal((now + before) % 100, 0, "whole entries only");
    const names = [...Deno.readDirSync(`${dir}/data`)].map((e) => e.name).sort();
    assert.deepEqual(names, ["crash.log", "crash.log.1"]);
    assert.equal(Deno.statSync(`${dir}/data/crash.log`).mode! & 0o777, 0o600);
  } finally {
    Deno.removeSync(dir, { recursive: true });
  }
});

Deno.test("the server's sink: a contained failure lands in crash.log with its stack", () => {
  const dir = Deno.makeTempDirSync();
  setFaultSink(crashLogSink(dir));
  try {
    guard({ name: "control read", fault: () => "answered with the error" }, "request", () => {
      throw new TypeError("cannot read x of undefined");
    });
  } finally {
    setFaultSink(null);
  }
  const log = Deno.readTextFileSync(`${dir}/crash.log`);
  assert.match(
    log,
    /^\S+Z \[control read\] request failed: answered with the error\nTypeError: cannot read x of undefined\n\s+at /,
  );
  assert.equal(appendCrash("/proc/nonexistent/lazyshell", "x\n"), null, "no log, no throw");
  Deno.removeSync(dir, { recursive: true });
});
