import assert from "node:assert/strict";
import type { ScreenView } from "../model/snapshot.ts";
import { parseManifest } from "./manifest.ts";
import { evaluate, identifyByHints, RegionReader } from "./rules.ts";

const manifest = parseManifest(
  `id: demo
identity:
  title: ['^Demo ']
  screen: ['Demo v\\d']
rules:
  - id: prompt
    state: blocked
    kind: permission
    region: { bottom: 2 }
    any: ['^ *Allow\\?$']
    visible_blocker: true
  - id: spinner
    state: working
    region: title
    any: ['^⠋']
  - id: busy
    state: working
    all: ['working', 'esc']
    not: ['paused']
  - id: finished
    state: done
    any: ['^✻ \\p{Lu}\\p{Ll}+ for \\d+s']
`,
  "demo.yml",
);

/** A view that records which rows were read. */
function view(lines: string[], title = ""): ScreenView & { read: Set<number> } {
  const read = new Set<number>();
  return {
    cols: 80,
    rows: lines.length,
    title,
    read,
    line(y) {
      read.add(y);
      return lines[y] ?? "";
    },
  };
}

const cases: [string, string[], string, string, string | null][] = [
  ["bottom-region prompt", ["hello", "", " Allow?", "", ""], "", "prompt", "permission"],
  [
    "prompt outside the bottom region is not seen",
    [" Allow?", "a", "b", "c"],
    "",
    "fallback",
    null,
  ],
  ["title rule", ["nothing"], "⠋ task", "spinner", null],
  ["all + not: both present", ["working hard", "esc to stop"], "", "busy", null],
  ["all + not: one missing", ["working hard"], "", "fallback", null],
  ["all + not: excluded", ["working hard", "esc", "paused"], "", "fallback", null],
  [
    "first match wins (blocked before working)",
    ["working esc", " Allow?"],
    "",
    "prompt",
    "permission",
  ],
  ["completion shape, verb not enumerated", ["✻ Brewed for 12s · done"], "", "finished", null],
  [
    "a prose question is not blocked",
    ["Would you like me to add a test?", "? for shortcuts"],
    "",
    "fallback",
    null,
  ],
  ["empty screen falls back to idle", [], "", "fallback", null],
];

for (const [what, lines, title, rule, kind] of cases) {
  Deno.test(`rules: ${what}`, () => {
    const r = evaluate(manifest, view(lines, title));
    assert.equal(r.ruleId, rule);
    assert.equal(r.kind, kind);
    if (rule === "fallback") assert.equal(r.state, "idle");
  });
}

Deno.test("rules: a bottom region reads only the rows it needs", () => {
  const lines = Array.from({ length: 60 }, (_, i) => `row ${i}`);
  lines[58] = " Allow?";
  const v = view(lines);
  const m = parseManifest(
    "id: d\nrules:\n  - id: p\n    state: blocked\n    region: { bottom: 3 }\n    any: ['Allow']\n",
    "d.yml",
  );
  assert.equal(evaluate(m, v).ruleId, "p");
  assert.deepEqual([...v.read].sort((a, b) => a - b), [57, 58, 59]);
});

Deno.test("rules: bottom N counts non-empty rows and keeps top-to-bottom order", () => {
  const reader = new RegionReader(view(["a", "", "b", "", "", "c", ""]));
  assert.equal(reader.text({ type: "bottom", count: 2 }), "b\nc");
  assert.equal(reader.text({ type: "bottom", count: 9 }), "a\nb\nc");
});

Deno.test("rules: identity hints by title, then by screen", () => {
  assert.equal(identifyByHints([manifest], view([], "Demo 1")), "demo");
  assert.equal(identifyByHints([manifest], view(["Demo v2 starting"])), "demo");
  assert.equal(identifyByHints([manifest], view(["bash"], "bash")), null);
});

