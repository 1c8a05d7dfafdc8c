import assert from "node:assert/strict";
import { fault, type FaultReport, guard, guarded, type Owner, setFaultSink } from "./guard.ts";

/** Collects what the sink hears while `fn` runs (the sink is process-wide). */
function reports(fn: () => void): FaultReport[] {
  const heard: FaultReport[] = [];
  setFaultSink((r) => heard.push(r));
  try {
    fn();
  } finally {
    setFaultSink(null);
  }
  return heard;
}

Deno.test("guard: a throw stops at the entry point, is reported with the owner's action, and the caller goes on", () => {
  const resets: string[] = [];
  const owner: Owner = {
    name: "client-7",
    fault: (_error, where) => {
      resets.push(where);
      return "redrawn from scratch";
    },
  };
  const error = new Error("boom");
  let after = false;
  const heard = reports(() => {
    assert.equal(guard(owner, "draw", () => 1), 1);
    assert.equal(
      guard(owner, "draw", () => {
        throw error;
      }),
      undefined,
    );
    after = true;
  });
  assert.ok(after);
  assert.deepEqual(resets, ["draw"]);
  assert.equal(heard.length, 1);
  assert.deepEqual(
    { ...heard[0]!, error: heard[0]!.error === error },
    {
      owner: "client-7",
      where: "draw",
      action: "redrawn from scratch",
      error: true,
      repeats: 0,
      since: null,
    },
  );
});

Deno.test("guarded: a callback's arguments pass through; an owner without fault() is kept", () => {
  const seen: number[] = [];
  const heard = reports(() => {
    const cb = guarded({ name: "timer" }, "timer", (a: number, b: number) => {
      seen.push(a + b);
      if (a < 0) throw new Error("negative");
    });
    cb(1, 2);
    cb(-1, 0);
    cb(3, 4);
  });
  assert.deepEqual(seen, [3, -1, 7]);
  assert.equal(heard.length, 1);
  assert.equal(heard[0]!.action, null);
});

Deno.test("a reset that throws too is reported, and the first failure still is", () => {
  const owner: Owner = {
    name: "plugin x",
    fault: () => {
      throw new Error("reset broke");
    },
  };
  const heard = reports(() => fault(owner, "message", new Error("first")));
  assert.deepEqual(
    heard.map((r) => [r.where, r.action, (r.error as Error).message]),
    [
      ["message, then resetting its owner,", null, "reset broke"],
      ["message", "its reset failed too", "first"],
    ],
  );
});

Deno.test("a failure that repeats is logged once a minute, its owner reset every time", () => {
  let resets = 0;
  const owner: Owner = { name: "session-1", fault: () => void resets++ };
  const heard = reports(() => {
    for (let i = 0; i < 100; i++) fault(owner, "output listener", new Error("same"));
    fault(owner, "output listener", new Error("other"));
  });
  assert.equal(resets, 101);
  assert.deepEqual(heard.map((r) => (r.error as Error).message), ["same", "other"]);
});

Deno.test("a sink that throws loses the log line, never the containment", () => {
  setFaultSink(() => {
    throw new Error("disk full");
  });
  try {
    assert.equal(
      guard({ name: "x" }, "y", () => {
        throw new Error("z");
      }),
      undefined,
    );
  } finally {
    setFaultSink(null);
  }
});
