import assert from "node:assert/strict";
import { parseConfig } from "../config/config.ts";
import { ConfigError, UserError } from "../errors.ts";
import { launchProject } from "./project.ts";
import { Runtime } from "./runtime.ts";
import { TEST_SHELL, testEnv } from "../session/test_util.ts";

async function withDir(body: (dir: string, runtime: Runtime) => Promise<void>) {
  const dir = await Deno.realPath(await Deno.makeTempDir());
  const runtime = new Runtime({
    env: testEnv({ XDG_DATA_HOME: dir }),
    config: parseConfig(`shell: ${TEST_SHELL}\n`, "config.yml"),
    cwd: dir,
  });
  try {
    await body(dir, runtime);
  } finally {
    await runtime[Symbol.asyncDispose]();
    await Deno.remove(dir, { recursive: true });
  }
}

Deno.test("launchProject() starts lazyshell.yml's sessions with cwd, group, env and watchers", async () => {
  await withDir(async (dir, runtime) => {
    await Deno.mkdir(`${dir}/api`);
    await Deno.writeTextFile(
      `${dir}/lazyshell.yml`,
      `sessions:
  - name: api
    command: read -r go; echo "$PWD $PORT"; echo "npm ERR! boom"
    cwd: api
    group: backend
    env: { PORT: 3000 }
    watch:
      - pattern: "ERR!"
  - name: shell
`,
    );
    const written: string[] = [];
    runtime.notifyTo((b) => written.push(b));
    const sessions = launchProject(runtime, { cwd: dir });
    assert.deepEqual(sessions.map((s) => [s.name, s.cwd, s.group]), [
      ["api", `${dir}/api`, "backend"],
      ["shell", dir, null],
    ]);
    const api = sessions[0]!;
    api.write("go\n", false);
    await api.exited;
    assert.ok(api.terminal.tail(10).lines.includes(`${dir}/api 3000`));
    assert.equal(written.length, 1);
    assert.match(written[0]!, /api: ERR! matched — npm ERR! boom/);
    // A restart (remove, create the same name) keeps the file's watchers.
    runtime.store.remove(api.id);
    const again = runtime.createSession({ name: "api", command: "true" });
    const watched = (id: string) =>
      runtime.state.watchers.filter((w) => w.session === id).map((w) => [w.pattern, w.source]);
    assert.deepEqual(watched(again.id), [["ERR!", "file"]]);
    assert.deepEqual(watched(sessions[1]!.id), []);
  });
});

Deno.test("launchProject() without a file starts nothing; a missing --project is an error", async () => {
  await withDir((dir, runtime) => {
    assert.deepEqual(launchProject(runtime, { cwd: dir }), []);
    assert.throws(
      () => launchProject(runtime, { cwd: dir, file: "other.yml" }),
      (e) => e instanceof UserError && e.message === `Project file not found: ${dir}/other.yml`,
    );
    return Promise.resolve();
  });
});

Deno.test("launchProject(): an invalid file starts nothing and names file:line:reason", async () => {
  await withDir(async (dir, runtime) => {
    const file = `${dir}/p.yml`;
    const cases: [string, RegExp][] = [
      [
        "sessions:\n  - name: a\n  - name: b\n    watch:\n      - pattern: '['\n",
        /:5: .*Invalid pattern/,
      ],
      ["sessions:\n  - name: a\n  - name: b\n    cwd: nowhere\n", /:4: .*Directory does not exist/],
      [
        "sessions:\n  - name: a\n  - name: b\n    colour: red\n",
        /:4: Unknown key sessions\[1\]\.colour/,
      ],
      ["sessions:\n  - name: a\n  - name: b\n    env: 3\n", /:4: sessions\[1\]\.env: /],
      ["sessions:\n  - name: a\n  - name: b\n  command: x\n", /p\.yml:\d+: /],
      // Valid YAML, but the command is not on PATH: the first session is rolled back.
      [
        "sessions:\n  - name: a\n  - name: b\n    command: no-such-program-xyz\n",
        /:3: b: Command not found: no-such-program-xyz$/,
      ],
    ];
    for (const [text, expected] of cases) {
      await Deno.writeTextFile(file, text);
      assert.throws(() => launchProject(runtime, { cwd: dir, file: "p.yml" }), (e) => {
        assert.ok(e instanceof ConfigError, String(e));
        assert.ok(e.message.startsWith(`${file}:`), e.message);
        assert.match(e.message, expected);
        return true;
      });
      assert.deepEqual(runtime.state.sessions, [], `a session was left from:\n${text}`);
    }
  });
});
