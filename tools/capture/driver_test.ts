import assert from "node:assert/strict";
import { HeadlessTerminal } from "../../src/session/terminal.ts";
import { KEYS } from "./agents/common.ts";
import { runCapture } from "./driver.ts";
import type { AgentProfile } from "./profile.ts";

const FAKE = new URL("./testdata/fake_agent.ts", import.meta.url).pathname;

/** The fake CLI of testdata/, run by this Deno against the mock. */
const fake: AgentProfile = {
  id: "fake",
  idleRe: /\? for shortcuts/,
  blockedRe: /Do you want to proceed\?/,
  busyRe: /esc to interrupt/,
  trustRe: /trust this folder/,
  questionRe: /Which test framework/,
  trustKeys: [KEYS.enter],
  approveKey: KEYS.enter,
  interruptKeys: [KEYS.esc],
  idleWaitMs: 1000,
  quitKeys: [KEYS.ctrlC, KEYS.ctrlC],
  setup({ lab, mockUrl, name }) {
    const home = `${lab}/homes/${name}`;
    Deno.mkdirSync(home, { recursive: true });
    const env: Record<string, string> = {
      HOME: home,
      PATH: "/usr/local/bin:/usr/bin:/bin",
      TERM: "xterm-256color",
      MOCK_URL: mockUrl,
    };
    const denoDir = Deno.env.get("DENO_DIR");
    if (denoDir) env.DENO_DIR = denoDir;
    return Promise.resolve({
      file: Deno.execPath(),
      args: ["run", "-A", "--no-config", "--no-lock", FAKE],
      env,
      cwd: home,
      version: "fake 1.0",
    });
  },
};

interface Label {
  t_ms: number;
  byte_offset_in_raw: number;
  state: string;
  source: string;
  note: string;
  screen_settled_offset: number;
}

function readJsonl(path: string): Record<string, unknown>[] {
  return Deno.readTextFileSync(path).trim().split("\n").map((l) => JSON.parse(l));
}

/** The screen after feeding the capture's bytes up to `offset` through the real emulator. */
async function screenAt(raw: Uint8Array, offset: number): Promise<string> {
  using term = new HeadlessTerminal({ cols: 120, rows: 32 });
  term.write(raw.subarray(0, offset));
  await term.flush();
  return term.visibleLines().join("\n");
}

async function capture(scenario: "tool" | "deny", flags: object) {
  const lab = await Deno.makeTempDir({ prefix: "capture-test-" });
  const result = await runCapture({
    agent: fake,
    scenario,
    lab,
    outDir: `${lab}/out`,
    pace: 0.1,
    hardLimitMs: 60000,
    log: () => {},
    ...flags,
  });
  return { lab, result };
}

