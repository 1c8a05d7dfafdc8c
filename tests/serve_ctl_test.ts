/**
 * End to end: `lazyshell serve` and `lazyshell ctl` as real subprocesses,
 * found through the runtime directory, ended by SIGTERM (docs/control-api.md).
 */

import assert from "node:assert/strict";
import { isAlive } from "../src/session/procinfo.ts";
import { TEST_SHELL } from "../src/session/test_util.ts";
import { lazyshell, spawnServe } from "../tools/abuse/server.ts";

function tempHome(control: boolean) {
  const base = Deno.makeTempDirSync({ prefix: "lzs-e2e-" });
  Deno.mkdirSync(`${base}/config/lazyshell`, { recursive: true });
  Deno.writeTextFileSync(
    `${base}/config/lazyshell/config.yml`,
    `control:\n  enabled: ${control}\nshell: ${TEST_SHELL}\n`,
  );
  Deno.mkdirSync(`${base}/run`);
  const env: Record<string, string> = {
    PATH: Deno.env.get("PATH") ?? "/usr/bin:/bin",
    HOME: base,
    PS1: "$ ",
    XDG_CONFIG_HOME: `${base}/config`,
    XDG_RUNTIME_DIR: `${base}/run`,
    NO_COLOR: "1",
  };
  return { base, env };
}

const ctl = (env: Record<string, string>, ...args: string[]) => lazyshell(env, ["ctl", ...args]);

/** Starts serve and resolves once it printed its ready line. */
async function serve(env: Record<string, string>, ...args: string[]) {
  const child = spawnServe(env, { args });
  return { child, ready: await child.ready };
}

