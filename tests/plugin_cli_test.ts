/**
 * End-to-end: the real CLI with a plugin directory — `lazyshell <id> args`
 * pass-through and `lazyshell doctor`.
 */

import assert from "node:assert/strict";

const MAIN = new URL("../main.ts", import.meta.url).pathname;
const ROOT = new URL("../", import.meta.url).pathname;

function setup(): Record<string, string> {
  const root = Deno.makeTempDirSync({ prefix: "lazyshell-cli-" });
  const dir = `${root}/config/lazyshell/plugins`;
  Deno.mkdirSync(dir, { recursive: true });
  Deno.copyFileSync(`${ROOT}examples/plugins/hello`, `${dir}/hello`);
  Deno.chmodSync(`${dir}/hello`, 0o755);
  Deno.writeTextFileSync(
    `${dir}/echoer.sh`,
    '#!/bin/sh\necho "args: $*"\ncat\necho oops >&2\nexit 5\n',
    {
      mode: 0o755,
    },
  );
  Deno.copyFileSync(`${ROOT}fixtures/plugins/bad_doctor`, `${dir}/bad_doctor`);
  Deno.chmodSync(`${dir}/bad_doctor`, 0o755);
  Deno.writeTextFileSync(`${dir}/stats`, "#!/bin/sh\n", { mode: 0o755 });
  return {
    HOME: root,
    PATH: Deno.env.get("PATH") ?? "/usr/bin:/bin",
    XDG_CONFIG_HOME: `${root}/config`,
    XDG_DATA_HOME: `${root}/data`,
    XDG_RUNTIME_DIR: root,
  };
}

async function run(env: Record<string, string>, args: string[], input = "") {
  const child = new Deno.Command(Deno.execPath(), {
    args: ["run", "-A", "--quiet", MAIN, ...args],
    env,
    clearEnv: true,
    stdin: "piped",
    stdout: "piped",
    stderr: "piped",
  }).spawn();
  const writer = child.stdin.getWriter();
  await writer.write(new TextEncoder().encode(input));
  await writer.close();
  const out = await child.output();
  const dec = new TextDecoder();
  return { code: out.code, stdout: dec.decode(out.stdout), stderr: dec.decode(out.stderr) };
}

Deno.test("lazyshell <id> passes arguments, stdin, stdout, stderr and the exit code", async () => {
  const env = setup();
  const echo = await run(env, ["echoer", "a", "--flag", "b c"], "from stdin\n");
  assert.equal(echo.stdout, "args: a --flag b c\nfrom stdin\n");
  assert.equal(echo.stderr, "oops\n");
  assert.equal(echo.code, 5);
  const hello = await run(env, ["hello", "x"]);
  assert.equal(hello.stdout, "hello from a plugin: x\nLAZYSHELL_PROTOCOL=1\n");
  assert.equal(hello.code, 0);
  const help = await run(env, ["--help"]);
  assert.match(
    help.stdout,
    /Plugin commands \(lazyshell <id> <args\.\.\.>\):\n {2}bad_doctor .*\n {2}echoer .*echoer\.sh\n {2}hello /,
  );
  const unknown = await run(env, ["nosuchthing"]);
  assert.notEqual(unknown.code, 0, "an unknown command is still an error");
});

Deno.test("lazyshell doctor reports plugin problems one per line and exits non-zero", async () => {
  const env = setup();
  const { code, stdout } = await run(env, ["doctor"]);
  const lines = stdout.split("\n");
  const has = (re: RegExp) => assert.ok(lines.some((l) => re.test(l)), `${re} in:\n${stdout}`);
  has(/^ok {3}config\.yml parses$/);
  has(/^ok {3}runtime directory and sockets work/);
  has(/^FAIL .*\/stats: Plugin id "stats" collides with the built-in tab "stats": rename it$/);
  has(/^ok {3}hello: handshake ok \("Hello", manifest in \d+ ms\)$/);
  has(/^ok {3}hello: its own doctor passed$/);
  has(/^FAIL bad_doctor: API token missing: set bad_doctor\.token in config\.yml$/);
  has(/^FAIL echoer: .*run .*echoer\.sh serve by hand/);
  has(/^ok {3}stats: handshake ok \("Stats"/);
  has(/^\d+ problems found$/);
  assert.equal(code, 1);
});

Deno.test("doctor: agents without lazyshell's hooks are a note, not a problem (exit 0)", async () => {
  const env = setup();
  Deno.removeSync(`${env.XDG_CONFIG_HOME}/lazyshell/plugins`, { recursive: true });
  const bin = `${env.HOME}/bin`;
  Deno.mkdirSync(bin);
  for (const name of ["claude", "codex"]) {
    Deno.writeTextFileSync(`${bin}/${name}`, "#!/bin/sh\necho 1.2.3\n", { mode: 0o755 });
  }
  env.PATH = `${bin}:${env.PATH}`;
  const { code, stdout } = await run(env, ["doctor", "--no-plugins"]);
  assert.match(stdout, /^ok {3}Claude Code: \S+\/bin\/claude 1\.2\.3$/m);
  assert.match(stdout, /^note Claude Code hooks \(optional\): no lazyshell hook in /m);
  assert.match(stdout, /^note Codex hooks \(optional\): no lazyshell notify in /m);
  assert.doesNotMatch(stdout, /^FAIL/m);
  assert.match(stdout, /^No problems found$/m);
  assert.equal(code, 0);
});

Deno.test("a broken config.yml is reported with file and line", async () => {
  const env = setup();
  Deno.writeTextFileSync(`${env.XDG_CONFIG_HOME}/lazyshell/config.yml`, "scrollback: lots\n");
  const { code, stdout } = await run(env, ["doctor", "--no-plugins"]);
  assert.match(stdout, /^FAIL .*config\.yml:1: .*scrollback.*: fix config\.yml$/m);
  assert.equal(code, 1);
});

Deno.test("an unknown command says so (not 'too many arguments'); help covers plugins, hook and --project", async () => {
  const env = setup();
  const [unknown, help, plugin] = await Promise.all([
    run(env, ["frobnicate"]),
    run(env, ["--help"]),
    run(env, ["help", "hello"]),
  ]);
  assert.deepEqual([unknown.code, unknown.stderr], [
    2,
    "lazyshell: Unknown command: frobnicate: see lazyshell --help\n",
  ]);
  assert.equal(help.code, 0);
  assert.match(help.stdout, /^\s+hook \[options\] <state> \[json\]\s+Report the state/m);
  assert.match(help.stdout, /^lazyshell --project <file>\s+start the server with this project/m);
  assert.match(help.stdout, /^\s+hello\s+\S+\/plugins\/hello$/m, "plugin commands listed");
  assert.equal(plugin.code, 0, plugin.stderr);
  assert.match(
    plugin.stdout,
    /^Usage: lazyshell hello \[args\.\.\.\]\n\nA plugin: runs \S+\/hello/,
  );
});
