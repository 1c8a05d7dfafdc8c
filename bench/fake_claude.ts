/**
 * A fake agent that draws like Claude Code 2.1.332 (inline, normal screen),
 * for bench/detect_latency.ts. It never probes OSC 7501, so only the screen
 * rules can see it. It writes its true state, with the epoch ms at which the
 * frame showing it was written to the PTY, as JSON lines to $FAKE_TRUTH.
 *
 *   idle     input box between two rules, footer "⏸ manual mode on · ? for shortcuts"
 *   working  spinner line "✻ Whirring… (3s · ↓ 120 tokens)" redrawn at 10 Hz, footer
 *            "esc to interrupt"; tool calls run silently (no output at all) 0.5–6 s
 *   blocked  the permission dialog, every word placed with `CSI n G` (as Claude does),
 *            written in several pieces; erased after the answer with cursor-up + erase
 *   done     the answer (sometimes ending with the prose question "Would you like me to
 *            add a regression test?"), "✻ Worked for 9s", then the idle box
 *
 * Keys: Enter submits a task / approves ("1" too), Ctrl+C twice exits.
 * Randomness comes from $FAKE_SEED (mulberry32), so runs repeat.
 */

import { rng } from "./corpus.ts";

const enc = new TextEncoder();
const COLS = (() => {
  try {
    return Deno.consoleSize().columns;
  } catch {
    return 120;
  }
})();
const truthFile = Deno.env.get("FAKE_TRUTH") ?? "/dev/null";
const truth = Deno.openSync(truthFile, { create: true, append: true });

const rand = rng(Number(Deno.env.get("FAKE_SEED") ?? "1"));
const between = (lo: number, hi: number) => lo + (hi - lo) * rand();
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

function out(s: string) {
  const bytes = enc.encode(s);
  let done = 0;
  while (done < bytes.length) done += Deno.stdout.writeSync(bytes.subarray(done));
}

function record(state: string, note: string) {
  truth.writeSync(enc.encode(JSON.stringify({ t: Date.now(), state, note }) + "\n"));
}

/** A line whose words are placed with `CSI n G` instead of spaces (Claude's renderer). */
function placed(text: string): string {
  let s = "";
  let col = 1;
  for (const part of text.split(/( +)/)) {
    if (part === "") continue;
    if (part.startsWith(" ")) col += part.length;
    else {
      s += `\x1b[${col}G${part}`;
      col += [...part].length;
    }
  }
  return s;
}

const RULE = "─".repeat(COLS);
const GLYPHS = ["·", "✢", "*", "✶", "✻", "✽"];
const VERBS = ["Whirring", "Calculating", "Pondering", "Brewing", "Noodling", "Percolating"];

/** The live region at the bottom: erased and redrawn as a whole, like Ink. */
let live: string[] = [];

function erase(): string {
  if (live.length === 0) return "";
  return "\x1b[2K\x1b[1A".repeat(live.length - 1) + "\x1b[2K\x1b[G";
}

function frame(lines: string[], committed: string[] = []): string {
  const s = erase() + committed.map((l) => placed(l) + "\r\r\n").join("") +
    lines.map(placed).join("\r\n");
  live = lines;
  return s;
}

const idleBox = () => ["", RULE, "❯ ", RULE, "  ⏸ manual mode on · ? for shortcuts"];
let turnStart = 0;
let tokens = 0;
let verb = VERBS[0]!;
function workingBox(tick: number): string[] {
  const secs = Math.floor((Date.now() - turnStart) / 1000);
  const glyph = GLYPHS[tick % GLYPHS.length]!;
  return [
    "",
    `${glyph} ${verb}… (${secs}s · ↓ ${tokens} tokens)`,
    "",
    RULE,
    "❯ ",
    RULE,
    "  ⏸ manual mode on · esc to interrupt",
  ];
}

function dialog(cmd: string): string[] {
  return [
    "",
    RULE,
    " Bash command",
    "",
    `   ${cmd}`,
    "   Run the project's tests",
    "",
    " Do you want to proceed?",
    " ❯ 1. Yes",
    `   2. Yes, and don't ask again for ${cmd.split(" ")[0]} commands in /work/project`,
    "   3. No, and tell Claude what to do differently (esc)",
    "",
    " Esc to cancel · Tab to amend",
  ];
}