Deno.test("serve + ctl: sessions driven from another process, all ended on SIGTERM", async () => {
  const { base, env } = tempHome(true);
  const server = await serve(env);
  try {
    assert.match(server.ready, /control: .*\/control\.sock/);
    const created = await ctl(env, "new", "--name", "e2e", "--command", "bash --norc --noprofile");
    assert.deepEqual([created.code, created.stdout.trim(), created.stderr], [0, "session-1", ""]);
    const sent = await ctl(env, "send", "e2e", "echo e2e-$((20+3))", "--enter");
    assert.equal(sent.code, 0, sent.stderr);
    const listed = await ctl(env, "list", "--json");
    assert.equal(listed.code, 0);
    const response = JSON.parse(listed.stdout);
    assert.equal(response.ok, true);
    const [entry] = response.result.sessions;
    assert.equal(entry.name, "e2e");
    assert.ok(isAlive(entry.pid));
    const human = await ctl(env, "list");
    assert.match(human.stdout, /^ID\s+NAME\s+GROUP\s+STATUS/);

    const missing = await ctl(env, "wait", "ghost", "--state", "idle");
    assert.equal(missing.code, 1);
    assert.equal(missing.stderr, "lazyshell ctl: No session with id or name: ghost\n");
    const usage = await ctl(env, "read");
    assert.equal(usage.code, 2);
    assert.match(usage.stderr, /^lazyshell ctl: Missing TARGET \(usage: lazyshell ctl read TARGET/);
    const help = await ctl(env, "--help");
    assert.equal(help.code, 0);
    assert.match(help.stdout, /group-send GROUP TEXT \[--enter\]/);

    const status = await server.child.stop();
    assert.equal(status.code, 0, server.child.stderr());
    assert.ok(!isAlive(entry.pid), "the session's child outlived serve");
    assert.deepEqual([...Deno.readDirSync(`${base}/run/lazyshell`)], []);
    const gone = await ctl(env, "list");
    assert.equal(gone.code, 2);
    assert.equal(
      gone.stderr,
      "lazyshell ctl: No running lazyshell instance: start `lazyshell` or `lazyshell serve`\n",
    );
  } finally {
    await server.child.stop("SIGKILL");
    Deno.removeSync(base, { recursive: true });
  }
});

Deno.test("ctl says how to enable the control API when it is off", async () => {
  const { base, env } = tempHome(false);
  try {
    const off = await ctl(env, "list");
    assert.equal(off.code, 2);
    assert.equal(
      off.stderr,
      `lazyshell ctl: The control API is off: set \`control: {enabled: true}\` in ${base}/config/lazyshell/config.yml, then start lazyshell\n`,
    );
    const server = await serve(env);
    try {
      assert.match(server.ready, /control API off/);
      const running = await ctl(env, "list");
      assert.equal(running.code, 2);
      assert.match(
        running.stderr,
        /control API is off \(lazyshell pid \d+ runs without it\): .*, then run `lazyshell reload`/,
      );
      const bad = await ctl({ ...env, LAZYSHELL_CONTROL: `${base}/nothing.sock` }, "list");
      assert.match(bad.stderr, /No control socket at .*nothing\.sock/);
    } finally {
      assert.equal((await server.child.stop()).code, 0);
    }
  } finally {
    Deno.removeSync(base, { recursive: true });
  }
});

Deno.test("serve --project starts its sessions; a SIGKILLed instance is not found and gets pruned", async () => {
  const { base, env } = tempHome(true);
  Deno.writeTextFileSync(
    `${base}/lazyshell.yml`,
    "sessions:\n  - name: api\n    command: sleep 120\n    group: backend\n",
  );
  const first = await serve(env, "--project", `${base}/lazyshell.yml`);
  let pid = 0;
  try {
    assert.match(first.ready, /1 project session,/);
    const listed = await ctl(env, "list", "--group", "backend", "--json");
    const [api] = JSON.parse(listed.stdout).result.sessions;
    assert.equal(api.name, "api");
    pid = api.pid;
    await first.child.stop("SIGKILL");
    const dead = await ctl(env, "list");
    assert.equal(dead.code, 2);
    assert.match(dead.stderr, /No running lazyshell instance/);
    // The next instance prunes the dead one's directory and listens normally.
    const second = await serve(env);
    try {
      const left = [...Deno.readDirSync(`${base}/run/lazyshell`)].map((e) => e.name).sort();
      assert.deepEqual(left, [String(second.child.pid), "server-default.sock"].sort());
      assert.equal((await ctl(env, "list")).code, 0);
    } finally {
      await second.child.stop();
    }
  } finally {
    await first.child.stop("SIGKILL");
    // The SIGKILLed instance could not end its child: do it here.
    if (pid && isAlive(pid)) Deno.kill(pid, "SIGKILL");
    Deno.removeSync(base, { recursive: true });
  }
});

Deno.test("ctl talks to the server -L NAME or LAZYSHELL_SERVER names, else the default one", async () => {
  const { base, env } = tempHome(true);
  const first = await serve(env);
  const other = await serve({ ...env, LAZYSHELL_SERVER: "other" });
  const names = async (e: Record<string, string>, ...pre: string[]) => {
    const r = await lazyshell(e, [...pre, "ctl", "list", "--json"]);
    assert.equal(r.code, 0, r.stderr);
    return JSON.parse(r.stdout).result.sessions.map((s: { name: string }) => s.name);
  };
  try {
    const a = await ctl(env, "new", "--name", "in-default", "--command", "sleep 60");
    assert.equal(a.code, 0, a.stderr);
    const b = await lazyshell(env, [
      "-L",
      "other",
      "ctl",
      "new",
      "--name",
      "in-other",
      "--command",
      "sleep 60",
    ]);
    assert.equal(b.code, 0, b.stderr);
    assert.deepEqual(await names(env), ["in-default"]);
    assert.deepEqual(await names(env, "-L", "other"), ["in-other"]);
    assert.deepEqual(await names({ ...env, LAZYSHELL_SERVER: "other" }), ["in-other"]);
    assert.deepEqual(await names(env, "-L", "default"), ["in-default"]);
    // Inside a session of the default server: -L still picks the other one.
    const control = JSON.parse((await ctl(env, "list", "--json")).stdout);
    assert.equal(control.ok, true);
    const inSession = {
      ...env,
      LAZYSHELL_CONTROL: `${base}/run/lazyshell/${first.child.pid}/control.sock`,
    };
    assert.deepEqual(await names(inSession), ["in-default"]);
    assert.deepEqual(await names(inSession, "-L", "other"), ["in-other"]);
    const none = await lazyshell(env, ["-L", "nope", "ctl", "list"]);
    assert.equal(none.code, 2);
    assert.equal(
      none.stderr,
      "lazyshell ctl: No lazyshell server named nope is running (running: default, other): " +
        "start it with `lazyshell -L nope`\n",
    );
  } finally {
    await other.child.stop();
    await first.child.stop();
    Deno.removeSync(base, { recursive: true });
  }
});
