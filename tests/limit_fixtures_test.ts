/**
 * Captures of real CLIs at a usage limit (fixtures/captures/<agent>-*limit*,
 * the mock answering each API's limit response, docs/limits.md): at each error
 * label the replay reads kind `limit` and the reset the CLI printed, on the
 * capture's clock and its agent's TZ — with OSC 7501 and without. The printed
 * time is the truth's `resets_printed`; the mock's own reset (`resets_at`) is
 * at most a minute after it (a time printed to the minute).
 */

import assert from "node:assert/strict";
import { detectFile } from "../src/cli/commands/detect.ts";

const ROOT = new URL("../fixtures/captures/", import.meta.url).pathname;

interface Label {
  readonly state: string;
  readonly kind?: string;
  readonly screen_settled_offset: number;
  readonly resets_at?: string;
  readonly resets_printed?: string;
}

const captures = [...Deno.readDirSync(ROOT)]
  .filter((e) => e.isDirectory && /-limit\b/.test(e.name))
  .map((e) => e.name)
  .sort();

Deno.test("limit fixtures: there is at least one", () => {
  assert.ok(captures.length >= 1, `no *-limit capture in ${ROOT}`);
});

for (const name of captures) {
  const truth = JSON.parse(Deno.readTextFileSync(`${ROOT}${name}/truth.json`)) as {
    timeline: Label[];
  };
  const limits = truth.timeline.filter((l) => l.kind === "limit" && l.resets_printed);
  // An agent that retries by itself on its own countdown (opencode-limit-retry) is working
  // throughout: tests/fixtures_test.ts reads it so at every point.
  if (truth.timeline.every((l) => l.kind !== "limit")) continue;
  for (const declared of [true, false]) {
    Deno.test(`limit fixtures: ${name} (${declared ? "with" : "without"} OSC 7501)`, async () => {
      assert.ok(limits.length > 0, "no limit label with resets_printed");
      const rows = await detectFile(`${ROOT}${name}`, {
        at: limits.map((l) => l.screen_settled_offset),
        declared,
      });
      assert.deepEqual(
        rows.map((r) => [r.state, r.kind, r.resetsAt]),
        limits.map((l) => ["error", "limit", l.resets_printed]),
      );
      for (const l of limits) {
        const lag = Date.parse(l.resets_at!) - Date.parse(l.resets_printed!);
        assert.ok(lag >= 0 && lag < 60_000, `${l.resets_at} vs ${l.resets_printed}`);
      }
    });
  }
}
