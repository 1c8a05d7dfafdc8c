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
