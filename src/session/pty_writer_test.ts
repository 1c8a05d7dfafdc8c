import assert from "node:assert/strict";
import { delay } from "../util/async.ts";
import { spawnPty } from "./pty.ts";
import { PtyWriter } from "./pty_writer.ts";
import type { Libc } from "./libc.ts";
import { type ErrnoCodes, errnoCodes } from "../platform/errno.ts";

Deno.test("a PTY write of 1 MiB reaches a child that reads slowly, complete and in order", async () => {
  const dir = Deno.makeTempDirSync();
  const file = `${dir}/got`;
  // The child reads in small gulps with pauses: the kernel buffer fills, writes must wait.
  const pty = spawnPty({
    file: "/bin/sh",
    args: [
      "-c",
      `stty raw -echo; printf READY; while dd bs=4096 count=1 status=none; do sleep 0.001; done > ${file}`,
    ],
    cwd: dir,
    env: { ...Deno.env.toObject() },
    cols: 80,
    rows: 24,
  });
  let out = "";
  const exited = new Promise<void>((resolve) => pty.onExit(() => resolve()));
  pty.onData((d) => (out += d));
  for (let i = 0; i < 1500 && !out.includes("READY"); i++) await delay(10);
  const data = Array.from({ length: 1 << 16 }, (_, i) => (i % 1000).toString(36).padStart(2, "0"))
    .join("").slice(0, 1 << 20).padEnd(1 << 20, "z");
  pty.write(data.slice(0, 700_000));
  pty.write(data.slice(700_000));
  let got = "";
  for (let i = 0; i < 6000 && got.length < data.length; i++) {
    await delay(10);
    try {
      got = Deno.readTextFileSync(file);
    } catch { /* not yet */ }
  }
  assert.equal(got.length, data.length);
  assert.ok(got === data, "bytes arrived in order");
  pty.kill("SIGKILL");
  await exited;
  Deno.removeSync(dir, { recursive: true });
});

Deno.test("PtyWriter.open() refuses a missing fd (the caller keeps node-pty's write)", () => {
  assert.equal(PtyWriter.open(undefined), null);
  assert.equal(PtyWriter.open(-1), null);
});

/** A libc whose write(2) says "would block" (the platform's errno `busy`) once, then takes all. */
function blockingOnce(codes: ErrnoCodes, busy: number) {
  const written: number[] = [];
  let errno = 0;
  let calls = 0;
  const impl: Partial<Libc> = {
    codes,
    write: (_fd, buf, len) => {
      if (calls++ === 0) {
        errno = busy;
        return -1;
      }
      written.push(...buf.subarray(0, len));
      return len;
    },
    errno: () => errno,
  };
  const lib = new Proxy(impl as Libc, {
    get: (target, key) => {
      if (key in target) return target[key as keyof Libc];
      throw new Error(`unexpected libc.${String(key)}`);
    },
  });
  return { lib, written };
}

Deno.test("macOS's EAGAIN (35) makes the writer wait and retry, not drop the input", async () => {
  const darwin = errnoCodes("darwin");
  assert.equal(darwin.EAGAIN, 35);
  const { lib, written } = blockingOnce(darwin, darwin.EAGAIN);
  const writer = PtyWriter.open(7, 1024, lib)!;
  assert.equal(writer.write("hello"), true);
  assert.equal(writer.pending, 5, "the full buffer keeps the bytes queued");
  await writer.drained();
  assert.equal(new TextDecoder().decode(new Uint8Array(written)), "hello");
  assert.equal(writer.write("!"), true, "the writer is still open");
  assert.equal(writer.pending, 0);
});

Deno.test("an errno that is not the platform's EAGAIN closes the writer (the child is gone)", () => {
  // Linux's values with macOS's 35: what the writer did on macOS when EAGAIN was hard-coded 11.
  const { lib, written } = blockingOnce(errnoCodes("linux"), 35);
  const writer = PtyWriter.open(7, 1024, lib)!;
  writer.write("hello");
  assert.equal(writer.pending, 0, "the queue is dropped");
  assert.deepEqual(written, []);
  assert.equal(writer.write("!"), false, "closed: nothing more is accepted");
});
