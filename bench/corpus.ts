/** Synthetic terminal workloads shared by benchmarks (the corpora of docs/architecture.md, The emulator). */

export type Workload = "plain" | "sgr" | "spinner" | "inkframe" | "fullframe";
export const WORKLOADS: readonly Workload[] = ["plain", "sgr", "spinner", "inkframe"];

/** Deterministic pseudo-random numbers (mulberry32). */
export function rng(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const B64 = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";

function plainBlock(r: () => number): string {
  let out = "";
  for (let l = 0; l < 200; l++) {
    let line = "";
    for (let i = 0; i < 100; i++) line += B64[Math.floor(r() * 64)];
    out += line + "\r\n";
  }
  return out;
}

function sgrBlock(r: () => number): string {
  let out = "";
  for (let l = 0; l < 100; l++) {
    const words: string[] = [];
    for (let w = 0; w < 16; w++) {
      const n = Math.floor(r() * 256);
      const style = [
        `\x1b[38;5;${n}m`,
        `\x1b[38;2;${n};${255 - n};${(n * 7) % 256}m\x1b[48;2;${(n * 3) % 256};${n};40m`,
        "\x1b[1m",
        "\x1b[4m",
      ][w % 4];
      words.push(`${style}word${n}\x1b[0m`);
    }
    out += words.join(" ") + "\r\n";
  }
  return out;
}

function spinnerBlock(r: () => number): string {
  const glyphs = ["·", "✢", "*", "✶", "✻", "✽"];
  let out = "";
  for (let i = 0; i < 200; i++) {
    const g = glyphs[i % glyphs.length];
    out += `\r\x1b[2K\x1b[38;5;174m${g}\x1b[0m Thinking… (${
      Math.floor(r() * 99)
    }s · esc to interrupt)`;
  }
  return out;
}

function inkBlock(r: () => number): string {
  let out = "";
  for (let i = 0; i < 40; i++) {
    out += "\x1b[?2026h";
    out += "\x1b[2K\x1b[1A".repeat(8) + "\x1b[2K\r";
    out += `\x1b[38;5;244m╭${"─".repeat(60)}╮\x1b[0m\r\n`;
    for (let l = 0; l < 4; l++) {
      out += `\x1b[38;5;244m│\x1b[0m \x1b[1m${
        "x".repeat(Math.floor(r() * 50))
      }\x1b[0m\x1b[62G│\r\n`;
    }
    out += `\x1b[38;5;244m╰${"─".repeat(60)}╯\x1b[0m\r\n\r\n\r\n`;
    out += "\x1b[?2026l";
  }
  return out;
}

/**
 * Full-screen redraws, each a synchronized update repainting all 60 rows of a 200-column
 * screen (~14 KB a frame), the way Claude Code and opencode draw.
 */
function fullFrameBlock(r: () => number): string {
  let out = "";
  for (let i = 0; i < 4; i++) {
    out += "\x1b[?2026h";
    for (let y = 1; y <= 60; y++) {
      const n = Math.floor(r() * 256);
      out += `\x1b[${y};1H\x1b[38;5;${n}m${B64[n % 64]!.repeat(150)}\x1b[0m row ${y} ${n}\x1b[K`;
    }
    out += "\x1b[?2026l";
  }
  return out;
}

const BLOCKS: Record<Workload, (r: () => number) => string> = {
  plain: plainBlock,
  sgr: sgrBlock,
  spinner: spinnerBlock,
  inkframe: inkBlock,
  fullframe: fullFrameBlock,
};

/** Writes `bytes` of the workload to `path` (deterministic). */
export async function writeCorpus(path: string, workload: Workload, bytes: number): Promise<void> {
  const r = rng(42);
  const encoder = new TextEncoder();
  using file = await Deno.open(path, { write: true, create: true, truncate: true });
  let written = 0;
  while (written < bytes) {
    const chunk = encoder.encode(BLOCKS[workload](r));
    await file.write(chunk);
    written += chunk.length;
  }
}

/** 25 visible columns a run, 8 runs (200 columns): a coloured log line filling a wide pane (bench/memory.ts). */
export function wideLogLine(i: number, runs = 8): string {
  let line = "";
  for (let s = 0; s < runs; s++) {
    const text = `${i}:${s} ${"abcdefghijklmnopqrstuvwxyz".slice(s)}`.padEnd(25, ".").slice(0, 25);
    line += `\x1b[3${(i + s) % 8}m${text}\x1b[0m`;
  }
  return line;
}
