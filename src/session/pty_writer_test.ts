import assert from "node:assert/strict";
import { delay } from "../util/async.ts";
import { spawnPty } from "./pty.ts";
import { PtyWriter } from "./pty_writer.ts";

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
  for (let i = 0; i < 3000 && got.length < data.length; i++) {
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
