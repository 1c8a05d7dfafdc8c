/**
 * End to end: whatever a session started — a `nohup`'d or HUP-ignoring
 * background job, a job in its own process group (bash job control) — ends
 * with lazyshell serve, whichever of SIGTERM or SIGINT ends it
 * (docs/control-api.md, "Processes and teardown"), and with `ctl kill` of the session.
 * SIGHUP ends nothing: it reloads the config (docs/architecture.md, "Reload").
 */

import assert from "node:assert/strict";
import { type Server, startServe } from "../tools/abuse/server.ts";
import { processesWith, waitForProcesses } from "../src/session/test_util.ts";

async function waitFor(ok: () => boolean, ms = 15_000): Promise<void> {
  const deadline = Date.now() + ms;
  while (!ok()) {
    if (Date.now() > deadline) throw new Error("timed out");
    await new Promise((r) => setTimeout(r, 20));
  }
}

type Call = (verb: string, args: Record<string, unknown>) => Promise<unknown>;

function caller(server: Server): Call {
  return async (verb, args) => {
    const r = await server.call(verb, args);
    if (!r.ok) throw new Error(`${verb}: ${r.error}`);
    return r.result;
  };
}

/** Two sessions whose children outlive a SIGHUP to the session's own process; returns their tag. */
async function plantSurvivors(call: Call): Promise<string> {
  const tag = `${7000 + Math.floor(Math.random() * 999)}.${Math.floor(Math.random() * 1e6)}`;
  // A command string: no job control, one process group, SIGHUP ignored by all.
  await call("new", { name: "trap", command: `trap '' HUP; sleep 1${tag} & sleep 2${tag}` });
  // An interactive shell: each job in its own process group, one of them nohup'd.
  await call("new", { name: "jobs", command: "bash --norc --noprofile -i" });
  await call("send", {
    target: "jobs",
    text: `nohup sleep 3${tag} >/dev/null 2>&1 & sleep 4${tag} & disown -a`,
    enter: true,
  });
  await waitForProcesses(tag, 4);
  return tag;
}

Deno.test("SIGTERM or SIGINT of serve ends every process the sessions started; SIGHUP ends nothing", async () => {
  // One server per signal, side by side: each waits out the steps of its escalation.
  await Promise.all((["SIGTERM", "SIGINT"] as const).map(async (signal) => {
    await using server = await startServe();
    const tag = await plantSurvivors(caller(server));
    if (signal === "SIGTERM") {
      // A reload: the server answers afterwards, and every process is still there.
      const before = processesWith(tag).map((p) => p.pid);
      Deno.kill(server.pid, "SIGHUP");
      await waitFor(() => server.stderr().includes("lazyshell reload: Reloaded"));
      assert.ok((await server.call("list", {})).ok);
      assert.deepEqual(processesWith(tag).map((p) => p.pid), before, "SIGHUP ended nothing");
    }
    const status = await server.stop(signal);
    assert.equal(status.code, 0, server.stderr());
    assert.deepEqual(processesWith(tag), [], `after ${signal}`);
  }));
});

Deno.test("ctl kill ends what the session started, in every process group of it", async () => {
  await using server = await startServe();
  const call = caller(server);
  const tag = await plantSurvivors(call);
  await call("kill", { target: "trap" });
  await call("kill", { target: "jobs" });
  assert.deepEqual(processesWith(tag), []);
});
