/**
 * End to end: a user manifest rule and a project-file watcher that make a
 * backtracking engine run for ever — `(a+)+$` against a line of `a`s ended
 * by `!` — leave lazyshell serve answering (detect/regex.ts matches in
 * linear time). With V8's engine the server stopped answering at all.
 */

import assert from "node:assert/strict";
import { startServe } from "../tools/abuse/server.ts";

const EVIL = "(a+)+$";
const LINE = "a".repeat(40);

Deno.test("a backtracking-bomb rule or watcher does not stall serve", async () => {
  await using server = await startServe({
    args: ["--project", "lazyshell.yml"],
    files: {
      "config/lazyshell/agents/bomb.yml": [
        "id: bomb",
        "identity:",
        "  processes: [sleep]",
        "rules:",
        "  - id: bomb",
        "    state: working",
        `    any: ['${EVIL}']`,
        "",
      ].join("\n"),
      "lazyshell.yml": [
        "sessions:",
        "  - name: watched",
        `    command: "printf '${LINE}!\\\\n'; exec sleep 600"`,
        "    watch:",
        `      - pattern: '${EVIL}'`,
        "",
      ].join("\n"),
    },
  });
  await server.call("new", { name: "ruled", command: `printf '${LINE}!\\n'; exec sleep 600` });
  // Both sessions printed the line, the rule ran on their screens: serve still answers.
  // Each call answers in time or fails (30 s: a loaded machine is slow; a stalled serve never
  // answers).
  const deadline = Date.now() + 30_000;
  for (;;) {
    const read = await server.call("read", { target: "ruled" });
    assert.ok(read.ok);
    if ((read.result as { lines: string[] }).lines.some((l) => l.endsWith("!"))) break;
    assert.ok(Date.now() < deadline, "the session never printed its line");
    await new Promise((r) => setTimeout(r, 50));
  }
  // The agent is found by polling each session's foreground process: give it its polls.
  let agents: [string, string | null][] = [];
  while (Date.now() < deadline + 15_000) {
    const listed = await server.call("list", {});
    assert.ok(listed.ok);
    const sessions = (listed.result as { sessions: { name: string; agent: string | null }[] })
      .sessions;
    agents = sessions.map((s) => [s.name, s.agent]);
    if (agents.every(([, agent]) => agent !== null)) break;
    await new Promise((r) => setTimeout(r, 200));
  }
  assert.deepEqual(agents, [["watched", "bomb"], ["ruled", "bomb"]]);
});

Deno.test("a pattern the linear engine cannot take is refused at load with file and line", async () => {
  await using server = await startServe({
    files: {
      "config/lazyshell/agents/look.yml":
        "id: look\nrules:\n  - id: ahead\n    state: working\n    any: ['a(?=b)']\n",
    },
  });
  assert.match(
    server.stderr(),
    /look\.yml:5: Invalid regex "a\(\?=b\)": Lookahead \(\?= is not supported \(patterns match in linear time\)/,
  );
});
