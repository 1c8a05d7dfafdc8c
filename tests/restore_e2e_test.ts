/**
 * End to end (docs/restore.md): real `lazyshell serve` processes, a
 * project file, a session made through the control API; `kill -9` of the
 * server; a new server offers what was saved and `lazyshell restore`
 * (the client, through the server) brings back names, groups, cwds and
 * env — a secret read again from the environment, never from the file —
 * and never starts a session twice; a project relaunched with the server
 * is not duplicated by its saved copy, and a damaged state file is set
 * aside in one line while its valid part is still offered.
 */

import assert from "node:assert/strict";
import { request } from "../src/ctl/client.ts";
import { parseEnviron } from "../src/plugin/session_env.ts";
import { controlSocket, lazyshell, type ServeChild, spawnServe } from "../tools/abuse/server.ts";
import { formatState, parseState, type SavedSession } from "../src/restore/state_file.ts";
import { savedSession } from "../src/restore/test_util.ts";
import { canConnect } from "../src/wire/spawn.ts";

interface Server {
  readonly serve: ServeChild;
  readonly control: string;
  readonly ready: string;
}

async function serve(env: Record<string, string>, cwd: string): Promise<Server> {
  // --yes: the project file is this test's own (serve asks nobody to trust it).
  const child = spawnServe(env, { cwd, args: ["--yes"] });
  const line = await child.ready;
  return { serve: child, control: controlSocket(line)!, ready: line };
}

async function ctl(server: Server, verb: string, args: Record<string, unknown> = {}) {
  const { response } = await request(server.control, verb, args, 15_000);
  if (!response.ok) throw new Error(`${verb}: ${response.error}`);
  return response.result as Record<string, unknown>;
}

async function until<T>(get: () => T | Promise<T>, ok: (v: T) => boolean, what: string) {
  const deadline = Date.now() + 20_000;
  for (;;) {
    const v = await get();
    if (ok(v)) return v;
    if (Date.now() > deadline) throw new Error(`Timed out waiting for ${what}: ${String(v)}`);
    await new Promise((r) => setTimeout(r, 50));
  }
}

async function killHard(server: Server): Promise<void> {
  await server.serve.stop("SIGKILL");
}

