import assert from "node:assert/strict";
import { cwdSlug, daysBetween, expandStoreTemplate, parseStoreTemplate } from "./store_template.ts";

const facts = { env: { HOME: "/home/me" }, pid: 4242, cwd: "/src/my_app.v2" };

Deno.test("store template: variables with fallbacks, pid, cwd and its slug", () => {
  const claude = parseStoreTemplate(
    "${CLAUDE_CONFIG_DIR:-${HOME}/.claude}/projects/{cwd-slug}/*.jsonl",
  );
  assert.deepEqual(expandStoreTemplate(claude, facts), [
    "/home/me/.claude/projects/-src-my-app-v2/*.jsonl",
  ]);
  const set = { ...facts, env: { HOME: "/home/me", CLAUDE_CONFIG_DIR: "/etc/cc" } };
  assert.deepEqual(expandStoreTemplate(claude, set), ["/etc/cc/projects/-src-my-app-v2/*.jsonl"]);
  const empty = { ...facts, env: { HOME: "/home/me", CLAUDE_CONFIG_DIR: "" } };
  assert.deepEqual(expandStoreTemplate(claude, empty), [
    "/home/me/.claude/projects/-src-my-app-v2/*.jsonl",
  ]);
  const proc = parseStoreTemplate("${HOME}/.claude/sessions/{pid}.json");
  assert.deepEqual(expandStoreTemplate(proc, facts), ["/home/me/.claude/sessions/4242.json"]);
  assert.deepEqual(expandStoreTemplate(parseStoreTemplate("{cwd}/.x"), facts), [
    "/src/my_app.v2/.x",
  ]);
  // No HOME and no fallback: nothing to read.
  assert.deepEqual(expandStoreTemplate(proc, { ...facts, env: {} }), []);
  assert.equal(cwdSlug("/a b/ü-c"), "-a-b---c");
});

Deno.test("store template: a dated one names each day from the start to now", () => {
  const codex = parseStoreTemplate(
    "${CODEX_HOME:-${HOME}/.codex}/sessions/{yyyy}/{mm}/{dd}/rollout-*.jsonl",
  );
  assert.equal(codex.dated, true);
  const from = Date.UTC(2026, 11, 30, 12);
  const to = Date.UTC(2027, 0, 1, 12);
  const paths = expandStoreTemplate(codex, facts, daysBetween(from, to));
  for (const day of ["2026/12/30", "2026/12/31", "2027/01/01"]) {
    assert.ok(paths.includes(`/home/me/.codex/sessions/${day}/rollout-*.jsonl`), day);
  }
  assert.ok(!paths.some((p) => p.includes("2026/12/29") || p.includes("2027/01/02")), paths.join());
  // A start long ago: at most 8 days back from now.
  assert.ok(daysBetween(0, to).length <= 18);
});

Deno.test("store template: what a manifest may not write", () => {
  for (
    const [bad, why] of [
      ["relative/*.jsonl", /starts with \//],
      ["${HOME/x", /must follow|not closed/],
      ["${HOME:-/x", /not closed/],
      ["/x/{user}/y", /Unknown placeholder/],
      ["/x/}", /Unexpected "\}"/],
      ["${1X}/a", /variable name/],
    ] as const
  ) {
    assert.throws(() => parseStoreTemplate(bad), why, bad);
  }
});
