import assert from "node:assert/strict";
import { Runtime } from "../runtime/runtime.ts";
import { startSockets } from "../runtime/sockets.ts";
import { TrustStore } from "../config/trust.ts";
import { TEST_SHELL, testEnv, waitFor } from "../session/test_util.ts";
import { reload } from "./reload.ts";

/** A runtime reading config.yml and agents/ from a temp XDG_CONFIG_HOME, as a server does. */
function setup(config: string) {
  const dir = Deno.makeTempDirSync({ prefix: "lazyshell-reload-" });
  Deno.mkdirSync(`${dir}/config/lazyshell/agents`, { recursive: true });
  Deno.mkdirSync(`${dir}/run`, { mode: 0o700 });
  const file = `${dir}/config/lazyshell/config.yml`;
  const write = (text: string) => Deno.writeTextFileSync(file, `shell: ${TEST_SHELL}\n${text}`);
  write(config);
  const env = testEnv({
    XDG_CONFIG_HOME: `${dir}/config`,
    XDG_DATA_HOME: `${dir}/data`,
    XDG_RUNTIME_DIR: `${dir}/run`,
  });
  const runtime = new Runtime({ env, cwd: dir });
  return {
    dir,
    file,
    env,
    runtime,
    write,
    async [Symbol.asyncDispose]() {
      await runtime[Symbol.asyncDispose]();
      Deno.removeSync(dir, { recursive: true });
    },
  };
}

Deno.test("reload: notify, keys, stats and shell settings replace the running ones", async () => {
  await using t = setup("keys: { new: m }\n");
  assert.deepEqual(t.runtime.config.keys, { new: "m" });
  t.write(
    "keys: { new: b }\nnotify: { fallback_command: 'cat > /dev/null', rate_limit_seconds: 7 }\n" +
      "agent_stats_command: 'echo stats'\nscrollback: 123\n",
  );
  const report = await reload(t.runtime, null);
  assert.equal(report.ok, true, report.lines.join("\n"));
  assert.match(report.lines[0]!, /^Reloaded .*config\.yml, \d+ agent manifests$/);
  assert.deepEqual(report.message, { text: "Config reloaded", error: false });
  assert.deepEqual(t.runtime.config.keys, { new: "b" });
  assert.equal(t.runtime.fallbackCommand, "cat > /dev/null");
  assert.equal(t.runtime.config.scrollback, 123);
});

Deno.test("reload: any problem is refused with its file:line and the running config stays", async () => {
  await using t = setup("keys: { new: m }\n");
  const before = t.runtime.loaded;
  // A bad value, a key bound twice, a broken manifest: each is refused.
  t.write("keys: { new: m }\nscrollback: lots\n");
  let report = await reload(t.runtime, null);
  assert.equal(report.ok, false);
  assert.match(report.lines[0]!, new RegExp(`^${t.file}:3: scrollback: `));
  assert.equal(report.lines.at(-1), "Reload refused (1 problem): the running config stays");
  assert.match(report.message.text, /^Config not reloaded: .*config\.yml:3: scrollback/);
  t.write("keys: { new: j }\n");
  report = await reload(t.runtime, null);
  assert.equal(report.ok, false);
  assert.match(report.lines[0]!, new RegExp(`^${t.file}:2: keys\\.new: Key j is bound to both`));
  t.write("keys: { new: b }\n");
  const agent = `${t.dir}/config/lazyshell/agents/broken.yml`;
  Deno.writeTextFileSync(agent, "id: broken\nrules:\n  - id: x\n    state: idle\n    any: ['(']\n");
  report = await reload(t.runtime, null);
  assert.equal(report.ok, false);
  assert.match(report.lines[0]!, new RegExp(`^${agent}:\\d+: .*fix or remove that file$`));
  assert.equal(t.runtime.loaded, before, "nothing was applied");
  assert.deepEqual(t.runtime.config.keys, { new: "m" });
  Deno.removeSync(agent);
  assert.equal((await reload(t.runtime, null)).ok, true);
  assert.deepEqual(t.runtime.config.keys, { new: "b" });
});

