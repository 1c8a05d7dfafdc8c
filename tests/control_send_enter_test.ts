/**
 * `send --enter` and `group-send --enter` write Enter apart from the text:
 * in one write ("text\r") TUIs that detect pastes by timing (Codex 0.171)
 * take the Enter for a newline inside a paste and never submit. Found
 * running the real Codex under `lazyshell serve` (tools/live). The child
 * here prints every read(2) it gets, so the test sees the write boundaries.
 */

import assert from "node:assert/strict";
import { waitForText } from "../src/session/test_util.ts";
import { startInstance } from "./control_helpers.ts";

const READER = `Deno.stdin.setRaw(true);
const buf = new Uint8Array(4096);
console.log("reader-ready");
while (true) {
  const n = await Deno.stdin.read(buf);
  if (n === null) break;
  const text = new TextDecoder().decode(buf.subarray(0, n));
  console.log("chunk " + JSON.stringify(text));
  if (text.includes("\\r")) break;
}
`;

async function reader(t: Awaited<ReturnType<typeof startInstance>>, name: string, group?: string) {
  const file = `${t.base}/reader.ts`;
  Deno.writeTextFileSync(file, READER);
  await t.ok("new", {
    name,
    command: `${Deno.execPath()} run --quiet ${file}`,
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
