/**
 * What the OS tells of a real child (a shell in a temporary directory with a marked environment
 * and a file held open), and that a process gone reads as null or empty. Linux only.
 */

import assert from "node:assert/strict";
import {
  bootTime,
  childProcessIds,
  openFdTargets,
  openFdTargetsAsync,
  processCmdline,
  processCpuSeconds,
  processCwd,
  processEnvironText,
  processExe,
  processIds,
  processIdsAsync,
  processMemoryBytes,
  processStatText,
  processStatTextAsync,
} from "./process_files.ts";

const linux = Deno.build.os === "linux";

Deno.test({
  name: "a live child's command line, executable, directory, environment, files and parent",
  ignore: !linux,
  async fn() {
    const dir = Deno.makeTempDirSync({ prefix: "lazyshell-procfiles-" });
    const held = `${dir}/held`;
    Deno.writeTextFileSync(held, "");
    const child = new Deno.Command("/bin/sh", {
      args: ["-c", `exec 3<"${held}"; echo ready; exec sleep 30 3<"${held}"`],
      cwd: dir,
      env: { LAZYSHELL_PROCFILES_MARK: "yes" },
      stdout: "piped",
    }).spawn();
    try {
      const reader = child.stdout.getReader();
      const { value } = await reader.read();
      assert.match(new TextDecoder().decode(value), /ready/);
      // `exec sleep` replaces the shell: wait until the command line says so.
      const deadline = Date.now() + 30_000;
      while (!processCmdline(child.pid)?.startsWith("sleep\0")) {
        assert.ok(Date.now() < deadline, `cmdline stayed ${processCmdline(child.pid)}`);
        await new Promise((r) => setTimeout(r, 20));
      }
      assert.equal(processCmdline(child.pid), "sleep\x0030\0");
      assert.match(processExe(child.pid) ?? "", /\/sleep$/);
      assert.equal(processCwd(child.pid), Deno.realPathSync(dir));
      assert.ok(
        processEnvironText(child.pid)?.split("\0").includes("LAZYSHELL_PROCFILES_MARK=yes"),
      );
      assert.ok(openFdTargets(child.pid).includes(Deno.realPathSync(held)));
      assert.deepEqual(await openFdTargetsAsync(child.pid), openFdTargets(child.pid));
      assert.match(processStatText(child.pid) ?? "", new RegExp(`^${child.pid} \\(sleep\\) `));
      assert.equal(await processStatTextAsync(child.pid), processStatText(child.pid));
      assert.ok(childProcessIds(Deno.pid).includes(child.pid));
      assert.ok(processIds().includes(child.pid));
      assert.ok((await processIdsAsync()).includes(child.pid));
      assert.ok((processMemoryBytes(child.pid, "VmRSS") ?? 0) > 0);
      assert.ok((processMemoryBytes(child.pid, "VmHWM") ?? 0) > 0);
      assert.ok((processCpuSeconds("self") ?? -1) >= 0);
      reader.releaseLock();
    } finally {
      child.kill("SIGKILL");
      await child.status;
      await child.stdout.cancel().catch(() => {});
      Deno.removeSync(dir, { recursive: true });
    }
  },
});

Deno.test({
  name: "a process gone reads as null or empty, never a throw",
  ignore: !linux,
  async fn() {
    const child = new Deno.Command("/bin/true").spawn();
    await child.status;
    const pid = child.pid;
    assert.equal(processStatText(pid), null);
    assert.equal(await processStatTextAsync(pid), null);
    assert.equal(processCmdline(pid), null);
    assert.equal(processExe(pid), null);
    assert.equal(processCwd(pid), null);
    assert.equal(processEnvironText(pid), null);
    assert.equal(processMemoryBytes(pid, "VmRSS"), null);
    assert.equal(processCpuSeconds(pid), null);
    assert.deepEqual(openFdTargets(pid), []);
    assert.deepEqual(await openFdTargetsAsync(pid), []);
    assert.deepEqual(childProcessIds(pid), []);
  },
});

Deno.test({
  name: "the boot time is a time in the past, in seconds",
  ignore: !linux,
  fn() {
    const boot = bootTime();
    assert.ok(boot !== null && boot > 1e9 && boot * 1000 < Date.now(), `${boot}`);
  },
});
