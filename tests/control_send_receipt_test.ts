/**
 * `send --enter` into an agent returns once the agent took the text, and
 * `group-send --enter` says so per member (tests/testdata/input_agent.ts: a
 * fake agent in a real PTY with an input box): taken when its state moves
 * on or its input box empties; a second Enter when the text still sits in
 * the box (a paste-mode Enter that became a newline); a clear failure when
 * it never takes it.
 */

import assert from "node:assert/strict";
import { waitFor } from "../src/session/test_util.ts";
import type { SendReceipt } from "../src/control/receipt.ts";
import type { MemberResult } from "../src/control/verbs/group_send.ts";
import { type Instance, startInstance } from "./control_helpers.ts";

const FAKE = new URL("./testdata/input_agent.ts", import.meta.url).pathname;

/** Starts the fake (as `claude`) in `mode`; resolves once lazyshell sees it idle. */
async function agent(t: Instance, name: string, mode: string, group?: string) {
  const script = `${t.base}/claude.ts`;
  Deno.copyFileSync(FAKE, script);
  const log = `${t.base}/${name}.log`;
  await t.ok("new", {
    name,
    command: `MODE=${mode} exec ${Deno.execPath()} run -A --quiet ${script} ${log}`,
    ...(group ? { group } : {}),
  });
  const session = t.runtime.store.find(name)!;
  // Drawn (so in raw mode: text typed before would wait in the line discipline) and seen idle.
  await waitFor(
    session,
    () =>
      session.visibleLines().some((l) => l.includes("? for shortcuts")) &&
      t.runtime.view(session.id)?.agent === "claude" &&
      t.runtime.view(session.id)?.agentStatus?.state === "idle",
    30_000,
    `${name} idle`,
  );
  const enters = () =>
    Deno.readTextFileSync(log).split("\n").filter((l) => l.includes('"data":"\\r"')).length;
  return { session, enters };
}

type Sent = { bytes: number; receipt: SendReceipt | null };

Deno.test("send --enter: the receipt says how the agent took it, or why not", async () => {
  await using t = await startInstance();
  const [submit, clear, paste, stuck] = await Promise.all([
    agent(t, "submit", "submit"),
    agent(t, "clear", "clear"),
    agent(t, "paste", "paste"),
    agent(t, "stuck", "stuck"),
  ]);
  const [a, b, c] = await Promise.all([
    t.ok<Sent>("send", { target: "submit", text: "fix the parser", enter: true }),
    t.ok<Sent>("send", { target: "clear", text: "fix the parser", enter: true }),
    t.ok<Sent>("send", { target: "paste", text: "fix the parser", enter: true }),
  ]);
  // It empties its box and starts working in one frame: either sign may be seen first.
  assert.equal(a.receipt!.taken, true);
  await waitFor(
    submit.session,
    () => t.runtime.view(submit.session.id)?.agentStatus?.state === "working",
  );
  assert.deepEqual([b.receipt!.taken, b.receipt!.by, b.receipt!.retried], [true, "input", false]);
  assert.deepEqual([c.receipt!.taken, c.receipt!.retried], [true, true]);
  assert.deepEqual([submit.enters(), clear.enters(), paste.enters()], [1, 1, 2]);

  const error = await t.error("send", {
    target: "stuck",
    text: "fix the parser",
    enter: true,
    timeout: 2,
  });
  assert.match(
    error,
    /^Sent to session-\d \(stuck\), but not taken within 2 s: the text is still in its input box after a second Enter$/,
  );
  await waitFor(stuck.session, () => stuck.enters() === 2, 5_000, "the second Enter read");

  // Working for a moment while the text stays in the box is not the text taken.
  const blip = await agent(t, "blip", "blip");
  assert.match(
    await t.error("send", { target: "blip", text: "fix the parser", enter: true, timeout: 3 }),
    /^Sent to session-\d \(blip\), but not taken within 3 s: the text is still in its input box after a second Enter$/,
  );
  await waitFor(blip.session, () => blip.enters() === 2, 5_000, "the second Enter read");

  // Opting out, and a session with no agent: typed, no receipt.
  const quick = await t.ok<Sent>("send", {
    target: "stuck",
    text: "x",
    enter: true,
    noReceipt: true,
  });
  assert.equal(quick.receipt, null);
  await t.ok("new", { name: "sh", command: "bash --norc --noprofile" });
  assert.equal(
    (await t.ok<Sent>("send", { target: "sh", text: "true", enter: true })).receipt,
    null,
  );
  assert.equal(
    await t.error("send", { target: "sh", text: "true", enter: true, receipt: true }),
    "session-6 (sh) runs no agent to take it: nothing sent",
  );
  assert.equal(
    await t.error("send", { target: "submit", text: "x", receipt: true }),
    "--receipt needs --enter: nothing sent",
  );
});

Deno.test("group-send --enter: a receipt per member", async () => {
  await using t = await startInstance();
  await Promise.all([agent(t, "a", "submit", "crew"), agent(t, "b", "stuck", "crew")]);
  const r = await t.ok<{ count: number; notTaken: number; members: MemberResult[] }>(
    "group-send",
    { group: "crew", text: "run the tests", enter: true, timeout: 2 },
  );
  assert.deepEqual([r.count, r.notTaken], [2, 1]);
  const byName = Object.fromEntries(r.members.map((m) => [m.name, m]));
  assert.deepEqual([byName.a!.result, byName.a!.receipt!.taken], ["sent", true]);
  assert.equal(byName.b!.result, "not taken");
  assert.equal(
    byName.b!.receipt!.reason,
    "the text is still in its input box after a second Enter",
  );
});