const failures = parseManifest(
  `id: fails
rules:
  - id: retrying
    state: working
    region: { bottom: 2 }
    any: ['\\[retrying in \\d+s']
  - id: api-error
    state: error
    region: { bottom: 4 }
    all: ['Resend your message']
    msg: ['^● API Error: (?<msg>.+)']
    kinds:
      quota: ['(?i:quota|credit)']
      rate_limit: ['\\b429\\b']
  - id: red-block
    state: error
    region: { bottom: 3 }
    cells:
      - match: '┃  \\S'
        fg: [red, '#ff0000']
    msg: ['^┃  (?<msg>.+)']
    kinds: { auth: ['(?i:api key)'] }
`,
  "fails.yml",
);

/** A view with colours: `colors[y]` is the colour of every character of row y (default -1). */
function colored(lines: string[], colors: Record<number, number>) {
  const asked: [number, number][] = [];
  const v: ScreenView & { asked: [number, number][] } = {
    ...view(lines),
    asked,
    fg(y, i) {
      asked.push([y, i]);
      return colors[y] ?? -1;
    },
  };
  return v;
}

const RED = 0x1000000 | 0xe06c75;
const BLUE = 0x1000000 | 0x5c9cf5;

Deno.test("rules: an error rule reports its message and the kind its message names", () => {
  const r = evaluate(
    failures,
    view([
      "● API Error: Request rejected (429) · rate limit",
      "❯ Resend your message to try again",
    ]),
  );
  assert.deepEqual(
    { state: r.state, rule: r.ruleId, kind: r.kind, msg: r.msg },
    {
      state: "error",
      rule: "api-error",
      kind: "rate_limit",
      msg: "Request rejected (429) · rate limit",
    },
  );
  const quota = evaluate(
    failures,
    view(["● API Error: credit balance too low", "Resend your message"]),
  );
  assert.equal(quota.kind, "quota", "the first kind listed wins");
  const bare = evaluate(failures, view(["Resend your message"]));
  assert.deepEqual([bare.ruleId, bare.kind, bare.msg], ["api-error", null, null]);
});

Deno.test("rules: a colour condition holds only where the match starts in that colour", () => {
  const lines = ["  ┃  Fix the tests", "  ┃  Incorrect API key provided", "  ▣  Build"];
  const red = evaluate(failures, colored(lines, { 0: BLUE, 1: RED }));
  assert.deepEqual(
    [red.state, red.ruleId, red.kind, red.msg],
    ["error", "red-block", "auth", "Incorrect API key provided"],
  );
  const blue = evaluate(failures, colored(lines, { 0: BLUE, 1: BLUE }));
  assert.equal(blue.ruleId, "fallback");
  assert.equal(evaluate(failures, colored(lines, { 1: 0x1000000 | 0xff0000 })).ruleId, "red-block");
  assert.equal(evaluate(failures, colored(lines, { 1: 1 })).ruleId, "red-block", "palette red");
});

Deno.test("rules: colours are read only for the matches a condition tests, after the text held", () => {
  const lines = Array.from({ length: 40 }, (_, i) => `row ${i}`);
  lines[38] = "  ┃  boom";
  const v = colored(lines, { 38: RED });
  assert.equal(evaluate(failures, v).ruleId, "red-block");
  assert.deepEqual(v.asked, [[38, 2]], "one cell: where the match starts");
  const retrying = colored(["x", "Rate limited [retrying in 2s attempt #3]"], {});
  assert.equal(evaluate(failures, retrying).ruleId, "retrying");
  assert.deepEqual(retrying.asked, [], "a rule that matched first needs no colour");
});

Deno.test("rules: a view without colours never satisfies a colour condition", () => {
  assert.equal(evaluate(failures, view(["  ┃  Incorrect API key"])).ruleId, "fallback");
});

Deno.test("rules: top N reads only the first non-empty rows, in order", () => {
  const v = view(["", "a toast", "", "b", "c", "d"]);
  const m = parseManifest(
    "id: t\nrules:\n  - id: toast\n    state: error\n    region: { top: 2 }\n    all: ['toast', '^b$']\n",
    "t.yml",
  );
  assert.equal(evaluate(m, v).ruleId, "toast");
  assert.deepEqual([...v.read].sort((a, b) => a - b), [0, 1, 2, 3]);
  assert.equal(new RegionReader(view(["", "x", "y"])).text({ type: "top", count: 5 }), "x\ny");
});
