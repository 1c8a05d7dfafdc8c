/**
 * The agent's process as /proc tells it: a real child (a shell that starts
 * a second process in its own process group, as `node codex.js` starts the
 * `codex` binary), its cwd, environment, start time and open files.
 */

import assert from "node:assert/strict";
import { readProcess } from "../session/procinfo.ts";
import { openFiles, processGroups, readAgentProcess } from "./agent_process.ts";

Deno.test({
  name: "agent process: job, cwd, environment, start time and open files of a real child",
  ignore: Deno.build.os !== "linux",
  async fn() {
    const dir = Deno.makeTempDirSync({ prefix: "lzs-agent-proc-" });
    const held = `${dir}/transcript.jsonl`;
    Deno.writeTextFileSync(held, "");
    const before = Date.now();
    // setsid: the child leads its own session and group, as a PTY child does.
    const child = new Deno.Command("setsid", {
      args: ["sh", "-c", `exec 7>>"${held}"; sleep 30 & wait`],
      cwd: dir,
      env: { HOME: "/home/agent", CLAUDE_CONFIG_DIR: "/etc/claude" },
      clearEnv: true,
      stdout: "null",
      stderr: "null",
    }).spawn();
    try {
      let info = readProcess(child.pid);
      const deadline = Date.now() + 10_000;
      let proc = info ? readAgentProcess(info, await processGroups()) : null;
      while ((proc?.pids.length ?? 0) < 2 && Date.now() < deadline) {
        await new Promise((r) => setTimeout(r, 50));
        info = readProcess(child.pid);
        proc = info ? readAgentProcess(info, await processGroups()) : null;
      }
      assert.ok(proc, "read");
      assert.equal(proc.pid, child.pid);
      assert.equal(proc.pids.length, 2, "the shell and its sleep");
      assert.equal(proc.cwd, Deno.realPathSync(dir));
      assert.equal(proc.env.HOME, "/home/agent");
      assert.equal(proc.env.CLAUDE_CONFIG_DIR, "/etc/claude");
      // The boot time is in whole seconds: the start time is known to about 1 s.
      assert.ok(Math.abs(proc.startedAt - before) < 3000, `${proc.startedAt - before} ms`);
      assert.ok((await openFiles(proc.pids)).includes(Deno.realPathSync(held)));
      // Another process that had this pid (another start time): nothing.
      const groups = await processGroups();
      assert.equal(readAgentProcess({ ...info!, startTime: info!.startTime + 1 }, groups), null);
    } finally {
      Deno.kill(-child.pid, "SIGKILL"); // the group: the shell and its sleep
      await child.status;
      Deno.removeSync(dir, { recursive: true });
    }
  },
});
