/** Manifest error cases, shared by the tests of manifest.ts and of its parts (rule_manifest.ts). */

import assert from "node:assert/strict";
import { ManifestError } from "../errors.ts";
import { parseManifest } from "./manifest.ts";

/** What is wrong, the manifest's text, the line the error names (null: not checked), the reason. */
export type ManifestErrorCase = [string, string, number | null, RegExp];

/** One test a case: `text` in /cfg/agents/demo.yml is a ManifestError naming the file and line. */
export function testManifestErrors(prefix: string, cases: readonly ManifestErrorCase[]): void {
  for (const [what, text, line, reason] of cases) {
    Deno.test(`${prefix}: ${what} is a ManifestError with file and line`, () => {
      try {
        parseManifest(text, "/cfg/agents/demo.yml", "demo");
        assert.fail("expected a ManifestError");
      } catch (error) {
        assert.ok(error instanceof ManifestError, String(error));
        assert.equal(error.file, "/cfg/agents/demo.yml");
        if (line !== null) assert.equal(error.line, line, error.message);
        assert.match(error.reason, reason);
        assert.match(error.message, /^\/cfg\/agents\/demo\.yml(:\d+)?: [A-Za-z]/);
      }
    });
  }
}
