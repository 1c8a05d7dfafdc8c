import assert from "node:assert/strict";
import { selfCommand } from "../../plugin/self.ts";

const CAPTURES = new URL("../../../fixtures/captures/", import.meta.url).pathname;

/** The CLI as tests run it: selfCommand() keeps Deno's own progress lines off stderr. */
async function lazyshell(...args: string[]) {
  return await lazyshellWith({}, ...args);
}

async function lazyshellWith(env: Record<string, string>, ...args: string[]) {
  const home = await Deno.makeTempDir(); // no user manifests
  try {
    const [program, ...prefix] = selfCommand();
    const out = await new Deno.Command(program!, {
      args: [...prefix, ...args],
      env: { XDG_CONFIG_HOME: home, ...env },
      stdin: "null",
    }).output();
    const dec = new TextDecoder();
    return { code: out.code, stdout: dec.decode(out.stdout), stderr: dec.decode(out.stderr) };
  } finally {
    await Deno.remove(home, { recursive: true });
  }
}

Deno.test("detect: --at offsets in order, agent from the title hints, JSON keys", async () => {
  const r = await lazyshell(
    "detect",
    `${CAPTURES}claude-tool/output.raw`,
    "--at",
    "13978",
    "--at",
    "1464",
    "--json",
  );
  assert.equal(r.code, 0, r.stderr);
  assert.deepEqual(JSON.parse(r.stdout), [
    {
      offset: 13978,
      status: "running",
      agent: "claude",
      state: "blocked",
      kind: "permission",
      source: "screen",
      rule: "permission-footer",
      prompt: {
        question: "Do you want to proceed?",
        subject: "touch lab-file.txt",
        options: [
          { label: "Yes", keys: ["1"] },
          {
            label: "Yes, and always allow access to /home/dev/lab00/work/claude-claude-tool " +
              "from this project",
            keys: ["2"],
          },
          {
            label: "Yes, and switch to auto mode · auto mode handles these prompts for you",
            keys: ["3"],
          },
          { label: "No", keys: ["4"] },
        ],
        cancel: ["Esc"],
        approve: 1,
        deny: 4,
      },
      msg: null,
      resetsAt: null,
    },
    {
      offset: 1464,
      status: "running",
      agent: "claude",
      state: "idle",
      kind: null,
      source: "screen",
      rule: "idle-prompt",
      prompt: null,
      msg: null,
      resetsAt: null,
    },
  ]);
});

Deno.test("detect: a failed turn's kind and message, read on screen", async () => {
  const r = await lazyshell("detect", `${CAPTURES}codex-fail-quota`, "--no-osc7501");
  assert.equal(r.code, 0, r.stderr);
  assert.equal(
    r.stdout.trim(),
    "20396\tagent=codex\tstate=error\tkind=quota\tsource=screen\trule=turn-failed\t" +
      'msg="Quota exceeded. Check your plan and billing details."',
  );
});

Deno.test("detect: declared evidence from the bytes, or screen rules alone", async () => {
  const file = `${CAPTURES}claude-tool-osc7501/output.raw`;
  const full = await lazyshell("detect", file, "--at", "14013", "--json");
  assert.equal(JSON.parse(full.stdout)[0].source, "declared");
  const screen = await lazyshell("detect", file, "--at", "14013", "--json", "--no-osc7501");
  assert.deepEqual(
    [JSON.parse(screen.stdout)[0].state, JSON.parse(screen.stdout)[0].source],
    ["blocked", "screen"],
  );
});

Deno.test("detect: plain text output and one object without --at", async () => {
  const text = await lazyshell(
    "detect",
    `${CAPTURES}codex-tool/output.raw`,
    "--agent",
    "codex",
    "--at",
    "18789",
  );
  assert.equal(text.code, 0, text.stderr);
  assert.equal(
    text.stdout,
    "18789\tagent=codex\tstate=blocked\tkind=permission\tsource=declared\trule=osc7501\n" +
      "  asks: Would you like to run the following command? (touch lab-file.txt)\n" +
      "    1. Yes, proceed  keys: y [approve]\n" +
      "    2. Yes, and don't ask again for commands that start with `touch lab-file.txt`  keys: p\n" +
      "    3. No, and tell Codex what to do differently  keys: Esc [deny]\n" +
      "    cancel  keys: Esc\n",
  );
  const one = await lazyshell("detect", `${CAPTURES}opencode-tool`, "--json");
  assert.equal(JSON.parse(one.stdout).agent, "opencode");
});

Deno.test("detect: user mistakes are one line and exit 2", async () => {
  // The first run on a fresh machine: an empty Deno cache makes Deno fetch npm
  // metadata and print `Download …` lines on stderr, which must not reach the
  // user's one line (or a test reading it).
  const cold = await Deno.makeTempDir({ prefix: "lzs-deno-dir-" });
  try {
    const r = await lazyshellWith({ DENO_DIR: cold }, "detect", "nope.raw");
    assert.deepEqual([r.code, r.stderr], [2, "lazyshell: Cannot read nope.raw: no such file\n"]);
  } finally {
    await Deno.remove(cold, { recursive: true });
  }
  for (
    const args of [["nope.raw"], [`${CAPTURES}codex-tool`, "--agent", "zz"], [
      `${CAPTURES}codex-tool`,
      "--at",
      "-3",
    ], [`${CAPTURES}codex-tool`, "--at", "999999999"]]
  ) {
    const r = await lazyshell("detect", ...args);
    assert.equal(r.code, 2, args.join(" "));
    assert.equal(r.stderr.trim().split("\n").length, 1, r.stderr);
    assert.match(r.stderr, /^lazyshell: [A-Z]/);
  }
});

Deno.test("detect: --trace prints each state change before the result", async () => {
  const r = await lazyshell("detect", `${CAPTURES}claude-tool`, "--trace", "--no-osc7501");
  assert.equal(r.code, 0, r.stderr);
  const states = r.stdout.trim().split("\n").filter((l) => l.startsWith("change "))
    .map((l) => /state=(\w+)/.exec(l)?.[1]);
  // Two idles: the fallback guess while the screen is still empty, then Claude Code's idle-prompt
  // rule (a change of its own: it says the agent is ready for input, src/runtime/first_prompt.ts).
  // Then the user's Ctrl+C (input.jsonl) ends the done turn (typed), and the screen Claude Code
  // leaves on its way out is no rule's (fallback).
  assert.deepEqual(states, [
    "idle",
    "idle",
    "working",
    "blocked",
    "working",
    "done",
    "idle",
    "idle",
  ]);
});
