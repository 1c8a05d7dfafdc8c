import assert from "node:assert/strict";
import { aliveOn, hostLiveness, isAlive, type LivenessProbe } from "./liveness.ts";

const stat = (state: string) => `4242 (a (b) c) ${state} 1 4242 4242 0 -1 ${"0 ".repeat(40)}`;

/** A probe for `os` answering from these tables; `asked` records what was consulted. */
function probe(os: LivenessProbe["os"], stats: Record<number, string>, existing: number[]) {
  const asked: string[] = [];
  const p: LivenessProbe = {
    os,
    stat: (pid) => (asked.push(`stat ${pid}`), stats[pid] ?? null),
    exists: (pid) => (asked.push(`kill ${pid}`), existing.includes(pid)),
  };
  return { p, asked };
}

Deno.test("Linux: /proc/<pid>/stat decides, and a zombie is not alive", () => {
  const { p, asked } = probe("linux", { 10: stat("S"), 11: stat("Z"), 12: stat("R") }, [11]);
  assert.equal(aliveOn(p, 10), true);
  assert.equal(aliveOn(p, 11), false, "a zombie: kill(pid, 0) would say it exists");
  assert.equal(aliveOn(p, 12), true);
  assert.equal(aliveOn(p, 13), false);
  assert.deepEqual(asked, ["stat 10", "stat 11", "stat 12", "stat 13", "kill 13"]);
});

Deno.test("macOS: kill(pid, 0) decides, /proc is never read", () => {
  // The bug this replaces: with no /proc every pid read as gone, and start-up pruned live servers.
  const { p, asked } = probe("darwin", {}, [10]);
  assert.equal(aliveOn(p, 10), true);
  assert.equal(aliveOn(p, 11), false);
  assert.deepEqual(asked, ["kill 10", "kill 11"]);
});

Deno.test("pid 0 and negative pids (process groups to kill) are never alive", () => {
  const { p, asked } = probe("darwin", {}, [0, -1]);
  assert.equal(aliveOn(p, 0), false);
  assert.equal(aliveOn(p, -1), false);
  assert.equal(aliveOn(p, 1.5), false);
  assert.deepEqual(asked, []);
});

Deno.test("this OS's probes: this process is alive, a reaped child is not, either way", async () => {
  const child = new Deno.Command("true").spawn();
  await child.status;
  for (const os of ["linux", "darwin"] as const) {
    const p = { ...hostLiveness, os };
    assert.equal(aliveOn(p, Deno.pid), true, os);
    assert.equal(aliveOn(p, child.pid), false, os);
  }
});

Deno.test({
  name: "Linux: an unreaped child (a zombie) is not alive, though kill(pid, 0) reaches it",
  ignore: Deno.build.os !== "linux",
  fn: async () => {
    // sh starts a short child, then becomes `sleep`, which never reaps it: a zombie until killed.
    const parent = new Deno.Command("/bin/sh", {
      args: ["-c", "sleep 0 & echo $!; exec sleep 60"],
      stdout: "piped",
    }).spawn();
    const reader = parent.stdout.getReader();
    const { value } = await reader.read();
    const zombie = Number(new TextDecoder().decode(value).trim());
    try {
      // The zombie's exit is asynchronous: wait for /proc to show it (state Z).
      let state = "";
      for (let i = 0; i < 3000 && state !== "Z"; i++) {
        const text = hostLiveness.stat(zombie) ?? "";
        state = text.slice(text.lastIndexOf(")") + 2)[0] ?? "";
        if (state !== "Z") await new Promise((r) => setTimeout(r, 10));
      }
      assert.equal(state, "Z");
      assert.equal(hostLiveness.exists(zombie), true, "kill(pid, 0) reaches a zombie");
      assert.equal(isAlive(zombie), false);
    } finally {
      reader.releaseLock();
      parent.kill("SIGKILL");
      await parent.status;
      await parent.stdout.cancel();
    }
  },
});
