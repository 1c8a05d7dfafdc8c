/**
 * In-process memory figures for bench/memory.ts, run with
 * `--v8-flags=--expose-gc` (a clean heap before each measure): what one
 * line of scrollback costs in the emulator as lazyshell runs it, and what
 * `tail(100)` costs (time and bytes allocated) on 5000 lines against the
 * same read on 100 lines. Prints one JSON object.
 *
 * `deno run -A --v8-flags=--expose-gc bench/memory_probe.ts [ROOT]`: ROOT is
 * the checkout whose src/session/terminal.ts is measured (before/after).
 */

import { wideLogLine } from "./corpus.ts";

const root = Deno.args[0] ?? new URL("..", import.meta.url).pathname;
const { HeadlessTerminal } = await import(`${root.replace(/\/$/, "")}/src/session/terminal.ts`);

type Terminal = {
  write(data: string): void;
  flush(): Promise<void>;
  tail(count: number): { lines: string[] };
  [Symbol.dispose](): void;
};

const gc = (globalThis as { gc?: () => void }).gc;
if (!gc) throw new Error("Run with --v8-flags=--expose-gc");

function used(): number {
  gc!();
  gc!();
  const m = Deno.memoryUsage();
  return m.heapUsed + m.external;
}

async function filled(lines: number, cols: number, rows: number): Promise<Terminal> {
  const term: Terminal = new HeadlessTerminal({ cols, rows, scrollback: 5000 });
  let block = "";
  for (let i = 0; i < lines; i++) {
    block += wideLogLine(i, Math.floor(cols / 25)) + "\r\n";
    if (block.length > 64 * 1024) {
      term.write(block);
      block = "";
    }
  }
  term.write(block);
  await term.flush();
  return term;
}

/** Bytes one line of scrollback costs (heap and ArrayBuffers), at rest. */
async function perLine(cols: number): Promise<number> {
  const empty = await filled(0, cols, 60);
  const before = used();
  const full = await filled(5000 + 60, cols, 60);
  const after = used();
  const perLine = (after - before) / 5000;
  empty[Symbol.dispose]();
  full[Symbol.dispose]();
  return perLine;
}

/** Microseconds and bytes allocated per tail(100) (no GC in between: new-space growth). */
async function tailCost(lines: number): Promise<{ us: number; bytes: number }> {
  const term = await filled(lines, 200, 60);
  for (let i = 0; i < 50; i++) term.tail(100); // warm up
  let bytes = Infinity;
  for (let i = 0; i < 20; i++) {
    gc!();
    const before = Deno.memoryUsage().heapUsed;
    term.tail(100);
    bytes = Math.min(bytes, Deno.memoryUsage().heapUsed - before);
  }
  const runs = 500;
  const start = performance.now();
  for (let i = 0; i < runs; i++) term.tail(100);
  const us = ((performance.now() - start) / runs) * 1000;
  term[Symbol.dispose]();
  return { us, bytes };
}

const result = {
  perLine200: await perLine(200),
  perLine80: await perLine(80),
  tail5000: await tailCost(5000),
  tail100: await tailCost(100),
};
console.log(JSON.stringify(result));
