import assert from "node:assert/strict";
import { connecting, failed, initialHost, listed, STABLE_MS, stateChanges } from "./host_state.ts";
import type { RemoteSession } from "../model/hosts.ts";
import { parseRemoteKey, remoteKey } from "../model/hosts.ts";

const row = (id: string, more: Partial<RemoteSession> = {}): RemoteSession => ({
  id,
  name: id,
  group: null,
  status: "running",
  exitCode: null,
  signal: null,
  agent: null,
  state: null,
  kind: null,
  msg: null,
  seq: null,
  since: null,
  resetsAt: null,
  prompt: null,
  ...more,
});

Deno.test("host state: down retries after 1 s doubling to 60 s (a quarter less at most); up starts over", () => {
  let h = initialHost("box");
  assert.equal(h.phase, "connecting");
  const waits: number[] = [];
  for (let i = 0; i < 9; i++) {
    h = failed(connecting(h), "ssh to box failed", 1000, 0);
    waits.push(h.retryAt! - 1000);
  }
  assert.deepEqual(waits, [1000, 2000, 4000, 8000, 16000, 32000, 60000, 60000, 60000]);
  assert.deepEqual([h.phase, h.tries, h.error], ["down", 9, "ssh to box failed"]);
  // Jitter: up to a quarter less.
  assert.equal(failed(initialHost("b"), "x", 0, 1).retryAt, 750);
  // Sessions as last listed stay while down.
  const up = listed(connecting(h), [row("session-1")], 5000);
  assert.deepEqual([up.phase, up.retryAt, up.error, up.listedAt, up.upSince], [
    "up",
    null,
    null,
    5000,
    5000,
  ]);
  // Dropped soon after it came up (a host that flaps): the waits go on growing.
  const flapped = failed(listed(up, [], 6000), "lost", 7000, 0);
  assert.deepEqual([flapped.tries, flapped.retryAt! - 7000, flapped.upSince], [10, 60000, null]);
  // Up for STABLE_MS or more: they start over.
  const down = failed(up, "lost", 5000 + STABLE_MS, 0);
  assert.deepEqual(down.sessions.map((s) => s.id), ["session-1"]);
  assert.deepEqual([down.tries, down.retryAt! - (5000 + STABLE_MS)], [1, 1000]);
});

Deno.test("host state: state changes are news, the first list is not", () => {
  const blocked = row("session-1", { state: "blocked", kind: "permission", seq: 3 });
  assert.deepEqual(stateChanges(null, [blocked]), []);
  assert.deepEqual(stateChanges([row("session-1")], [blocked]), [blocked]);
  assert.deepEqual(stateChanges([blocked], [blocked]), []);
  assert.deepEqual(stateChanges([blocked], [{ ...blocked, seq: 4 }]).length, 1);
  // A new session that comes with a state is news; one with none is not.
  assert.deepEqual(stateChanges([], [row("session-2"), blocked]), [blocked]);
});

Deno.test("remote keys never read as local ids", () => {
  assert.deepEqual(parseRemoteKey(remoteKey("box", "session-1")), { host: "box", id: "session-1" });
  assert.equal(parseRemoteKey("session-1"), null);
});
