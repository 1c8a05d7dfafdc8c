/**
 * `ctl watch` (docs/control-api.md, "Following the list") against a real
 * runtime and control socket: a digest not seen returns at once; the digest
 * of the list now holds the reply until the list changes (a rename), not
 * on output alone; the timeout answers with the same list. And the lasting
 * link the watched hosts use (src/remote/control_link.ts) over the same
 * socket: replies matched by id, a pending bound, the end said once.
 */

import assert from "node:assert/strict";
import { startInstance } from "./control_helpers.ts";
import { ControlLink, MAX_PENDING } from "../src/remote/control_link.ts";

interface Watched {
  digest: string;
  version: number;
  sessions: { name: string }[];
}

Deno.test("watch: at once for another digest, held until the list changes, same list on timeout", async () => {
  await using t = await startInstance();
  await t.ok("new", { name: "a", command: "cat" });
  const first = await t.ok<Watched>("watch");
  assert.deepEqual(first.sessions.map((s) => s.name), ["a"]);
  assert.match(first.digest, /^[0-9a-f]{16}$/);
  // The same list: held; output of the session does not release it, a rename does.
  const t0 = performance.now();
  const held = t.call("watch", { digest: first.digest, timeout: 30 });
  let settled = false;
  void held.then(() => (settled = true));
  await t.ok("send", { target: "a", text: "hello", enter: true });
  await new Promise((r) => setTimeout(r, 500));
  assert.equal(settled, false, "output alone is not a change of the list");
  await t.ok("rename", { target: "a", name: "b" });
  const changed = await held;
  assert.ok(changed.ok);
  const next = changed.result as Watched;
  assert.deepEqual(next.sessions.map((s) => s.name), ["b"]);
  assert.notEqual(next.digest, first.digest);
  assert.ok(performance.now() - t0 < 25_000);
  // Nothing changes: the timeout answers with the same list and digest.
  const same = await t.ok<Watched>("watch", { digest: next.digest, timeout: 0.3 });
  assert.equal(same.digest, next.digest);
});

Deno.test("watch --since: two asks pending, two changes in a row answer both, in order", async () => {
  await using t = await startInstance();
  await t.ok("new", { name: "a", command: "cat" });
  const v = (await t.ok<Watched>("watch")).version;
  assert.equal((await t.ok<Watched>("watch", { since: v - 1 })).version, v, "past: at once");
  const one = t.call("watch", { since: v, timeout: 30 });
  const two = t.call("watch", { since: v + 1, timeout: 30 });
  await new Promise((r) => setTimeout(r, 200));
  await t.ok("rename", { target: "a", name: "b" });
  const first = await one;
  assert.ok(first.ok);
  assert.deepEqual(
    [(first.result as Watched).version, (first.result as Watched).sessions[0]!.name],
    [v + 1, "b"],
  );
  await t.ok("rename", { target: "b", name: "c" });
  const second = await two;
  assert.ok(second.ok);
  assert.deepEqual(
    [(second.result as Watched).version, (second.result as Watched).sessions[0]!.name],
    [v + 2, "c"],
  );
});

Deno.test("control link: concurrent requests matched by id, a pending bound, the end said once", async () => {
  await using t = await startInstance();
  await t.ok("new", { name: "a", command: "cat" });
  const conn = await Deno.connect({ transport: "unix", path: t.sockets.control!.path });
  const link = new ControlLink(conn);
  const first = await link.request("watch", {}, 10_000);
  assert.ok(first.ok);
  const digest = (first.result as Watched).digest;
  // A held watch does not hold a list behind it on the same link.
  const held = link.request("watch", { digest, timeout: 30 }, 40_000);
  const listed = await link.request("list", {}, 10_000);
  assert.ok(listed.ok);
  const more = Array.from({ length: MAX_PENDING }, () => link.request("list", {}, 10_000));
  await assert.rejects(Promise.race(more), /already wait for a reply/);
  await Promise.allSettled(more);
  await t.ok("rename", { target: "a", name: "b" });
  const renamed = await held;
  assert.ok(renamed.ok);
  // Ended with a watch held: it fails with the same line, `closed` says it, nothing more goes.
  const now = (renamed.result as Watched).digest;
  const late = link.request("watch", { digest: now, timeout: 30 }, 40_000);
  late.catch(() => {});
  await new Promise((r) => setTimeout(r, 300));
  link.close("ended by the test");
  assert.equal(await link.closed, "ended by the test");
  await assert.rejects(late, /ended by the test/);
  await assert.rejects(link.request("list", {}, 1000), /ended by the test/);
});