Deno.test("kill -9 the server, then `lazyshell restore`: names, groups, cwds, env, never twice", async () => {
  const base = await Deno.makeTempDir({ prefix: "lzs-restore-e2e-" });
  const proj = `${base}/proj`;
  await Deno.mkdir(`${base}/config/lazyshell`, { recursive: true });
  await Deno.mkdir(`${proj}/web`, { recursive: true });
  await Deno.mkdir(`${base}/work`);
  await Deno.mkdir(`${base}/run`, { mode: 0o700 });
  await Deno.writeTextFile(
    `${base}/config/lazyshell/config.yml`,
    "shell: /bin/sh\ncontrol:\n  enabled: true\n",
  );
  await Deno.writeTextFile(
    `${proj}/lazyshell.yml`,
    `sessions:
  - name: web
    group: dev
    cwd: web
    command: exec cat
    env: { PORT: "3000", API_TOKEN: from-the-file }
    watch: [{ pattern: ERROR }]
`,
  );
  const env: Record<string, string> = {
    PATH: Deno.env.get("PATH") ?? "/usr/bin:/bin",
    HOME: base,
    XDG_CONFIG_HOME: `${base}/config`,
    XDG_DATA_HOME: `${base}/data`,
    XDG_STATE_HOME: `${base}/state`,
    XDG_RUNTIME_DIR: `${base}/run`,
    API_TOKEN: "from-the-environment",
    NO_COLOR: "1",
  };
  const file = `${base}/state/lazyshell/sessions-default.jsonl`;
  const read = () => Deno.readTextFile(file).catch(() => "");
  let server: Server | null = null;
  try {
    // 1. A project session and one made through the control API; then kill -9.
    server = await serve(env, proj);
    await ctl(server, "new", { name: "sh1", group: "g", cwd: `${base}/work` });
    const saved = await until(read, (t) => t.includes('"sh1"') && t.includes('"web"'), "saved");
    assert.ok(!saved.includes("from-the-file"), "no secret value in the state file");
    await killHard(server);

    // 2. A new server elsewhere offers both; restore brings them back, once.
    server = await serve(env, base);
    assert.match(server.ready, /0 project sessions, 2 saved sessions to restore\)/);
    const listed = await lazyshell(env, ["restore"]);
    assert.equal(listed.code, 0, listed.stderr);
    assert.match(listed.stdout, /^Saved sessions not running:\n {2}web \[dev\]: runs exec cat\n/);
    const restored = await lazyshell(env, ["restore", "--all"]);
    assert.equal(restored.code, 0, restored.stderr);
    assert.match(
      restored.stdout,
      /^web: runs exec cat \(session-1\)\nsh1: shell in .*\(session-2\)\n$/,
    );
    const list = (await ctl(server, "list")).sessions as Record<string, unknown>[];
    assert.deepEqual(list.map((s) => [s.name, s.group, s.cwd]), [
      ["web", "dev", `${proj}/web`],
      ["sh1", "g", `${base}/work`],
    ]);
    // Forked is not yet exec'd: until then /proc shows the server's environment, not the session's.
    const environOf = (pid: unknown) => parseEnviron(Deno.readTextFileSync(`/proc/${pid}/environ`));
    const environ = await until(() => environOf(list[0]!.pid), (e) => e.PORT !== undefined, "exec");
    assert.equal(environ.PORT, "3000");
    assert.equal(environ.API_TOKEN, "from-the-environment", "a secret comes from the environment");
    const again = await lazyshell(env, ["restore", "--all"]);
    assert.equal(again.stdout, "Nothing to restore: no saved session is waiting\n");
    const named = await lazyshell(env, ["restore", "web"]);
    assert.equal(named.stdout, "web: already running, not started again\n");
    assert.equal(((await ctl(server, "list")).sessions as unknown[]).length, 2);
    await until(read, (t) => t.includes('"sh1"') && !t.includes('"pending":true'), "rewritten");
    await killHard(server);

    // 3. A damaged file (a bad line appended), and the project started again by the server.
    await Deno.writeTextFile(file, "{not json\n", { append: true });
    server = await serve(env, proj);
    assert.match(server.ready, /1 project session, 1 saved session to restore\)/);
    assert.match(
      server.serve.stderr(),
      /lazyshell: The state file .*sessions-default\.jsonl is damaged: line 4: not JSON; set aside as .*\.corrupt-\S+; 2 sessions kept\n/,
    );
    const offer = await lazyshell(env, ["restore"]);
    assert.match(
      offer.stdout,
      /^The state file .* is damaged: .*\nSaved sessions not running:\n {2}sh1 \[g\]: /,
    );
    assert.doesNotMatch(offer.stdout, / web /, "the running project session is not offered again");
    await server.serve.stop();
    server = null;
  } finally {
    if (server) await killHard(server).catch(() => {});
    await Deno.remove(base, { recursive: true });
  }
});

