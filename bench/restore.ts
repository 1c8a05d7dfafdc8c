/**
 * Restore and the state file (docs/restore.md), in one process
 * with a real runtime and real PTYs:
 *
 * 1. Restore of 16 saved sessions, 8 of them agents that ran in a shell
 *    resuming a conversation (a fake agent: a script that prints its
 *    arguments and waits, named in a user manifest with `resume`): time
 *    from the restore call until every session has printed (its shell
 *    prompt, the agent's banner), and until the 8 agents are identified in
 *    the process table (the resume command is typed at each shell's prompt
 *    once it is up). Reference: 16 sessions created directly in the same
 *    run, the 8 agents started as the session's command.
 * 2. The state file's write cost: one write of 16 sessions with their
 *    screens (render, write, fsync, rename), in µs, against a bare
 *    `Deno.writeTextFile` of the same bytes; and a burst of 200 changes (renames)
 *    to see what coalescing makes of them: writes, and µs per change.
 * 3. Writes per second under 8 sessions spinning at 10 frames/s for
 *    BENCH_SECONDS (default 20): the spinners must not wake the disk.
 */

import { parseConfig } from "../src/config/config.ts";
import { Runtime } from "../src/runtime/runtime.ts";
import { SessionRestore } from "../src/restore/restore.ts";
import { formatState, type SavedSession } from "../src/restore/state_file.ts";
import { median } from "./stats.ts";

const ROUNDS = Number(Deno.env.get("BENCH_ROUNDS") ?? "5");
const SECONDS = Number(Deno.env.get("BENCH_SECONDS") ?? "20");
const SPINNER = "i=0; while :; do i=$((i+1)); printf '\\r%s working… %s' \"$(printf '|/-\\\\' | " +
  'cut -c$((i % 4 + 1)))" "$i"; sleep 0.1; done';

const dir = Deno.makeTempDirSync({ prefix: "lzs-bench-restore-" });
Deno.mkdirSync(`${dir}/config/lazyshell/agents`, { recursive: true });
Deno.mkdirSync(`${dir}/bin`);
// The fake agent: prints what it was started with, then waits as `fakeagent-idle` (its identity).
Deno.symlinkSync("/bin/cat", `${dir}/bin/fakeagent-idle`);
Deno.writeTextFileSync(
  `${dir}/bin/fakeagent`,
  `#!/bin/sh\necho "fakeagent $*"\nexec ${dir}/bin/fakeagent-idle\n`,
);
Deno.chmodSync(`${dir}/bin/fakeagent`, 0o755);
Deno.writeTextFileSync(
  `${dir}/config/lazyshell/agents/fakeagent.yml`,
  `id: fakeagent\nidentity:\n  processes: [fakeagent, fakeagent-idle]\nresume:\n  command: "${dir}/bin/fakeagent --resume {id}"\n`,
);

function runtime(): Runtime {
  return new Runtime({
    env: { ...Deno.env.toObject(), XDG_CONFIG_HOME: `${dir}/config`, XDG_DATA_HOME: dir },
    config: parseConfig("shell: /bin/bash\n", "config.yml"),
    cwd: dir,
  });
}

const screen = Array.from({ length: 30 }, (_, i) => `$ make step-${i}   `.padEnd(100, "."));

function saved(i: number): SavedSession {
  const agent = i % 2 === 1;
  return {
    name: `s${i}`,
    group: i < 8 ? "front" : "back",
    cwd: dir,
    command: null,
    origin: null,
    env: [{ name: "PORT", value: String(3000 + i) }],
    watch: [],
    watcher: null,
    agent: agent ? "fakeagent" : null,
    conversation: agent
      ? {
        agent: "fakeagent",
        id: `conv-${i}`,
        source: "hook Stop: session_id",
        cwd: null,
        transcript: null,
      }
      : null,
    screen,
    pending: false,
    limitResume: null,
    resumePolicy: null,
    groupResumePolicy: null,
  };
}

async function until(test: () => boolean, ms = 180_000): Promise<void> {
  const deadline = performance.now() + ms;
  while (!test()) {
    if (performance.now() > deadline) throw new Error("timed out");
    await new Promise((r) => setTimeout(r, 5));
  }
}

/** Restore of 16 (8 agents) vs creating the same 16 directly: ms to all printed, to agents known. */
async function restoreRound(): Promise<{ restored: number[]; direct: number[] }> {
  const out = { restored: [] as number[], direct: [] as number[] };
  for (const how of ["restored", "direct"] as const) {
    const file = `${dir}/state-${how}.jsonl`;
    Deno.writeTextFileSync(file, formatState(Array.from({ length: 16 }, (_, i) => saved(i)), 1));
    await using rt = runtime();
    const restore = SessionRestore.start(rt, { file });
    rt.own(() => restore[Symbol.asyncDispose]());
    const printed = new Set<string>();
    using _sub = rt.onOutput((id) => printed.add(id));
    const t0 = performance.now();
    if (how === "restored") {
      restore.restore("all");
    } else {
      restore.forget("all");
      for (let i = 0; i < 16; i++) {
        const s = saved(i);
        rt.createSession({
          name: s.name,
          group: s.group,
          cwd: dir,
          env: { PORT: "3000" },
          ...(s.agent ? { command: `${dir}/bin/fakeagent --resume conv-${i}` } : {}),
        });
      }
    }
    await until(() => printed.size === 16);
    const allPrinted = performance.now() - t0;
    await until(() => rt.state.sessions.filter((v) => v.agent === "fakeagent").length === 8);
    out[how].push(allPrinted, performance.now() - t0);
  }
  return out;
}

