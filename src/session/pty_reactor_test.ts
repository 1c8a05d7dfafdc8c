import assert from "node:assert/strict";
import { delay } from "../util/async.ts";
import { isAlive } from "./procinfo.ts";
import { type Pty, type PtyExit, type PtySpawn, spawnNodePty, spawnPty } from "./pty.ts";
import { ptyReactor } from "./pty_reactor.ts";
import { testEnv } from "./test_util.ts";

function spec(command: string, cols = 80, rows = 24): PtySpawn {
  return { file: "/bin/sh", args: ["-c", command], cwd: "/tmp", env: testEnv(), cols, rows };
}

/** Collects a PTY's output and exit; `until` waits for text without sleeping blindly. */
function watch(pty: Pty) {
  let out = "";
  const waiters = new Set<() => void>();
  pty.onData((d) => {
    out += d;
    for (const w of waiters) w();
  });
  const exit = new Promise<PtyExit & { out: string }>((resolve) =>
    pty.onExit((e) => resolve({ ...e, out }))
  );
  return {
    get out() {
      return out;
    },
    exit,
    until(text: string, ms = 15_000): Promise<void> {
      return new Promise((resolve, reject) => {
        const check = () => {
          if (!out.includes(text)) return;
          waiters.delete(check);
          clearTimeout(timer);
          resolve();
        };
        const timer = setTimeout(() => {
          waiters.delete(check);
          reject(
            new Error(`Timed out waiting for ${JSON.stringify(text)}; got ${JSON.stringify(out)}`),
          );
        }, ms);
        waiters.add(check);
        check();
      });
    },
  };
}

Deno.test("the reactor reads PTYs on Linux (node-pty's streams elsewhere)", () => {
  assert.equal(ptyReactor() !== null, Deno.build.os === "linux");
});

Deno.test("all output arrives before the exit, with code and signal", async () => {
  const ok = watch(
    spawnPty(spec("i=0; while [ $i -lt 2000 ]; do echo line-$i; i=$((i+1)); done; exit 7")),
  );
  const got = await ok.exit;
  assert.equal(got.exitCode, 7);
  assert.equal(got.signal, 0);
  assert.match(got.out, /line-0\r\n/);
  assert.match(got.out, /line-1999\r\n$/);
  assert.equal(got.out.match(/line-\d+/g)?.length, 2000);
  const killed = spawnPty(spec("echo up; sleep 30"));
  const k = watch(killed);
  await k.until("up");
  killed.kill("SIGKILL");
  assert.equal((await k.exit).signal, 9);
});

Deno.test("eight busy sessions each get their own bytes, in order", async () => {
  const sessions = Array.from(
    { length: 8 },
    (_, n) =>
      watch(spawnPty(spec(`i=0; while [ $i -lt 300 ]; do echo s${n}-$i; i=$((i+1)); done`))),
  );
  for (const [n, s] of sessions.entries()) {
    const { out } = await s.exit;
    const lines = out.trim().split("\r\n");
    assert.deepEqual(lines, Array.from({ length: 300 }, (_, i) => `s${n}-${i}`));
  }
});

Deno.test("a paused PTY delivers nothing until resumed, then everything", async () => {
  const dir = Deno.makeTempDirSync();
  const answered = `${dir}/answered`;
  const pty = spawnPty(spec(`stty -echo; read x; echo got-$x; : > ${answered}; read y; exit 0`));
  const w = watch(pty);
  // The marker: another PTY of the same reactor, which answers when told to.
  const other = spawnPty(spec("stty -echo; read z; echo mark-$z; read z"));
  const m = watch(other);
  pty.pause();
  pty.write("one\r");
  // The child has answered (it made the file after its echo): its bytes wait in the kernel.
  for (let i = 0; i < 1500 && !exists(answered); i++) await delay(10);
  assert.ok(exists(answered), "the child answered");
  // An answer that comes later, on another PTY, is delivered; the paused one's is not.
  other.write("1\r");
  await m.until("mark-1");
  assert.doesNotMatch(w.out, /got-one/);
  pty.resume();
  await w.until("got-one");
  pty.write("two\r");
  await w.exit;
  other.write("end\r");
  await m.exit;
  Deno.removeSync(dir, { recursive: true });
});

function exists(path: string): boolean {
  try {
    Deno.statSync(path);
    return true;
  } catch {
    return false;
  }
}

Deno.test("a grandchild holding the terminal does not hold back the exit", async () => {
  const pty = spawnPty(spec("sleep 60 & echo bg=$!; exit 3"));
  const w = watch(pty);
  await w.until("bg=");
  const got = await w.exit;
  assert.equal(got.exitCode, 3);
  const pid = Number(/bg=(\d+)/.exec(got.out)![1]);
  // Closing the master hangs the grandchild up, as a closed terminal window would.
  for (let i = 0; i < 1200 && isAlive(pid); i++) await delay(25);
  assert.equal(isAlive(pid), false);
});

