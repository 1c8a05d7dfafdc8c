/**
 * End to end: the restore offer that greets a client after a crash does not
 * forget the saved sessions on one `N` — the new-agent key, pressed by habit
 * as the client attaches. `N` asks first; any key but `y` keeps them. A real
 * client in a real PTY, the real server it starts, a state file the killed
 * server left.
 */

import assert from "node:assert/strict";
import { screenText, waitFor, waitForText } from "../src/session/test_util.ts";
import { formatState } from "../src/restore/state_file.ts";
import { savedSession } from "../src/restore/test_util.ts";
import { lab as e2eLab } from "./e2e_lab.ts";

const WAIT = 30_000;

Deno.test("N in the restore offer on attach forgets nothing until y", async () => {
  await using l = e2eLab("lazyshell-restore-offer-keys-");
  Deno.mkdirSync(`${l.dir}/state/lazyshell`, { recursive: true });
  Deno.writeTextFileSync(
    `${l.dir}/state/lazyshell/sessions-default.jsonl`,
    formatState([savedSession("api", { cwd: l.dir, command: "exec cat", pending: true })], 1),
  );
  const a = l.client(120, 32);
  await waitForText(a, "Restore 1 session saved", WAIT);
  a.write("N");
  await waitForText(a, "Forget the saved session for good?", WAIT);
  a.write("x"); // not y: kept
  await waitFor(a, () => !/for good\?/.test(screenText(a)), WAIT, "the question gone");
  assert.match(screenText(a), /Restore 1 session saved/, "the offer stays");
  const listed = await l.run("restore");
  assert.equal(listed.code, 0, listed.stderr);
  assert.match(listed.stdout, /api: runs exec cat/, "still saved");
  // y forgets, as asked.
  a.write("\x1b");
  await waitFor(a, () => !/Restore 1 session/.test(screenText(a)), WAIT, "the offer closed");
  a.write("R");
  await waitForText(a, "Restore 1 session saved", WAIT);
  a.write("N");
  await waitForText(a, "Forget the saved session for good?", WAIT);
  a.write("y");
  await waitFor(a, () => !/Restore 1 session/.test(screenText(a)), WAIT, "the offer closed");
  let after = await l.run("restore");
  for (const end = Date.now() + WAIT; !/Nothing to restore/.test(after.stdout + after.stderr);) {
    if (Date.now() > end) break;
    after = await l.run("restore");
  }
  assert.match(after.stdout + after.stderr, /Nothing to restore/);
});
