/**
 * The chaos run (tools/chaos/), one minute of it: a real server, 16
 * sessions printing every kind of output, 4 clients of random sizes (real
 * PTY clients and relaying clients) attaching, typing, switching to the
 * plugin tabs, resizing and leaving at random, `ctl` load. Nothing may end
 * the server, drop a client that did not ask to leave, or reach crash.log;
 * the server's peak memory stays under the run's bound. The report is
 * printed either way; a failure names the seed to replay it with
 * (`deno task chaos --seed N --minutes 1`). CHAOS_SEED and CHAOS_MINUTES
 * change the run.
 */

import assert from "node:assert/strict";

const CHAOS = new URL("../tools/chaos/main.ts", import.meta.url).pathname;

Deno.test({
  name: "chaos, one minute: no server death, no client dropped, crash.log empty, memory bounded",
  ignore: Deno.build.os !== "linux", // /proc, PTYs
}, async () => {
  const seed = Deno.env.get("CHAOS_SEED") ?? "1";
  const minutes = Deno.env.get("CHAOS_MINUTES") ?? "1";
  const out = await new Deno.Command(Deno.execPath(), {
    args: ["run", "-A", "--quiet", CHAOS, "--seed", seed, "--minutes", minutes],
    stdin: "null",
    stdout: "piped",
    stderr: "piped",
  }).output();
  const text = new TextDecoder().decode(out.stdout);
  const errors = new TextDecoder().decode(out.stderr);
  console.log(text.trimEnd());
  assert.equal(out.code, 0, `the chaos run failed (exit ${out.code}):\n${text}\n${errors}`);
  assert.match(text, /^server deaths +0$/m);
  assert.match(text, /^crash\.log +0 failure/m);
  assert.match(text, /^held$/m);
});
