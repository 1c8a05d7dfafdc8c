/**
 * The largest terminal size (src/session/size_limit.ts; docs/architecture.md,
 * "Server and clients", Bounds), on a real server process and real sockets:
 * one resize to 10000×10000 took a probe's server from 113 MB to 4.14 GB in
 * 60 s and `ctl list` stopped answering. Sizes past MAX_COLS×MAX_ROWS, in a
 * hello or a resize, are drawn at that size and the person told so; the
 * sessions' PTYs get that size. Prints the bound that held, and what the
 * largest size costs with 16 sessions of full scrollback.
 */

import assert from "node:assert/strict";
import { frame, FrameType } from "../src/wire/protocol.ts";
import { MAX_COLS, MAX_ROWS } from "../src/session/size_limit.ts";
import { type AttachLab, attachLab, hello, listMs, RawClient, sleep, until } from "./attach_lab.ts";

/** RSS peak and `ctl list` over `ms`; the server is killed past `killMb` (it would take the machine). */
async function watch(lab: AttachLab, ms: number, killMb = 2500) {
  let peak = lab.rssMb();
  const sampler = setInterval(() => {
    peak = Math.max(peak, lab.rssMb());
    if (peak > killMb && lab.alive()) Deno.kill(lab.server.pid, "SIGKILL");
  }, 100);
  const lists: number[] = [];
  let failed = 0;
  const t0 = performance.now();
  try {
    while (performance.now() - t0 < ms) {
      const list = await listMs(lab, 10_000);
      if (list === null) failed++;
      else lists.push(list);
      await sleep(200);
    }
  } finally {
    clearInterval(sampler);
  }
  return { peak, listMax: Math.max(0, ...lists), answered: lists.length, failed };
}

/** The size `stty size` printed last in session `name` ("rows cols"), after a resize. */
async function ptySize(lab: AttachLab, name: string): Promise<string | undefined> {
  const r = await lab.server.call("read", { target: name }, 10_000).catch(() => null);
  if (!r) return undefined;
  const lines = (r.ok ? (r.result as { lines: string[] }).lines : []).filter((l) =>
    /^\d+ \d+$/.test(l)
  );
  return lines.at(-1);
}

/** Waits until sessions s0…s{n-1} printed their 20000 lines: the memory measured from then on. */
async function printed(lab: AttachLab, n: number): Promise<void> {
  for (let i = 0; i < n; i++) {
    await until(async () => {
      const r = await lab.server.call("read", { target: `s${i}` }, 10_000).catch(() => null);
      return r?.ok === true && (r.result as { lines: string[] }).lines.includes("20000");
    }, 60_000);
  }
}

Deno.test("largest size: a 10000×10000 resize and hello are drawn at 1000×500, told so; memory and ctl hold", async () => {
  await using lab = await attachLab();
  for (let i = 0; i < 4; i++) {
    await lab.server.call("new", { name: `s${i}`, command: "seq 1 20000; exec sleep 600" });
  }
  await lab.server.call("new", {
    name: "tty",
    command: `trap 'stty size' WINCH; while :; do sleep 0.1; done`,
  });
  using c = await RawClient.open(lab.socket);
  c.keepText = true;
  await c.write(hello({ cols: 100, rows: 30 }));
  const reading = c.read();
  await printed(lab, 4);
  await sleep(3000);
  const rss0 = lab.rssMb();
  await c.write(frame(FrameType.Resize, { cols: 10_000, rows: 10_000 }));
  const resized = await watch(lab, 10_000);
  const alive = lab.alive();
  // The trap prints the size once the reflow of the sessions reached it: slow on a loaded machine.
  const resizedBig = (s: string | undefined) => Number(s?.split(" ")[0] ?? 0) > MAX_ROWS - 10;
  let size: string | undefined;
  if (alive) await until(async () => resizedBig(size = await ptySize(lab, "tty")));
  const told = c.text.includes(`lazyshell draws at most ${MAX_COLS}×${MAX_ROWS}`);
  // A newcomer whose hello names the largest terminal the wire allows.
  using big = await RawClient.open(lab.socket);
  await big.write(hello({ cols: 65_535, rows: 65_535 }));
  const bigEnd = alive ? await big.endWithin(3000) : null;
  const second = alive ? await watch(lab, 3000) : resized;
  await until(() => big.welcomed);
  const after = alive ? await listMs(lab, 30_000) : null;
  const attached = await Promise.race([reading.then(() => false), sleep(0).then(() => true)]);
  console.log(
    `largest size: a resize to 10000×10000 drawn at ${MAX_COLS}×${MAX_ROWS} ` +
      `(${told ? "told" : "NOT TOLD"}), the sessions' PTYs "${size}" (rows cols); RSS ` +
      `${rss0.toFixed(0)} → peak ${resized.peak.toFixed(0)} MB in 10 s, ctl list max ` +
      `${resized.listMax.toFixed(0)} ms, ${resized.failed} of 10 s timed out, then ` +
      `${after?.toFixed(0) ?? "NO ANSWER"} ms; a 65535×65535 hello ` +
      `${big.welcomed && bigEnd === null ? "attached" : "NOT ATTACHED"}, RSS peak ` +
      `${second.peak.toFixed(0)} MB`,
  );
  assert.ok(alive, "the server died");
  assert.ok(told, "the client was not told");
  // The pane's size, within the client's (the list and borders take the rest).
  const [rows, cols] = (size ?? "0 0").split(" ").map(Number);
  assert.ok(rows! <= MAX_ROWS && rows! > MAX_ROWS - 10, `PTY rows ${rows}`);
  assert.ok(cols! <= MAX_COLS && cols! > MAX_COLS - 100, `PTY cols ${cols}`);
  // `ctl list` keeps answering: the reflow of the sessions' scrollback may delay it, under load.
  assert.ok(resized.answered + second.answered > 0 && after !== null, "ctl list stopped answering");
  assert.ok(attached && big.welcomed && bigEnd === null);
  assert.ok(second.peak - rss0 < 300, `RSS ${rss0.toFixed(0)} → ${second.peak.toFixed(0)} MB`);
});

Deno.test("largest size: what 16 sessions of full scrollback cost at 1000×500", async () => {
  await using lab = await attachLab();
  for (let i = 0; i < 16; i++) {
    await lab.server.call("new", { name: `s${i}`, command: "seq 1 20000; exec sleep 600" });
  }
  using c = await RawClient.open(lab.socket);
  await c.write(hello({ cols: 120, rows: 32 }));
  void c.read();
  await printed(lab, 16);
  await sleep(4000);
  const rss0 = lab.rssMb();
  await c.write(frame(FrameType.Resize, { cols: MAX_COLS, rows: MAX_ROWS }));
  const resized = await watch(lab, 8000);
  const rss1 = lab.rssMb();
  const after = await listMs(lab, 30_000);
  console.log(
    `largest size: 16 sessions × 20000 lines (5000 kept) and one client, 120×32 → ` +
      `${MAX_COLS}×${MAX_ROWS}: RSS ${rss0.toFixed(0)} → ${rss1.toFixed(0)} MB (peak ` +
      `${resized.peak.toFixed(0)}, +${((resized.peak - rss0) / 16).toFixed(1)} MB a session); ` +
      `ctl list max ${resized.listMax.toFixed(0)} ms, ${resized.failed} of 10 s timed out, ` +
      `then ${after?.toFixed(0) ?? "NO ANSWER"} ms`,
  );
  assert.ok(after !== null, "ctl list stopped answering");
  assert.ok(resized.peak - rss0 < 16 * 25, `RSS ${rss0.toFixed(0)} → ${resized.peak} MB`);
});