Deno.test({
  name: "the driver captures the tool scenario of a CLI, with truth offsets that match the screen",
  async fn() {
    const { lab, result } = await capture("tool", { answerOsc7501: true });
    try {
      assert.equal(result.name, "fake-tool-osc7501");
      assert.equal(result.forced, false);
      assert.deepEqual(result.exit, { exitCode: 0, signal: 0 });
      const dir = result.dir;
      for (const f of ["output.raw", "truth.json", "meta.json", "input.jsonl", "chunks.jsonl"]) {
        assert.ok(Deno.statSync(`${dir}/${f}`).size > 0, f);
      }
      const raw = Deno.readFileSync(`${dir}/output.raw`);
      const chunks = readJsonl(`${dir}/chunks.jsonl`);
      assert.equal(chunks.reduce((n, c) => n + (c.len as number), 0), raw.length);

      const meta = JSON.parse(Deno.readTextFileSync(`${dir}/meta.json`));
      assert.equal(meta.version, "fake 1.0");
      assert.equal(meta.answer_osc7501, true);
      assert.match(meta.env.MOCK_URL, /^http:\/\/127\.0\.0\.1:\d+$/);

      const truth = JSON.parse(Deno.readTextFileSync(`${dir}/truth.json`));
      const tl = truth.timeline as Label[];
      // Mock labels interleave with screen ones by timing; check each kind in order.
      assert.deepEqual(
        tl.filter((e) => e.source !== "mock").map((e) => `${e.state}/${e.source}`),
        [
          "starting/driver",
          "idle/screen",
          "working/screen",
          "blocked/screen",
          "working/screen",
          "done/screen",
          "idle/driver",
        ],
      );
      assert.deepEqual(
        tl.filter((e) => e.source === "mock").map((e) => e.note.split(" (")[0]),
        [
          "mock: streaming text",
          "mock: finished response with a tool call; permission prompt expected next",
          "mock: streaming text",
        ],
      );
      for (const [i, e] of tl.entries()) {
        assert.ok(e.byte_offset_in_raw <= raw.length);
        assert.ok(e.screen_settled_offset >= e.byte_offset_in_raw);
        if (i > 0) assert.ok(e.byte_offset_in_raw >= tl[i - 1]!.byte_offset_in_raw);
      }
      // The `screen` labels sit exactly where the text is first on screen.
      const blocked = tl.find((e) => e.state === "blocked")!;
      assert.match(await screenAt(raw, blocked.byte_offset_in_raw), /Do you want to proceed\?/);
      const idle = tl.find((e) => e.source === "screen" && e.state === "idle")!;
      assert.match(await screenAt(raw, idle.byte_offset_in_raw), /\? for shortcuts/);
      assert.doesNotMatch(await screenAt(raw, idle.byte_offset_in_raw - 1), /\? for shortcuts/);
      // Key-driven states are labelled where the screen first shows them.
      const approved = tl.findLast((e) => e.note.startsWith("user approved"))!;
      assert.doesNotMatch(
        await screenAt(raw, approved.byte_offset_in_raw),
        /Do you want to proceed/,
      );
      const submitted = tl.find((e) => e.note.startsWith("user submitted"))!;
      assert.match(await screenAt(raw, submitted.byte_offset_in_raw), /esc to interrupt/);
      // `done` waits for the working indicator to leave the screen.
      const done = tl.find((e) => e.state === "done")!;
      assert.doesNotMatch(await screenAt(raw, done.byte_offset_in_raw), /esc to interrupt/);

      // The probe was answered before the emulator's DA1 reply, so the CLI declared its states.
      const input = readJsonl(`${dir}/input.jsonl`);
      const srcs = input.map((i) => i.src);
      assert.ok(srcs.indexOf("osc7501-reply") >= 0);
      assert.ok(srcs.indexOf("osc7501-reply") < srcs.indexOf("terminal-reply"));
      const declared = readJsonl(`${dir}/events.jsonl`)
        .filter((e) => e.type === "osc7501").map((e) => e.data);
      assert.ok(declared.includes("state=blocked:kind=permission:app=fake-agent"), `${declared}`);
      assert.ok(Deno.statSync(`${dir}/mock-first-request.json`).isFile);
    } finally {
      await Deno.remove(lab, { recursive: true });
    }
  },
});

Deno.test({
  name: "without terminal replies the driver answers nothing, and Esc on the prompt is a deny",
  async fn() {
    const { lab, result } = await capture("deny", { termReplies: false });
    try {
      assert.equal(result.name, "fake-deny-noreplies");
      const input = readJsonl(`${result.dir}/input.jsonl`);
      assert.deepEqual([...new Set(input.map((i) => i.src))], ["user"]);
      const events = readJsonl(`${result.dir}/events.jsonl`);
      assert.ok(events.some((e) => e.type === "suppressed-terminal-reply"));
      assert.ok(events.some((e) => e.type === "unanswered-osc7501-probe"));
      assert.ok(!events.some((e) => e.type === "osc7501" && e.data !== "?"));
      const tl = JSON.parse(Deno.readTextFileSync(`${result.dir}/truth.json`)).timeline as Label[];
      assert.deepEqual(tl.slice(-2).map((e) => e.state), ["blocked", "idle"]);
      const raw = Deno.readFileSync(`${result.dir}/output.raw`);
      assert.match(await screenAt(raw, raw.length), /What should Claude do instead\?/);
    } finally {
      await Deno.remove(lab, { recursive: true });
    }
  },
});