Deno.test("`lazyshell restore` listing, --forget or an unknown name starts no server", async () => {
  const base = await Deno.makeTempDir({ prefix: "lzs-restore-quiet-" });
  await Deno.mkdir(`${base}/config/lazyshell`, { recursive: true });
  await Deno.mkdir(`${base}/state/lazyshell`, { recursive: true, mode: 0o700 });
  await Deno.mkdir(`${base}/run`, { mode: 0o700 });
  await Deno.writeTextFile(`${base}/config/lazyshell/config.yml`, "shell: /bin/sh\n");
  const env: Record<string, string> = {
    PATH: Deno.env.get("PATH") ?? "/usr/bin:/bin",
    HOME: base,
    XDG_CONFIG_HOME: `${base}/config`,
    XDG_DATA_HOME: `${base}/data`,
    XDG_STATE_HOME: `${base}/state`,
    XDG_RUNTIME_DIR: `${base}/run`,
    NO_COLOR: "1",
  };
  const file = `${base}/state/lazyshell/sessions-default.jsonl`;
  const saved = (name: string, more: Partial<SavedSession> = {}) => ({
    ...savedSession(name, { cwd: base }),
    pending: true,
    ...more,
  });
  const text = formatState(
    [saved("web", { group: "dev", command: "npm run dev" }), saved("api"), saved("db")],
    1,
  );
  await Deno.writeTextFile(file, text, { mode: 0o600 });
  const socket = `${base}/run/lazyshell/server-default.sock`;
  // A server the client starts leaves its stderr log (created by the spawn, even empty), its
  // sockets (and their directory) and a rewritten state file (a new header): none of them here.
  const serverLog = `${base}/data/lazyshell/server.log`;
  const noServer = async (what: string) => {
    const left = [...Deno.readDirSync(`${base}/run/lazyshell`)].map((e) => e.name);
    assert.deepEqual(left.filter((n) => n !== "server-default.lock"), [], `${what}: ${left}`);
    assert.equal(await canConnect(socket), false, what);
    assert.equal(await exists(serverLog), false, `${what}: a server was spawned`);
  };
  const names = async () => parseState(await Deno.readTextFile(file)).sessions.map((s) => s.name);
  try {
    // Listing: what the file saves, in the server's words; the file untouched.
    const listed = await lazyshell(env, ["restore"]);
    assert.equal(listed.code, 0, listed.stderr);
    assert.equal(
      listed.stdout,
      "Saved sessions not running:\n" +
        "  web [dev]: runs npm run dev\n" +
        `  api: shell in ${base}\n` +
        `  db: shell in ${base}\n` +
        "Restore them with `lazyshell restore --all` or `lazyshell restore NAME...`; " +
        "`lazyshell restore --forget [NAME...]` drops them\n",
    );
    await noServer("after listing");
    assert.equal(await Deno.readTextFile(file), text, "listing leaves the file as it was");

    // An unknown name: said, exit 1, nothing started.
    const unknown = await lazyshell(env, ["restore", "ghost"]);
    assert.equal(unknown.code, 1);
    assert.equal(unknown.stdout, "ghost: no saved session of that name\n");
    await noServer("after an unknown name");
    assert.equal(await Deno.readTextFile(file), text);

    // --forget: the entry leaves the file, written whole (0600), the others kept pending.
    const forgot = await lazyshell(env, ["restore", "--forget", "web"]);
    assert.equal(forgot.code, 0, forgot.stderr);
    assert.equal(forgot.stdout, "Forgot 1 saved session\n");
    await noServer("after --forget");
    assert.deepEqual(await names(), ["api", "db"]);
    assert.equal((await Deno.stat(file)).mode! & 0o777, 0o600);
    const left = parseState(await Deno.readTextFile(file));
    assert.deepEqual(left.problems, []);
    assert.ok(left.sessions.every((s) => s.pending));
    const none = await lazyshell(env, ["restore", "--forget", "ghost"]);
    assert.equal(none.stdout, "Forgot 0 saved sessions\n");
    await noServer("after --forget of an unknown name");

    // A file another user could write is refused as a server refuses it, with no server either.
    await Deno.chmod(file, 0o622);
    const refused = await lazyshell(env, ["restore"]);
    assert.match(
      refused.stdout,
      /^Refusing the state file .*sessions-default\.jsonl: mode 622 lets others write it; set aside as .*\.refused-\S+; no session offered from it .*\nNothing to restore: no saved session is waiting\n$/,
    );
    await noServer("after a refused file");
    const aside = [...Deno.readDirSync(`${base}/state/lazyshell`)].find((e) =>
      e.name.includes(".refused-")
    )!;
    await Deno.rename(`${base}/state/lazyshell/${aside.name}`, file);
    await Deno.chmod(file, 0o600);

    // A damaged file: said in the server's words, set aside, its valid part written back.
    await Deno.writeTextFile(file, "{not json\n", { append: true });
    const damaged = await lazyshell(env, ["restore"]);
    assert.match(
      damaged.stdout,
      /^The state file .* is damaged: line 4: not JSON; set aside as .*\.corrupt-\S+; 2 sessions kept\nSaved sessions not running:\n {2}api: .*\n {2}db: /,
    );
    await noServer("after a damaged file");
    const whole = parseState(await Deno.readTextFile(file));
    assert.deepEqual([whole.problems, whole.sessions.map((s) => s.name)], [[], ["api", "db"]]);

    // Restoring one starts a server that stays: it runs the session.
    const restored = await lazyshell(env, ["restore", "api"]);
    assert.equal(restored.code, 0, restored.stderr);
    assert.match(restored.stdout, /^api: shell in .* \(session-1\)\n$/);
    assert.equal(await canConnect(socket), true, "the server runs the restored session");
    // With a server running, it answers (it owns the file): same words.
    const through = await lazyshell(env, ["restore"]);
    assert.match(through.stdout, /^Saved sessions not running:\n {2}db: shell in .*\nRestore them/);
    const ghost = await lazyshell(env, ["restore", "ghost"]);
    assert.equal(ghost.code, 1);
    assert.equal(ghost.stdout, "ghost: no saved session of that name\n");
    const dropped = await lazyshell(env, ["restore", "--forget", "db"]);
    assert.equal(dropped.stdout, "Forgot 1 saved session\n");
    await until(names, (n) => n.join() === "api", "the server's file without db");
    assert.equal(await canConnect(socket), true, "the server still runs api");
  } finally {
    await lazyshell(env, ["kill-server"]).catch(() => {});
    await Deno.remove(base, { recursive: true });
  }
});

async function exists(path: string): Promise<boolean> {
  try {
    await Deno.lstat(path);
    return true;
  } catch {
    return false;
  }
}