Deno.test("reload: a new manifest identifies and classifies a session that already runs", async () => {
  await using t = setup("");
  const session = t.runtime.createSession({ command: "printf 'APPROVE-ME\\n'; exec sleep 600" });
  await waitFor(session, () => session.visibleLines().some((l) => l.includes("APPROVE-ME")));
  // Nothing knows `sleep` yet: settled as a plain session.
  await new Promise((r) => setTimeout(r, 300));
  assert.equal(t.runtime.view(session.id)?.agent, null);
  Deno.writeTextFileSync(
    `${t.dir}/config/lazyshell/agents/sleeper.yml`,
    "id: sleeper\nidentity: { processes: [sleep] }\n" +
      "rules:\n  - id: asks\n    state: blocked\n    any: ['APPROVE-ME']\n",
  );
  const report = await reload(t.runtime, null);
  assert.equal(report.ok, true, report.lines.join("\n"));
  const view = t.runtime.view(session.id)!;
  assert.equal(view.agent, "sleeper");
  assert.equal(view.hasRules, true);
  assert.equal(view.agentStatus?.state, "blocked");
  assert.equal(view.agentStatus?.ruleId, "asks");
});

Deno.test("reload: control.enabled starts and stops the control socket; sessions started then know", async () => {
  await using t = setup("");
  const sockets = await startSockets(t.runtime);
  const control = () => sockets.control;
  assert.equal(control(), null);
  t.write("control: { enabled: true }\n");
  assert.equal((await reload(t.runtime, null)).ok, true);
  const path = control()?.path;
  assert.ok(path && Deno.lstatSync(path).isSocket, "listening");
  const on = t.runtime.createSession({ command: "sleep 60" });
  assert.equal(on.env.LAZYSHELL_CONTROL, path);
  t.write("control: { enabled: false }\n");
  assert.equal((await reload(t.runtime, null)).ok, true);
  assert.equal(control(), null);
  assert.throws(() => Deno.lstatSync(path), Deno.errors.NotFound);
  const off = t.runtime.createSession({ command: "sleep 60" });
  assert.equal(off.env.LAZYSHELL_CONTROL, undefined);
});

Deno.test("reload: the project file's watchers follow it; a changed implicit file must be trusted again", async () => {
  await using t = setup("");
  const project = `${t.dir}/lazyshell.yml`;
  const write = (pattern: string) =>
    Deno.writeTextFileSync(
      project,
      `sessions:\n  - name: api\n    command: sleep 600\n    watch:\n      - pattern: ${pattern}\n`,
    );
  write("FIRST");
  const trust = new TrustStore(t.env);
  trust.remember(project, Deno.readTextFileSync(project), "allow");
  t.runtime.declareWatches("api", [{ pattern: "FIRST", notify: true }]);
  t.runtime.createSession({ name: "api", command: "sleep 600" });
  const patterns = () => t.runtime.state.watchers.map((w) => w.pattern);
  assert.deepEqual(patterns(), ["FIRST"]);
  write("SECOND");
  const source = { file: project, named: false };
  const refused = await reload(t.runtime, source);
  assert.equal(refused.ok, false);
  assert.match(refused.lines[0]!, /^Changed project file, not trusted yet: .*lazyshell trust/);
  assert.deepEqual(patterns(), ["FIRST"]);
  trust.remember(project, Deno.readTextFileSync(project), "allow");
  const report = await reload(t.runtime, source);
  assert.equal(report.ok, true, report.lines.join("\n"));
  assert.deepEqual(patterns(), ["SECOND"]);
  // Named with --project: trusted as named. Removed: its watchers go.
  write("THIRD");
  assert.equal((await reload(t.runtime, { file: project, named: true })).ok, true);
  assert.deepEqual(patterns(), ["THIRD"]);
  Deno.removeSync(project);
  const gone = await reload(t.runtime, source);
  assert.equal(gone.ok, true);
  assert.match(gone.lines[1]!, /Project file not found: .*: its watchers are removed/);
  assert.deepEqual(patterns(), []);
});