async function writeCost(): Promise<void> {
  await using rt = runtime();
  const file = `${dir}/state-write.jsonl`;
  Deno.writeTextFileSync(file, formatState(Array.from({ length: 16 }, (_, i) => saved(i)), 1));
  const restore = SessionRestore.start(rt, { file, screenQuietMs: 60_000 });
  rt.own(() => restore[Symbol.asyncDispose]());
  const printed = new Set<string>();
  using _sub = rt.onOutput((id) => printed.add(id));
  restore.restore("all");
  // Every session up (its old screen below, its prompt or the agent's banner): then a write holds
  // 16 real screens.
  await until(() => printed.size === 16);
  await new Promise((r) => setTimeout(r, 1000));
  const writer = restore.recorder.writer;
  await writer.flush(true);
  const bytes = Deno.readTextFileSync(file);
  const ours: number[] = [];
  const bare: number[] = [];
  for (let i = 0; i < 40; i++) {
    const t0 = performance.now();
    await Deno.writeTextFile(`${dir}/bare.jsonl`, bytes);
    bare.push((performance.now() - t0) * 1000);
    const before = writer.costs.length;
    await writer.flush(true);
    ours.push(writer.costs[before] ?? NaN);
  }
  const us = (v: number) => `${Math.round(v)} µs`;
  console.log(
    `one write of 16 sessions (${(bytes.length / 1024).toFixed(0)} KiB, screens included): ` +
      `median ${us(median(ours))} (render, write, fsync, rename) vs ${us(median(bare))} ` +
      `for a bare Deno.writeTextFile of the same bytes (×${
        (median(ours) / median(bare)).toFixed(1)
      })`,
  );
  // A burst of changes: what coalescing makes of them.
  const writes0 = writer.writes;
  const costs0 = writer.costs.length;
  const t0 = performance.now();
  const ids = rt.store.list().map((session) => session.id);
  for (let i = 0; i < 200; i++) rt.store.rename(ids[i % 16]!, `s${i % 16}-${i}`);
  const renameMs = performance.now() - t0;
  await writer.flush();
  const n = writer.writes - writes0;
  const spent = writer.costs.slice(costs0).reduce((a, b) => a + b, 0);
  console.log(
    `a burst of 200 changes (renames, ${renameMs.toFixed(0)} ms): ${n} write${
      n === 1 ? "" : "s"
    }, ` +
      `${us(spent / 200)} of writing per change`,
  );
}

async function spinning(): Promise<void> {
  await using rt = runtime();
  const file = `${dir}/state-spin.jsonl`;
  const restore = SessionRestore.start(rt, { file });
  rt.own(() => restore[Symbol.asyncDispose]());
  let frames = 0;
  using _sub = rt.onOutput(() => frames++);
  for (let i = 0; i < 8; i++) rt.createSession({ name: `spin${i}`, command: SPINNER });
  const writer = restore.recorder.writer;
  // Settle: the sessions' creation is written once.
  await until(() => writer.writes >= 1 && frames > 80);
  await new Promise((r) => setTimeout(r, 2000));
  const [w0, f0] = [writer.writes, frames];
  await new Promise((r) => setTimeout(r, SECONDS * 1000));
  const [w, f] = [writer.writes - w0, frames - f0];
  console.log(
    `8 spinning sessions for ${SECONDS} s: ${f} screen updates (${(f / SECONDS).toFixed(0)}/s), ` +
      `${w} state-file writes (${(w / SECONDS).toFixed(2)}/s)`,
  );
}

try {
  const restored: number[][] = [[], []];
  const direct: number[][] = [[], []];
  for (let round = 0; round < ROUNDS; round++) {
    const r = await restoreRound();
    restored[0]!.push(r.restored[0]!);
    restored[1]!.push(r.restored[1]!);
    direct[0]!.push(r.direct[0]!);
    direct[1]!.push(r.direct[1]!);
  }
  const ms = (v: number) => `${v.toFixed(0)} ms`;
  const [rp, ra, dp, da] = [restored[0]!, restored[1]!, direct[0]!, direct[1]!].map(median);
  // BENCH_ROUNDS=0: the state file's figures alone.
  if (ROUNDS > 0) {
    console.log(
      `restore of 16 sessions (8 agents resuming), median of ${ROUNDS}: all printed ${ms(rp!)}, ` +
        `8 agents identified ${ms(ra!)}; the same 16 created directly: ${ms(dp!)} / ${ms(da!)} ` +
        `(restore ×${(rp! / dp!).toFixed(2)} / ×${(ra! / da!).toFixed(2)})`,
    );
  }
  await writeCost();
  await spinning();
} finally {
  Deno.removeSync(dir, { recursive: true });
}
