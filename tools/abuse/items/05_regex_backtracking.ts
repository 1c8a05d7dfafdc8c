/**
 * Item 5: a regex that backtracks for ever in V8 — `(a+)+$` as a user
 * manifest rule and as a project-file watcher — while sessions print lines
 * of `a`s ended by `!` ten times a second. Bound: serve keeps answering,
 * `ctl list` p99 ≤ 250 ms over the run.
 */

import { type AbuseItem, result } from "../item.ts";
import { percentiles, sampleList, startServe } from "../server.ts";

const EVIL = "(a+)+$";
const LOOP = `while :; do printf '${"a".repeat(40)}!\\\\n'; sleep 0.1; done`;

const item: AbuseItem = {
  id: "05",
  server: false,
  title: "regex backtracking: (a+)+$ as a manifest rule and a watcher",
  async run(ctx) {
    await using server = await startServe({
      args: ["--project", "lazyshell.yml"],
      files: {
        "config/lazyshell/agents/bomb.yml":
          `id: bomb\nidentity:\n  processes: [bash]\nrules:\n  - id: bomb\n    state: working\n    any: ['${EVIL}']\n`,
        "lazyshell.yml":
          `sessions:\n  - name: watched\n    command: "${LOOP}"\n    watch:\n      - pattern: '${EVIL}'\n`,
      },
    });
    await server.call("new", { name: "ruled", command: LOOP });
    const until = performance.now() + 10_000;
    const { samples, failures } = await sampleList(server, () => performance.now() < until);
    const { p50, p99, max } = percentiles(samples);
    ctx.log?.(`ctl list ×${samples.length}: p50 ${p50.toFixed(0)} ms, p99 ${p99.toFixed(0)} ms`);
    return result(
      failures === 0 && p99 <= 250,
      `regex backtracking: ctl list p50 ${p50.toFixed(0)} ms, p99 ${p99.toFixed(0)} ms, ` +
        `max ${max.toFixed(0)} ms over 10 s, ${failures} unanswered (bound: p99 ≤ 250 ms)`,
    );
  },
};

export default item;
