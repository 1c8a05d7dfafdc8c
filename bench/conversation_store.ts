/**
 * What one look into an agent's store costs (src/restore/conversation_store.ts,
 * docs/restore.md "Where the conversation id comes from"): a Claude Code project
 * folder of N transcripts (BENCH_FILES, default 1000) and a process file, as
 * 2.1.332 writes them, in a temp HOME. Per round: the finder's two reads for one
 * session — the process file and its transcript, then the folder's conversations
 * written since the agent started (none but one: a stat each) — against a bare
 * readdir + stat of the same folder in the same run. Median and worst of
 * BENCH_ROUNDS (default 20), in µs, and their ratio; and the longest the event
 * loop waited meanwhile (a 0 ms timer re-armed all along): the reads are
 * asynchronous, so the server's other work goes on during a scan.
 *
 * deno run -A bench/conversation_store.ts
 */

import { parseManifest } from "../src/detect/manifest.ts";
import { conversationOfProcess, conversationsSince } from "../src/restore/conversation_store.ts";
import { median } from "./stats.ts";

const FILES = Number(Deno.env.get("BENCH_FILES") ?? "1000");
const ROUNDS = Number(Deno.env.get("BENCH_ROUNDS") ?? "20");

const home = Deno.makeTempDirSync({ prefix: "lzs-bench-store-" });
try {
  const cwd = "/work/app";
  const dir = `${home}/.claude/projects/-work-app`;
  Deno.mkdirSync(dir, { recursive: true });
  const old = Date.now() / 1000 - 86_400;
  const line = (id: string, t: number) =>
    JSON.stringify({ type: "mode", sessionId: id }) + "\n" +
    JSON.stringify({ type: "user", cwd, sessionId: id, timestamp: new Date(t).toISOString() }) +
    "\n";
  for (let i = 0; i < FILES; i++) {
    const id = crypto.randomUUID();
    Deno.writeTextFileSync(`${dir}/${id}.jsonl`, line(id, old * 1000));
    Deno.utimeSync(`${dir}/${id}.jsonl`, old, old);
  }
  const started = Date.now() - 10_000;
  const live = crypto.randomUUID();
  Deno.writeTextFileSync(`${dir}/${live}.jsonl`, line(live, started + 3000));
  Deno.mkdirSync(`${home}/.claude/sessions`);
  Deno.writeTextFileSync(
    `${home}/.claude/sessions/4242.json`,
    JSON.stringify({ pid: 4242, sessionId: live, cwd, procStart: "33500" }),
  );
  const manifest = new URL("../manifests/claude.yml", import.meta.url);
  const spec = parseManifest(Deno.readTextFileSync(manifest), "claude.yml", "claude").resume!
    .store!;
  const facts = { agent: "claude", env: { HOME: home }, pid: 4242, cwd, now: Date.now() };

  /** Runs `f` while a 0 ms timer re-arms itself; returns the longest gap between its runs. */
  const stall = async (f: () => unknown): Promise<number> => {
    let last = performance.now();
    let worst = 0;
    let on = true;
    const tick = () => {
      const now = performance.now();
      worst = Math.max(worst, now - last);
      last = now;
      if (on) setTimeout(tick, 0);
    };
    setTimeout(tick, 0);
    await f();
    await new Promise((r) => setTimeout(r, 5));
    on = false;
    tick();
    return worst * 1000;
  };
  const bare: number[] = [];
  const byProcess: number[] = [];
  const since: number[] = [];
  for (let r = 0; r < ROUNDS; r++) {
    let t = performance.now();
    let n = 0;
    for (const e of Deno.readDirSync(dir)) if (Deno.statSync(`${dir}/${e.name}`).isFile) n++;
    bare.push((performance.now() - t) * 1000);
    t = performance.now();
    const p = await conversationOfProcess(spec, facts, 33500);
    byProcess.push((performance.now() - t) * 1000);
    t = performance.now();
    const found = await conversationsSince(spec, facts, started - 2000);
    since.push((performance.now() - t) * 1000);
    if (p?.id !== live || found.length !== 1 || n !== FILES + 1) throw new Error("wrong answer");
  }
  const bareStall = await stall(() => {
    for (const e of Deno.readDirSync(dir)) Deno.statSync(`${dir}/${e.name}`);
  });
  const scanStall = await stall(() => conversationsSince(spec, facts, started - 2000));
  const show = (what: string, xs: number[]) =>
    console.log(
      `${what.padEnd(44)} median ${median(xs).toFixed(0).padStart(7)} µs  worst ${
        Math.max(...xs).toFixed(0).padStart(7)
      } µs  ×${(median(xs) / median(bare)).toFixed(2)} of bare`,
    );
  console.log(`${FILES + 1} transcripts, ${ROUNDS} rounds; load ${Deno.loadavg().join(" ")}`);
  show("bare readdir + stat of the folder", bare);
  show("process file + its transcript", byProcess);
  show("conversations written since the start", since);
  console.log(
    `longest event-loop wait: bare (synchronous) ${bareStall.toFixed(0)} µs, ` +
      `conversations since ${scanStall.toFixed(0)} µs`,
  );
} finally {
  Deno.removeSync(home, { recursive: true });
}