// ---- keys ----
type KeyWaiter = (key: string) => void;
let waiter: KeyWaiter | null = null;
let typed = "";
let ctrlC = 0;
const nextKey = () => new Promise<string>((r) => (waiter = r));

async function readKeys() {
  Deno.stdin.setRaw(true);
  const dec = new TextDecoder();
  for await (const chunk of Deno.stdin.readable) {
    for (const ch of dec.decode(chunk)) {
      if (ch === "\x03") {
        if (++ctrlC >= 2) {
          record("exit", "Ctrl+C twice");
          Deno.exit(0);
        }
        continue;
      }
      ctrlC = 0;
      const w = waiter;
      waiter = null;
      w?.(ch);
    }
  }
}

// ---- the agent ----
let spinning = false;
let tick = 0;
const spinner = setInterval(() => {
  if (spinning) out(frame(workingBox(++tick)));
}, 100);

async function work(ms: number) {
  spinning = true;
  const end = Date.now() + ms;
  while (Date.now() < end) {
    tokens += Math.floor(between(5, 40));
    await sleep(Math.min(100, end - Date.now()));
  }
}

/** Runs silently: nothing is written while the tool runs. */
async function silentTool(ms: number) {
  spinning = false;
  await sleep(ms);
}

async function permission(cmd: string) {
  spinning = false;
  out(frame([], [`● Bash(${cmd})`, "  ⎿  Waiting…"]));
  // The dialog arrives in pieces (a few lines per write), like a slow renderer.
  const lines = dialog(cmd);
  for (let i = 0; i < lines.length; i += 4) {
    const part = lines.slice(i, i + 4);
    out((i === 0 ? "" : "\r\n") + part.map(placed).join("\r\n"));
    await sleep(between(2, 12));
  }
  live = lines;
  record("blocked", `permission dialog for ${cmd} fully drawn`);
  for (;;) {
    const key = await nextKey();
    if (key === "\r" || key === "1") break;
  }
  // Erase the dialog: cursor up to its first row, erase to the end of the screen.
  out(`\x1b[${live.length - 1}A\x1b[G\x1b[J`);
  live = [];
  out(frame(workingBox(++tick), ["  ⎿  Running…"]));
  record("working", "permission granted; dialog erased");
}

const COMMANDS = ["npm test", "touch lab-file.txt", "pytest -q", "git status", "ls -la src"];
const QUESTION = "Would you like me to add a regression test?";

async function turn(task: string) {
  turnStart = Date.now();
  tokens = 0;
  verb = VERBS[Math.floor(rand() * VERBS.length)]!;
  out(frame(workingBox(++tick), [`> ${task}`, ""]));
  record("working", "task submitted");
  await work(between(400, 1000));
  const calls = rand() < 0.6 ? 2 : 1;
  for (let i = 0; i < calls; i++) {
    const cmd = COMMANDS[Math.floor(rand() * COMMANDS.length)]!;
    const needsPermission = i === 0 || rand() < 0.8;
    if (needsPermission) await permission(cmd);
    else out(frame(workingBox(++tick), [`● Bash(${cmd})`, "  ⎿  Running…"]));
    // Skewed toward short calls: 0.5–6 s, mean ~2.3 s.
    await silentTool(500 + 5500 * rand() ** 2);
    await work(between(300, 900));
  }
  spinning = false;
  const prose = rand() < 0.4;
  const answer = prose
    ? `● I fixed the off-by-one in the loop bound. ${QUESTION}`
    : "● Done: the tests pass now.";
  const secs = Math.max(1, Math.round((Date.now() - turnStart) / 1000));
  out(frame(idleBox(), [answer, "", `✻ Worked for ${secs}s`, ""]));
  record("idle", prose ? "turn ended with a prose question" : "turn ended");
}

async function main() {
  readKeys();
  out("\x1b]0;✳ Claude Code\x07");
  out(frame(idleBox(), ["╭───╮ Claude Code v2.1.332 (fake)", ""]));
  record("idle", "started");
  for (;;) {
    const key = await nextKey();
    if (key === "\r") {
      const task = typed;
      typed = "";
      out(frame(idleBox()));
      await turn(task || "(empty)");
    } else {
      typed += key;
      const box = idleBox();
      box[2] = `❯ ${typed}`;
      out(frame(box));
    }
  }
}

main().finally(() => clearInterval(spinner));
