/**
 * `send --enter` and `group-send --enter` write Enter apart from the text:
 * in one write ("text\r") TUIs that detect pastes by timing (Codex 0.171)
 * take the Enter for a newline inside a paste and never submit. Found
 * running the real Codex under `lazyshell serve` (tools/live). The child
 * here prints every read(2) it gets, so the test sees the read boundaries;
 * a child slow to read must still get the Enter in a read of its own.
 */

import assert from "node:assert/strict";
import { waitFor, waitForText } from "../src/session/test_util.ts";
import { hookMessage, sendHook } from "../src/ipc/hook_client.ts";
import { startInstance } from "./control_helpers.ts";

const READER = `Deno.stdin.setRaw(true);
const buf = new Uint8Array(4096);
console.log("reader-ready");
const pause = Number(Deno.args[0] ?? 0);
if (pause) await new Promise((r) => setTimeout(r, pause));
while (true) {
  const n = await Deno.stdin.read(buf);
  if (n === null) break;
  const text = new TextDecoder().decode(buf.subarray(0, n));
  console.log("chunk " + JSON.stringify(text));
  if (text.includes("\\r")) break;
}
`;

async function reader(
  t: Awaited<ReturnType<typeof startInstance>>,
  name: string,
  group?: string,
  pauseMs = 0,
) {
  const file = `${t.base}/reader.ts`;
  Deno.writeTextFileSync(file, READER);
  await t.ok("new", {
    name,
    command: `${Deno.execPath()} run --quiet ${file} ${pauseMs}`,
    ...(group ? { group } : {}),
  });
  const session = t.runtime.store.find(name)!;
  await waitForText(session, "reader-ready", 30_000);
  return session;
}

Deno.test("send --enter: Enter arrives in its own write, after the text", async () => {
  await using t = await startInstance();
  const session = await reader(t, "r1");
  const sent = await t.ok<{ bytes: number }>("send", { target: "r1", text: "hello", enter: true });
  assert.equal(sent.bytes, 6);
  await waitForText(session, 'chunk "\\r"', 15_000);
  const lines = session.terminal.visibleLines().filter((l) => l.startsWith("chunk"));
  assert.deepEqual(lines, ['chunk "hello"', 'chunk "\\r"']);
});

Deno.test("send --enter to a child slow to read: Enter waits for its read of the text", async () => {
  // The child reads nothing for 1.5 s after it is ready (an agent still starting, a loaded
  // machine). Written a fixed 250 ms after the text, the Enter came in the same read as the
  // text ('chunk "hello\\r"'): what Gemini CLI kept as a newline in its input box
  // (tools/live/README.md, live-enter).
  await using t = await startInstance();
  const session = await reader(t, "slow", undefined, 1500);
  await t.ok("send", { target: "slow", text: "hello", enter: true });
  await waitForText(session, '\\r"', 15_000);
  const lines = session.terminal.visibleLines().filter((l) => l.startsWith("chunk"));
  assert.deepEqual(lines, ['chunk "hello"', 'chunk "\\r"']);
});

Deno.test("group-send --enter: each member gets the text, then Enter apart", async () => {
  await using t = await startInstance();
  const a = await reader(t, "a", "crew");
  const b = await reader(t, "b", "crew");
  await t.ok("group-send", { group: "crew", text: "go", enter: true });
  for (const s of [a, b]) {
    await waitForText(s, 'chunk "\\r"', 15_000);
    const lines = s.terminal.visibleLines().filter((l) => l.startsWith("chunk"));
    assert.deepEqual(lines, ['chunk "go"', 'chunk "\\r"']);
  }
});

Deno.test("send --enter to a plain shell left in state done: typed, no receipt, no false failure", async () => {
  await using t = await startInstance();
  await t.ok("new", { name: "sh", command: "bash --norc --noprofile" });
  const session = t.runtime.store.find("sh")!;
  // A hook's done (a notify script, an agent that ran in it and exited) on a shell with no agent.
  const sent = await sendHook(session.env.LAZYSHELL_SOCK!, hookMessage("done", null), 5_000);
  assert.equal(sent, "acked");
  await waitFor(
    session,
    () => t.runtime.view(session.id)?.agentStatus?.state === "done",
    5_000,
    "done",
  );
  assert.equal(t.runtime.view(session.id)?.agent, null);
  const r = await t.call("send", { target: "sh", text: "echo typed-$((40+2))", enter: true });
  assert.deepEqual(r.ok ? (r.result as { receipt: unknown }).receipt : r.error, null);
  await waitForText(session, "typed-42", 15_000);
  // Asked for, a receipt is still refused up front, nothing typed.
  const asked = await t.error("send", { target: "sh", text: "x", enter: true, receipt: true });
  assert.equal(asked, "session-1 (sh) runs no agent to take it: nothing sent");
});
