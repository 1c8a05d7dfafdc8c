/**
 * The state file survives `kill -9` of its writer at any moment (docs/restore.md):
 * a real process writing under load (tests/restore/writer_child.ts) is killed
 * with SIGKILL at random moments; after each kill the file must parse whole and
 * hold every session of the last write the writer reported complete. Here a
 * few trials; `deno run -A tools/restore_kill.ts` runs 100 against the real
 * server (`lazyshell serve` creating sessions through the control API).
 */

import assert from "node:assert/strict";
import { parseState } from "../src/restore/state_file.ts";
import { loadState } from "../src/restore/restore.ts";

const CHILD = new URL("./restore/writer_child.ts", import.meta.url).pathname;
const TRIALS = Number(Deno.env.get("RESTORE_KILL_TRIALS") ?? "8");

Deno.test(`the state file parses whole after kill -9 of its writer at random moments (${TRIALS} trials)`, async () => {
  const dir = await Deno.makeTempDir({ prefix: "lzs-kill-" });
  const file = `${dir}/sessions-default.jsonl`;
  try {
    for (let trial = 0; trial < TRIALS; trial++) {
      const child = new Deno.Command(Deno.execPath(), {
        args: ["run", "-A", "--quiet", CHILD, file],
        stdin: "null",
        stdout: "piped",
        stderr: "inherit",
      }).spawn();
      let completed = 0;
      const first = Promise.withResolvers<void>();
      const reading = (async () => {
        const decoder = new TextDecoder();
        let buf = "";
        for await (const chunk of child.stdout) {
          buf += decoder.decode(chunk, { stream: true });
          for (const m of buf.matchAll(/written (\d+)\n/g)) completed = Number(m[1]);
          buf = buf.slice(buf.lastIndexOf("\n") + 1);
          first.resolve();
        }
      })();
      await first.promise;
      // A random moment in the middle of the writes: some land mid-write, mid-fsync, mid-rename.
      await new Promise((r) => setTimeout(r, 5 + Math.random() * 150));
      const before = completed;
      child.kill("SIGKILL");
      await child.status;
      await reading;
      const parsed = parseState(Deno.readTextFileSync(file));
      assert.deepEqual(parsed.problems, [], `trial ${trial}: the file parses whole`);
      const names = parsed.sessions.map((s) => s.name);
      assert.ok(names.length >= before, `trial ${trial}: ${names.length} < ${before} reported`);
      assert.deepEqual(names, names.map((_, i) => `s-${i + 1}`), `trial ${trial}: no gap`);
      // A new server finds the file whole (and sweeps the killed writer's temp file).
      assert.equal(loadState(file).problem, null);
      Deno.removeSync(file);
    }
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});
