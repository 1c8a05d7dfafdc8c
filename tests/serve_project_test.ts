/**
 * End to end: `lazyshell serve --project FILE` as a real subprocess — an
 * invalid project file is one file:line error and starts nothing; a valid
 * one starts its sessions, and a watcher's match reaches the fallback
 * notification command (README: Project file; docs/notifications.md).
 */

import assert from "node:assert/strict";
import { TEST_SHELL } from "../src/session/test_util.ts";
import { lazyshell, type ServeChild, spawnServe } from "../tools/abuse/server.ts";

function tempHome() {
  const base = Deno.makeTempDirSync({ prefix: "lzs-project-" });
  Deno.mkdirSync(`${base}/config/lazyshell`, { recursive: true });
  Deno.writeTextFileSync(
    `${base}/config/lazyshell/config.yml`,
    `shell: ${TEST_SHELL}\nnotify:\n  fallback_command: "cat >> '${base}/notified'"\n`,
  );
  Deno.mkdirSync(`${base}/run`);
  Deno.mkdirSync(`${base}/proj/api`, { recursive: true });
  const env: Record<string, string> = {
    PATH: Deno.env.get("PATH") ?? "/usr/bin:/bin",
    HOME: base,
    PS1: "$ ",
    XDG_CONFIG_HOME: `${base}/config`,
    XDG_DATA_HOME: `${base}/data`,
    XDG_RUNTIME_DIR: `${base}/run`,
    NO_COLOR: "1",
  };
  return { base, env };
}

function serve(env: Record<string, string>, cwd: string, ...args: string[]) {
  return spawnServe(env, { cwd, args });
}

async function waitForFile(path: string, predicate: (text: string) => boolean, ms = 20_000) {
  const until = Date.now() + ms;
  for (;;) {
    const text = await Deno.readTextFile(path).catch(() => "");
    if (predicate(text)) return text;
    if (Date.now() > until) {
      throw new Error(`Timed out waiting for ${path}: ${JSON.stringify(text)}`);
    }
    await new Promise((r) => setTimeout(r, 50));
  }
}

Deno.test("serve --project: an invalid file is file:line: reason, exit 2, nothing started", async () => {
  const { base, env } = tempHome();
  try {
    const file = `${base}/proj/lazyshell.yml`;
    Deno.writeTextFileSync(
      file,
      `sessions:\n  - name: api\n    command: touch ${base}/started; sleep 30\n  - name: web\n    watch:\n      - pattern: "(oops"\n`,
    );
    const child = serve(env, `${base}/proj`);
    const [status, stderr] = await Promise.all([child.child.status, child.ended]);
    assert.equal(status.code, 2, stderr);
    assert.equal(
      stderr.trim(),
      `lazyshell: ${file}:6: sessions[1].watch[0].pattern: Invalid pattern "(oops": Unterminated group`,
    );
    assert.equal(await Deno.stat(`${base}/started`).catch(() => null), null);
  } finally {
    await Deno.remove(base, { recursive: true });
  }
});

Deno.test("serve --project: sessions start, a watcher match reaches the fallback command", async () => {
  const { base, env } = tempHome();
  try {
    const file = `${base}/proj/other.yml`;
    Deno.writeTextFileSync(
      file,
      `sessions:
  - name: api
    cwd: api
    env: { GREETING: hello }
    command: >-
      echo "$GREETING from $(basename "$PWD")" > ../api-ran;
      while [ ! -e ../go ]; do sleep 0.05; done;
      echo "npm ERR! missing script"; sleep 30
    watch:
      - pattern: "ERR!"
`,
    );
    const child = serve(env, base, "--project", "proj/other.yml");
    try {
      assert.equal(
        await waitForFile(`${base}/proj/api-ran`, (t) => t.endsWith("\n")),
        "hello from api\n",
      );
      Deno.writeTextFileSync(`${base}/proj/go`, "");
      const notified = await waitForFile(`${base}/notified`, (t) => t.endsWith("\n"));
      assert.equal(notified, "api: ERR! matched — npm ERR! missing script\n");
    } finally {
      await child.stop();
    }
  } finally {
    await Deno.remove(base, { recursive: true });
  }
});

/** Waits until `file` exists (a session ran), then ends serve. */
async function serveUntil(child: ServeChild, file: string): Promise<void> {
  try {
    await waitForFile(file, () => true);
  } finally {
    await child.stop();
  }
}

Deno.test("serve: an untrusted ./lazyshell.yml starts nothing until `lazyshell trust`; a change untrusts it", async () => {
  const { base, env } = tempHome();
  const proj = `${base}/proj`;
  const file = `${proj}/lazyshell.yml`;
  try {
    Deno.writeTextFileSync(file, `sessions:\n  - name: api\n    command: touch ${base}/ran\n`);
    const refused = await lazyshell(env, ["serve"], proj);
    assert.equal(refused.code, 2);
    assert.equal(
      refused.stderr,
      `lazyshell: New or changed project file, not trusted yet: ${file}: review it, then ` +
        `\`lazyshell trust ${file}\` or start with --yes\n`,
    );
    assert.equal(await Deno.stat(`${base}/ran`).catch(() => null), null);

    const trusted = await lazyshell(env, ["trust"], proj);
    assert.equal(trusted.code, 0, trusted.stderr);
    assert.match(
      trusted.stdout,
      new RegExp(`^Trusted ${file}; it starts:\n  api  touch ${base}/ran  in ${proj}\n$`),
    );
    const state = `${base}/.local/state/lazyshell`;
    assert.equal(Deno.statSync(state).mode! & 0o777, 0o700);
    assert.equal(Deno.statSync(`${state}/trust.json`).mode! & 0o777, 0o600);
    await serveUntil(serve(env, proj), `${base}/ran`);

    Deno.writeTextFileSync(file, `sessions:\n  - name: api\n    command: touch ${base}/changed\n`);
    const again = await lazyshell(env, ["serve"], proj);
    assert.equal(again.code, 2);
    assert.match(again.stderr, /^lazyshell: New or changed project file, not trusted yet: /);
    await serveUntil(serve(env, proj, "--yes"), `${base}/changed`);
  } finally {
    await Deno.remove(base, { recursive: true });
  }
});
