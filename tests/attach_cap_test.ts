/**
 * The attach socket's caps (docs/architecture.md, "Server and clients",
 * Bounds), on a real server process and real sockets: connections that
 * never say hello (a probe held 19,950, one fd each) are capped and timed
 * out; attached clients are capped. Each newcomer past a cap hears why in
 * an Exit; the others and `ctl list` go on. Prints the bound that held.
 */

import assert from "node:assert/strict";
import { ATTACH_LIMITS } from "../src/server/attach_limits.ts";
import { attachLab, hello, listMs, RawClient, sleep, until } from "./attach_lab.ts";

const IDLE = 2000;

function fds(pid: number): number {
  return [...Deno.readDirSync(`/proc/${pid}/fd`)].length;
}

Deno.test("attach cap: idle connections without a hello are capped, told why and timed out", async () => {
  await using lab = await attachLab();
  const { maxPending, helloMs } = ATTACH_LIMITS;
  const rss0 = lab.rssMb();
  const fds0 = fds(lab.server.pid);
  const idle: RawClient[] = [];
  try {
    for (let i = 0; i < maxPending; i++) idle.push(await RawClient.open(lab.socket));
    const t0 = performance.now();
    const next = await RawClient.open(lab.socket);
    idle.push(next);
    // Generous bounds here and below: each ends as soon as the server acts; a loaded machine is slow.
    const first = await next.endWithin(30_000);
    const refusedMs = performance.now() - t0;
    // A server that stops accepting fills the socket's backlog: connect fails (EAGAIN).
    let unconnected = 0;
    for (let i = idle.length; i < IDLE; i++) {
      try {
        idle.push(await RawClient.open(lab.socket));
      } catch {
        unconnected++;
      }
    }
    const t1 = performance.now();
    // The server refuses the rest as it accepts them: its fds settle at the cap.
    let fdsHeld = Infinity;
    while (performance.now() - t1 < 30_000 && fdsHeld > maxPending + 8) {
      await sleep(100);
      fdsHeld = fds(lab.server.pid) - fds0;
    }
    const rssHeld = lab.rssMb();
    const list = await listMs(lab);
    // Every one ends, told why: refused at once, or closed by the hello timeout.
    const ends = await Promise.all(idle.map((c) => c.endWithin(helloMs + 10_000)));
    const closedAfter = (performance.now() - t1) / 1000;
    const why = (e: (typeof ends)[number]) => e?.exit?.message ?? "";
    // Past the pending cap, or the cap on all connections (the refused count until closed).
    const refused = ends.filter((e) => why(e).startsWith("The lazyshell server has")).length;
    const timedOut = ends.filter((e) => why(e).startsWith("No hello within"));
    const open = ends.filter((e) => e === null).length;
    const lateWhy = why(timedOut[0] ?? null);
    console.log(
      `attach cap: ${IDLE} connections with no hello: ${timedOut.length} held (cap ` +
        `${maxPending}), ${refused} refused at once, the ${maxPending + 1}th in ` +
        `${refusedMs.toFixed(0)} ms ("${why(first)}"); the held ones closed within ` +
        `${closedAfter.toFixed(1)} s ("${lateWhy}"); ${open} still open, ${unconnected} could ` +
        `not connect; server fds ` +
        `+${fdsHeld}, RSS ${rss0.toFixed(0)} → ` +
        `${rssHeld.toFixed(0)} MB; ctl list ${list?.toFixed(0) ?? "FAILED"} ms meanwhile`,
    );
    assert.equal(open, 0);
    assert.equal(timedOut.length, maxPending);
    // Under load the server may accept slower than 2000 connects come: the kernel's backlog
    // then refuses a few (EAGAIN) before the server can tell them why. Either way none is held.
    assert.equal(refused + unconnected, IDLE - maxPending);
    assert.ok(fdsHeld <= maxPending + 8, `${fdsHeld} fds held`);
    assert.match(why(first), /waiting to say hello/);
    assert.notEqual(list, null);
    assert.ok(lab.alive());
  } finally {
    for (const c of idle) c.close();
  }
});

Deno.test("attach cap: past the most clients attached, a newcomer is told why; the others keep drawing", async () => {
  await using lab = await attachLab();
  const rss0 = lab.rssMb();
  const clients: RawClient[] = [];
  try {
    for (let i = 0; i < ATTACH_LIMITS.maxClients; i++) {
      const c = await RawClient.open(lab.socket);
      clients.push(c);
      await c.write(hello());
      void c.read();
    }
    await sleep(2000);
    const rssHeld = lab.rssMb();
    const t0 = performance.now();
    using extra = await RawClient.open(lab.socket);
    await extra.write(hello());
    const end = await extra.endWithin(30_000);
    const refusedMs = performance.now() - t0;
    const exit = end?.exit;
    // A one-shot (`ls`) is not an attach: it is answered.
    using ls = await RawClient.open(lab.socket);
    await ls.write(hello({ mode: "ls" }));
    const lsExit = await ls.read();
    const before = clients.map((c) => c.output);
    await lab.server.call("new", { name: "s", command: "seq 1 50; exec sleep 600" });
    const drew = () => clients.filter((c, i) => c.output > before[i]!).length;
    await until(() => drew() === clients.length);
    const drawing = drew();
    const list = await listMs(lab);
    console.log(
      `attach cap: ${clients.length} clients attached held, the ${clients.length + 1}th ` +
        `refused in ${refusedMs.toFixed(0)} ms ("${exit?.message}"); \`ls\` answered (code ` +
        `${lsExit?.code}); ${drawing}/${clients.length} kept drawing; RSS ${rss0.toFixed(0)} → ` +
        `${rssHeld.toFixed(0)} MB; ctl list ${list?.toFixed(0) ?? "FAILED"} ms`,
    );
    assert.ok(end, "the newcomer was not refused");
    assert.match(exit?.message ?? "", /clients attached, the most it takes/);
    assert.equal(lsExit?.code, 0);
    assert.equal(drawing, clients.length);
    assert.notEqual(list, null);
  } finally {
    for (const c of clients) c.close();
  }
});
