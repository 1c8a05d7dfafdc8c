import assert from "node:assert/strict";
import { ManifestError } from "../errors.ts";
import { parseManifest } from "./manifest.ts";
import { type ManifestErrorCase, testManifestErrors } from "./test_util.ts";

const GOOD = `id: demo
name: Demo
identity:
  processes: [demo]
  title: ['^Demo']
turn_end: done
rules:
  - id: ask
    state: blocked
    kind: question
    region: { bottom: 3 }
    any: ['Proceed\\?', 'Continue\\?']
    visible_blocker: true
  - id: busy
    state: working
    region: title
    all: ['^⠋']
    not: ['paused']
`;

Deno.test("manifest: a valid file compiles with regions, lists and defaults", () => {
  const m = parseManifest(GOOD, "demo.yml", "demo");
  assert.equal(m.id, "demo");
  assert.equal(m.name, "Demo");
  assert.equal(m.turnEnd, "done");
  assert.deepEqual(m.identity.scripts, []);
  assert.equal(m.rules.length, 2);
  const [ask, busy] = m.rules;
  assert.deepEqual(ask!.region, { type: "bottom", count: 3 });
  assert.equal(ask!.any.length, 1, "any patterns join into one alternation");
  assert.ok(ask!.any[0]!.test("Continue?"));
  assert.equal(ask!.visibleBlocker, true);
  assert.deepEqual(busy!.region, { type: "title" });
  assert.equal(busy!.kind, null);
  assert.equal(busy!.not.length, 1);
});

const errorCases: ManifestErrorCase[] = [
  ["bad YAML", "id: demo\nrules: [\n  - id: x", 3, /Invalid YAML/],
  [
    "bad regex",
    "id: demo\nrules:\n  - id: x\n    state: idle\n    any: ['ok', '(unclosed']\n",
    5,
    /Invalid regex "\(unclosed"/,
  ],
  ["unknown key", "id: demo\nrulez: []\n", 2, /Unrecognized key: "rulez"/],
  ["not a mapping", "- a\n- b\n", 1, /mapping/],
  [
    "resume without {id}",
    "id: demo\nresume:\n  command: demo --continue\n",
    3,
    /resume\.command: The resume command needs \{id\}/,
  ],
  ["resume without a command", "id: demo\nresume:\n  cmd: x {id}\n", null, /resume\.command/],
  [
    "a store path that is not absolute",
    "id: demo\nresume:\n  command: demo -r {id}\n  store:\n    files: .demo/*.jsonl\n",
    5,
    /Invalid store path ".demo\/\*\.jsonl": A store path starts with \//,
  ],
  [
    "a store path with an unknown placeholder",
    "id: demo\nresume:\n  command: demo -r {id}\n  store:\n    files: /x/{user}/*.jsonl\n",
    5,
    /Unknown placeholder/,
  ],
  [
    "a store with files and sqlite",
    "id: demo\nresume:\n  command: d {id}\n  store:\n    files: /x/*.jsonl\n    sqlite: /x.db\n",
    5,
    /files or sqlite \(one of them\)/,
  ],
  [
    "a sqlite store without its query",
    "id: demo\nresume:\n  command: d {id}\n  store:\n    sqlite: /x.db\n",
    5,
    /sqlite store needs its query/,
  ],
  [
    "a store query that is not a SELECT",
    "id: demo\nresume:\n  command: d {id}\n  store:\n    sqlite: /x.db\n    query: DELETE FROM session\n",
    6,
    /one SELECT/,
  ],
  ["file name mismatch", "id: other\n", 1, /does not match its file name/],
];

testManifestErrors("manifest", errorCases);

Deno.test("manifest: a regex error names the pattern and the reason only", () => {
  try {
    parseManifest("id: d\nrules:\n  - id: x\n    state: idle\n    any: ['(']\n", "d.yml");
    assert.fail("expected a ManifestError");
  } catch (error) {
    assert.ok(error instanceof ManifestError);
    assert.equal(error.message, 'd.yml:5: Invalid regex "(": Unterminated group');
  }
});

Deno.test("manifest: the example in docs/manifests.md parses", async () => {
  const doc = await Deno.readTextFile(new URL("../../docs/manifests.md", import.meta.url));
  const example = /```yaml\n(# ~\/\.config\/lazyshell\/agents\/myagent\.yml\n[^]*?)```/.exec(doc)
    ?.[1];
  assert.ok(example, "the complete example is in the doc");
  const m = parseManifest(example, "myagent.yml", "myagent");
  assert.deepEqual(m.rules.map((r) => r.id), [
    "permission",
    "working",
    "turn-complete",
    "turn-failed",
    "error-block",
    "spinner-title",
  ]);
  const [, , , failed, block] = m.rules;
  assert.deepEqual(failed!.kinds.map((k) => k.kind), ["rate_limit", "overloaded"]);
  assert.equal(block!.cells.length, 1);
  assert.deepEqual(m.resume, { command: "myagent --resume {id}", store: null });
});

Deno.test("manifest: claude, codex and opencode say how they resume a conversation", async () => {
  const dir = new URL("../../manifests/", import.meta.url);
  const resume = async (id: string) =>
    parseManifest(await Deno.readTextFile(new URL(`${id}.yml`, dir)), `${id}.yml`, id).resume;
  const claude = await resume("claude");
  assert.equal(claude?.command, "claude --resume {id}");
  assert.equal(
    claude?.store?.files?.source,
    "${CLAUDE_CONFIG_DIR:-${HOME}/.claude}/projects/{cwd-slug}/*.jsonl",
  );
  assert.equal(
    claude?.store?.process?.file.source,
    "${CLAUDE_CONFIG_DIR:-${HOME}/.claude}/sessions/{pid}.json",
  );
  const codex = await resume("codex");
  assert.equal(codex?.command, "codex resume {id}");
  assert.equal(codex?.store?.id, "payload.id");
  const opencode = await resume("opencode");
  assert.equal(opencode?.command, "opencode --session {id}");
  assert.match(opencode?.store?.query ?? "", /^SELECT id, directory AS cwd/);
  assert.equal(await resume("aider"), null);
});
