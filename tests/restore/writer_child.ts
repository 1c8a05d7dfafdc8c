/**
 * A state writer under load, to be killed with SIGKILL at a random moment
 * (tests/restore_kill_test.ts): it adds a session, writes the state file
 * through the real StateWriter (temp file, fsync, rename), prints
 * `written N` once the write of N sessions is complete, and goes on until
 * it is killed. Each session carries a full screen, so a write is ~100 KB.
 */

import { formatState, type SavedSession } from "../../src/restore/state_file.ts";
import { StateWriter } from "../../src/restore/writer.ts";
import { savedSession } from "../../src/restore/test_util.ts";

const file = Deno.args[0]!;
const sessions: SavedSession[] = [];
const writer = new StateWriter(file, {
  render: () => formatState(sessions, Date.now()),
  delayMs: 0,
});
const screen = Array.from({ length: 40 }, (_, i) => `row ${i} `.padEnd(60, "x"));
const encoder = new TextEncoder();
for (let n = 1;; n++) {
  sessions.push(savedSession(`s-${n}`, { group: "load", screen }));
  writer.schedule();
  await writer.flush();
  Deno.stdout.writeSync(encoder.encode(`written ${n}\n`));
}
