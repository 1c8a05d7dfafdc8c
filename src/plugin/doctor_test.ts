import assert from "node:assert/strict";
import { isAlive } from "../session/procinfo.ts";
import { checkPlugin } from "./doctor.ts";
import type { PluginEntry } from "./discovery.ts";
import { spawnGroup } from "./procgroup_posix.ts";
import { fixture } from "./test_util.ts";

const entry = (id: string): PluginEntry => ({
  id,
  command: [fixture(id)],
  builtin: false,
  source: fixture(id),
});

function options(doctorTimeoutMs = 30_000) {
  const data = Deno.makeTempDirSync({ prefix: "lazyshell-doctor-" });
  return {
    env: { HOME: "/tmp", PATH: Deno.env.get("PATH") ?? "", XDG_DATA_HOME: data },
    sections: {},
    spawn: spawnGroup,
    doctorTimeoutMs,
    data,
  };
}

Deno.test("a good plugin passes its handshake and its own doctor", async () => {
  const findings = await checkPlugin(entry("good"), options());
  assert.equal(findings.length, 2);
  assert.match(findings[0]!.text, /^good: handshake ok \("Good", manifest in \d+ ms\)$/);
  assert.deepEqual(findings[1], { ok: true, text: "good: its own doctor passed" });
});

Deno.test("a plugin's doctor problems are reported one per line", async () => {
  const findings = await checkPlugin(entry("bad_doctor"), options());
  assert.deepEqual(findings.slice(1), [
    { ok: false, text: "bad_doctor: API token missing: set bad_doctor.token in config.yml" },
    { ok: false, text: "bad_doctor: cache dir not writable: chmod u+w ~/.cache/bad" },
  ]);
});

Deno.test("a failed handshake says why, with the stderr tail", async () => {
  const [finding] = await checkPlugin(entry("not_json"), options());
  assert.equal(finding!.ok, false);
  assert.match(
    finding!.text,
    /^not_json: Not a JSON line: "hello, world" \(stderr: about to misbehave\)/,
  );
});

Deno.test("a doctor over its time limit is killed with its process tree", async () => {
  const o = options(1500);
  const findings = await checkPlugin(entry("slow_doctor"), o);
  assert.equal(findings[1]!.ok, false);
  assert.match(
    findings[1]!.text,
    /did not finish within 1\.5 s and was killed with its process tree/,
  );
  const pid = Number(
    Deno.readTextFileSync(`${o.data}/lazyshell/plugins/slow_doctor/grandchild.pid`),
  );
  for (let i = 0; i < 1200 && isAlive(pid); i++) await new Promise((r) => setTimeout(r, 25));
  assert.equal(isAlive(pid), false, "the doctor's grandchild is gone");
});
