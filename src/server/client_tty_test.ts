import assert from "node:assert/strict";
import { delay } from "../util/async.ts";
import { spawnPty } from "../session/pty.ts";
import { testEnv } from "../session/test_util.ts";
import { ClientTty, parseClientStat, shellHasTerminal } from "./client_tty.ts";

const linux = Deno.build.os === "linux";

/** A real terminal: a PTY whose child (`sleep`) never reads it; its slave is what a client has. */
async function terminal() {
  const pty = spawnPty({
    file: "/bin/sh",
    args: ["-c", "printf ready; exec sleep 30"],
    cwd: "/tmp",
    env: testEnv(),
    cols: 80,
    rows: 24,
  });
  let shown = "";
  pty.onData((d) => (shown += d));
  const exited = new Promise<void>((resolve) => pty.onExit(() => resolve()));
  for (let i = 0; i < 1500 && !shown.includes("ready"); i++) await delay(10);
  const path = Deno.readLinkSync(`/proc/${pty.pid}/fd/0`);
  const { rdev, dev } = Deno.statSync(path);
  return { pty, name: { path, device: rdev!, fs: dev }, path, shown: () => shown, exited };
}

/** How many of this process's open files are `path`. */
function held(path: string): number {
  let n = 0;
  for (const e of Deno.readDirSync("/proc/self/fd")) {
    try {
      if (Deno.readLinkSync(`/proc/self/fd/${e.name}`) === path) n++;
    } catch { /* the directory's own fd */ }
  }
  return n;
}

Deno.test({
  name: "ClientTty reads what is typed, writes frames, hears the hang-up and lets the device go",
  ignore: !linux,
  fn: async () => {
    const t = await terminal();
    const tty = ClientTty.open(t.name);
    assert.ok(tty, `opened ${t.path}`);
    assert.equal(held(t.path), 1);
    let typed = "";
    const hungUp = Promise.withResolvers<void>();
    tty.start({ data: (text) => (typed += text), hangup: () => hungUp.resolve(), back() {} });
    // Typed at the terminal (its line discipline hands a line over at Enter).
    t.pty.write("héllo\r");
    for (let i = 0; i < 3000 && !typed.includes("\n"); i++) await delay(10);
    assert.equal(typed, "héllo\n");
    // A frame written by the server shows on the terminal.
    assert.equal(tty.write("\x1b[1mFRAME\x1b[0m"), true);
    for (let i = 0; i < 3000 && !t.shown().includes("FRAME"); i++) await delay(10);
    assert.ok(t.shown().includes("FRAME"), t.shown());
    // The terminal goes away (its window closed): the hang-up is heard.
    t.pty.kill("SIGKILL");
    await t.exited;
    await hungUp.promise;
    await tty.close();
    await tty.close(); // idempotent
    assert.equal(held(t.path), 0, "the device is closed");
    assert.equal(tty.write("late"), true, "a write after close is dropped, not an error");
  },
});

Deno.test({
  name: "ClientTty opens only a terminal device that is the one the client named",
  ignore: !linux,
  fn: async () => {
    const t = await terminal();
    const { name } = t;
    assert.equal(ClientTty.open({ ...name, device: name.device + 1 }), null, "another device");
    // The same number in another devpts (another container's /dev/pts/N): another filesystem.
    assert.equal(ClientTty.open({ ...name, fs: name.fs + 1 }), null, "another filesystem");
    for (
      const path of ["/dev/null", "/etc/passwd", "/dev/pts/../../etc/passwd", "/dev/pts/99999"]
    ) {
      assert.equal(ClientTty.open({ ...name, path }), null, path);
    }
    assert.equal(held(t.path), 0, "nothing left open by the refusals");
    t.pty.kill("SIGKILL");
    await t.exited;
  },
});

Deno.test("shellHasTerminal(): a client stopped, or out of its terminal's foreground, has it not", () => {
  const stat = (state: string, pgrp: number, tpgid: number) =>
    parseClientStat(
      new TextEncoder().encode(
        `7 (de) no) ${state} 1 ${pgrp} 1 34816 ${tpgid} 0 0 0 0 0 0 0 0 20 0 1 0 5 1 1\n`,
      ),
    )!;
  assert.deepEqual(stat("S", 7, -1), { state: "S", pgrp: 7, ttyNr: 34816, tpgid: -1 });
  assert.equal(parseClientStat(new TextEncoder().encode("garbage")), null);
  assert.equal(shellHasTerminal(stat("S", 7, 7)), false, "running in the foreground");
  assert.equal(shellHasTerminal(stat("R", 7, 7)), false);
  assert.equal(shellHasTerminal(stat("T", 7, 1)), true, "stopped: its shell took the terminal");
  assert.equal(shellHasTerminal(stat("T", 7, 7)), true, "stopped, not yet noticed by its shell");
  assert.equal(shellHasTerminal(stat("S", 7, 1)), true, "continued in the background");
});
