/**
 * The floor under bench/tui_cpu.ts: the same 8 spinners read by node-pty's
 * streams and by lazyshell's own PTY reader, each alone and then with the
 * headless emulator, in this process — what any Deno program pays before
 * detection, notifications or a screen —
 * and an empty timer on lazyshell's grid (util/ticker.ts), which wakes
 * the event loop as often as a busy lazyshell does and does nothing else.
 * Run by tui_cpu.ts; prints `<mode> <cpu %>` lines.
 */

import * as nodePty from "@lydell/node-pty";
import { spawnPty } from "../src/session/pty.ts";
import { HeadlessTerminal } from "../src/session/terminal.ts";
import { GRID_MS } from "../src/util/ticker.ts";
import { SPINNER } from "./tui_harness.ts";

const SECONDS = Number(Deno.env.get("BENCH_SECONDS") ?? "30");

function cpu(): number {
  const s = Deno.readTextFileSync("/proc/self/stat");
  const r = s.slice(s.lastIndexOf(")") + 2).split(" ");
  return (Number(r[11]) + Number(r[12])) / 100;
}

async function measure(): Promise<string> {
  await new Promise((r) => setTimeout(r, 2000));
  const c0 = cpu();
  const t0 = performance.now();
  await new Promise((r) => setTimeout(r, SECONDS * 1000));
  return ((cpu() - c0) / ((performance.now() - t0) / 1000) * 100).toFixed(2);
}

{
  const grid = setInterval(() => {}, GRID_MS);
  console.log(`empty-${GRID_MS}ms-interval ${await measure()}`);
  clearInterval(grid);
}

// node-pty's own streams, then lazyshell's reader (spawnPty: one poll(2)
// reactor on the timer grid, src/session/pty_reactor.ts), each without and
// with the emulator.
const MODES = ["node-pty", "node-pty+xterm", "reactor", "reactor+xterm"] as const;
for (const mode of MODES) {
  const terminals: HeadlessTerminal[] = [];
  const ptys = Array.from({ length: 8 }, () => {
    const spec = { cols: 89, rows: 30, cwd: "/tmp", env: Deno.env.toObject() };
    const p = mode.startsWith("reactor")
      ? spawnPty({ file: "/bin/sh", args: ["-c", SPINNER], ...spec })
      : nodePty.spawn("/bin/sh", ["-c", SPINNER], spec);
    if (!mode.endsWith("+xterm")) p.onData(() => {});
    else {
      const t = new HeadlessTerminal({ cols: 89, rows: 30 });
      terminals.push(t);
      p.onData((d) => t.write(d));
    }
    return p;
  });
  console.log(`${mode} ${await measure()}`);
  for (const p of ptys) p.kill();
  for (const t of terminals) t[Symbol.dispose]();
}
Deno.exit(0);