Deno.test("resize reaches the child; typed input is echoed", async () => {
  const pty = spawnPty(spec("read x; stty size; read y", 80, 24));
  const w = watch(pty);
  pty.resize(100, 30);
  pty.write("hello\r");
  await w.until("30 100");
  assert.match(w.out, /hello/);
  pty.write("\r");
  await w.exit;
});

Deno.test("node-pty's own streams still work (the fallback off Linux)", async () => {
  const pty = spawnNodePty(spec("read x; echo got-$x; exit 5"));
  const w = watch(pty);
  pty.write("it\r");
  const got = await w.exit;
  assert.match(got.out, /got-it/);
  assert.equal(got.exitCode, 5);
});

/** This process's descriptors that are PTY masters. */
function masters(): Set<number> {
  const out = new Set<number>();
  for (const e of Deno.readDirSync("/proc/self/fd")) {
    try {
      if (Deno.readLinkSync(`/proc/self/fd/${e.name}`) === "/dev/ptmx") out.add(Number(e.name));
    } catch { /* closed meanwhile */ }
  }
  return out;
}

/** The master descriptors a child's `ls -l /proc/self/fd` lists. */
function listedMasters(listing: string): number[] {
  return [...listing.matchAll(/ (\d+) -> \/dev\/ptmx/g)].map((m) => Number(m[1]));
}

Deno.test("a later child does not inherit an earlier session's PTY master", async () => {
  // Under `deno test --parallel` other test modules share this process, and some open PTYs
  // lazyshell does not own (a bare node-pty reader keeps its master without close-on-exec):
  // only the masters this test's first session added are its to check.
  const before = masters();
  const first = spawnPty(spec("echo up; sleep 30"));
  const f = watch(first);
  await f.until("up");
  const own = [...masters()].filter((fd) => !before.has(fd));
  assert.ok(own.length > 0, "the first session's master is open here");
  const { out } = await watch(spawnPty(spec("ls -l /proc/self/fd"))).exit;
  assert.match(out, /\/dev\/pts\//, "the listing ran");
  const inherited = listedMasters(out).filter((fd) => own.includes(fd));
  assert.deepEqual(inherited, [], `the first session's master is open in the child:\n${out}`);
  first.kill("SIGKILL");
  await f.exit;
});

Deno.test("a grandchild still flooding the terminal does not hold back the exit", async () => {
  // It ignores SIGHUP, so only a closed master (EIO on write) stops it.
  const pty = spawnPty(spec("(trap '' HUP; exec yes flood) & echo bg=$!; sleep 0.5; exit 4"));
  const w = watch(pty);
  const got = await w.exit;
  assert.equal(got.exitCode, 4);
  const pid = Number(/bg=(\d+)/.exec(got.out)![1]);
  for (let i = 0; i < 1200 && isAlive(pid); i++) await delay(25);
  assert.equal(isAlive(pid), false, "closing the master hung the flooder up");
});

Deno.test({
  name: "a listener of one PTY awaits another's echo and has it within the call",
  ignore: Deno.build.os !== "linux",
  fn: async () => {
    // The server reads a person's terminal like a PTY (src/server/client_tty.ts): a key read
    // there is written to a session, whose echo is drawn in the same turn.
    const cat = spawnPty(spec("exec cat"));
    const catOut = watch(cat);
    const terminal = spawnPty(spec("printf go; exec sleep 30"));
    let echoed: boolean | null = null;
    terminal.onData((d) => {
      if (echoed !== null || !d.includes("go")) return;
      cat.write("k");
      cat.awaitEcho?.(2000);
      echoed = catOut.out.includes("k");
    });
    for (let i = 0; i < 1500 && echoed === null; i++) await delay(10);
    assert.equal(echoed, true, "the echo arrived within the listener");
    // A listener awaiting its own PTY's answer gets no nested delivery (bytes stay in order).
    let nested = false;
    let inside = false;
    cat.onData(() => {
      if (inside) nested = true;
    });
    const once = { done: false };
    cat.onData((d) => {
      if (once.done || !d.includes("m")) return;
      once.done = true;
      inside = true;
      cat.write("n");
      cat.awaitEcho?.(200);
      inside = false;
    });
    cat.write("m");
    await catOut.until("n");
    assert.equal(nested, false);
    const terminalExit = new Promise<void>((resolve) => terminal.onExit(() => resolve()));
    for (const p of [cat, terminal]) p.kill("SIGKILL");
    await Promise.all([catOut.exit, terminalExit]);
  },
});
