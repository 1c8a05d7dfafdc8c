/** `diff TARGET`'s body; its spec (and what it does) is ../specs/diff.ts. */

import { readChanges } from "../../git/changes.ts";
import { formatStat, parseUnifiedDiff } from "../../git/parse.ts";
import { defineVerb, flag, str } from "../verb.ts";
import { resolveTarget } from "../targets.ts";
import spec, { DIFF_MAX_BYTES } from "../specs/diff.ts";

export { describeBase, DIFF_MAX_BYTES, type DiffResult } from "../specs/diff.ts";

export default defineVerb(spec, async ({ host }, args) => {
  const session = resolveTarget(host.sessions, str(args, "target")!);
  const cwd = host.view(session.id)?.cwd ?? session.cwd;
  const base = str(args, "base");
  const stat = flag(args, "stat");
  const changes = await readChanges(cwd, {
    ...(base !== undefined ? { base } : {}),
    maxDiffBytes: DIFF_MAX_BYTES,
  });
  const fitted = fit(changes.diff, DIFF_MAX_BYTES);
  return {
    id: session.id,
    name: session.name,
    root: changes.root,
    branch: changes.branch,
    base: changes.base,
    commits: changes.commits,
    files: changes.files,
    diff: stat ? "" : fitted.diff,
    stat: stat ? formatStat(parseUnifiedDiff(changes.diff)) : null,
    truncated: changes.truncated || fitted.cut,
  };
});

/** The diff cut at a line boundary so that its JSON encoding fits in `max` bytes. */
export function fit(diff: string, max: number): { diff: string; cut: boolean } {
  const size = (s: string) => new TextEncoder().encode(JSON.stringify(s)).length;
  if (size(diff) <= max) return { diff, cut: false };
  let low = 0;
  let high = diff.length;
  while (low < high) { // the longest prefix that fits, then back to its last newline
    const mid = Math.ceil((low + high) / 2);
    if (size(diff.slice(0, mid)) <= max) low = mid;
    else high = mid - 1;
  }
  const end = diff.lastIndexOf("\n", low - 1) + 1;
  return { diff: diff.slice(0, end), cut: true };
}
