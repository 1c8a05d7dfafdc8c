/**
 * A resumed agent is no news until it runs a turn of its own: `claude
 * --resume` (what `lazyshell restore` starts) redraws the last turn of the
 * conversation, complete ("✻ Worked for 26s"), and the screen rule reads
 * `done` — that earlier turn's done notified again on every restore. A
 * fake Claude Code (tests/testdata/resumed_agent.ts) in a real PTY on a
 * real Runtime with its notifications sent to a fallback command: no
 * notification until a key starts a turn, then one `done`.
 */

import assert from "node:assert/strict";
import { appLab } from "./app_lab.ts";
import { waitFor } from "../src/session/test_util.ts";

const FAKE = new URL("./testdata/resumed_agent.ts", import.meta.url).pathname;
const WAIT = 30_000;

Deno.test("a resumed agent's earlier done is not news; its first turn of its own is", async () => {
  const dir = Deno.makeTempDirSync({ prefix: "lazyshell-resumed-done-" });
  const notified = `${dir}/notified`;
  Deno.writeTextFileSync(notified, "");
  await using lab = appLab("lazyshell-resumed-done-", {
    cols: 120,
    rows: 32,
    config: `notify:\n  fallback_command: "cat >> ${notified}; echo >> ${notified}"\n` +
      "  rate_limit_seconds: 0\n",
  });
  const script = `${lab.dir}/claude.ts`;
  Deno.copyFileSync(FAKE, script);
  const session = lab.runtime.createSession({
    name: "resumed",
    command: `exec ${Deno.execPath()} run -A --quiet ${script}`,
  });
  const state = () => lab.runtime.view(session.id)?.agentStatus;
  const lines = () => Deno.readTextFileSync(notified).split("\n").filter(Boolean);
  await waitFor(session, () => state()?.state === "done", WAIT, "the earlier turn read as done");
  const before = lines();
  const seq = state()!.seq;
  session.write("x", true);
  await waitFor(session, () => state()?.state === "working", WAIT, "its own turn");
  await waitFor(
    session,
    () => state()?.state === "done" && state()!.seq > seq,
    WAIT,
    "its own turn done",
  );
  await waitFor(session, () => lines().length > before.length, WAIT, "its notification");
  assert.deepEqual(lines(), ["claude (resumed): done"], "one done: the turn it ran");
  Deno.removeSync(dir, { recursive: true });
});
