/**
 * The Changes tab as lazyshell runs it: the real built-in plugin process (`lazyshell __plugin
 * changes serve`) on the wire of docs/plugin-protocol.md, over a real git worktree. An edit made
 * while the tab is shown appears in its next frames without a key (it reads git while shown).
 */

import assert from "node:assert/strict";
import { selfCommand } from "../src/plugin/self.ts";
import { LineSplitter } from "../src/util/lines.ts";
import { testRepo } from "../src/git/test_util.ts";
import { initMessage, sessionEntry } from "../src/plugin/test_util.ts";

Deno.test("the changes plugin process shows a worktree's edits as they happen", async () => {
  using repo = testRepo();
  const wt = repo.worktree("fix");
  repo.write(`${wt}/a.txt`, "one\nTWO\nthree\n");
  const [exe, ...args] = selfCommand();
  const child = new Deno.Command(exe!, {
    args: [...args, "__plugin", "changes", "serve"],
    stdin: "piped",
    stdout: "piped",
    stderr: "inherit",
  }).spawn();
  const writer = child.stdin.getWriter();
  const send = (m: unknown) => writer.write(new TextEncoder().encode(JSON.stringify(m) + "\n"));
  const reader = child.stdout.getReader();
  const splitter = new LineSplitter(1 << 20);
  const pending: string[] = [];
  /** Reads frames until one's view matches (the last frame wins, like the host's). */
  const frameMatching = async (pattern: RegExp): Promise<string> => {
    while (true) {
      while (pending.length > 0) {
        const message = JSON.parse(pending.shift()!);
        if (message.type === "frame" && pattern.test(message.view)) return message.view;
      }
      const { value, done } = await reader.read();
      if (done) throw new Error(`Plugin ended before a frame matched ${pattern}`);
      for (const item of splitter.push(value)) if (item.type === "line") pending.push(item.text);
    }
  };
  try {
    await send(initMessage("changes"));
    await send({
      type: "sessions",
      sessions: [sessionEntry({ name: "fix", cwd: wt })],
    });
    await send({ type: "visible", visible: true });
    const first = await frameMatching(/\+TWO/);
    assert.match(first, /a\.txt/);
    repo.write(`${wt}/later.txt`, "written while shown\n");
    const next = await frameMatching(/\+written while shown/);
    assert.match(next, /later\.txt/);
  } finally {
    await writer.close();
    await reader.cancel();
    const status = await child.status;
    assert.equal(status.code, 0, "exits at stdin EOF (its poll timer stopped)");
  }
});
