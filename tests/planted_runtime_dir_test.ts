/**
 * A runtime directory planted by someone else (XDG_RUNTIME_DIR unset, so
 * `$TMPDIR/lazyshell-$UID`, a name any local user can take first): no
 * client sends anything to a socket in it, each says in one line what is
 * wrong and where, and nothing a peer replies reaches the terminal raw.
 * Real sockets, `ctl` in process, `serve` and `hook` as subprocesses.
 */

import assert from "node:assert/strict";
import { runCtl } from "../src/ctl/client.ts";

const MAIN = new URL("../main.ts", import.meta.url).pathname;
const decoder = new TextDecoder();
const UID = Deno.uid()!;

/** A fake lazyshell: records what it is sent, replies `reply` to every line. */
function fakeServer(path: string, reply: string) {
  const listener = Deno.listen({ transport: "unix", path });
  const received: string[] = [];
  let accepted = 0;
  const loop = (async () => {
    for await (const conn of listener) {
      accepted++;
      const buf = new Uint8Array(65536);
      const n = await conn.read(buf).catch(() => null);
      if (n !== null) received.push(decoder.decode(buf.subarray(0, n)));
      await conn.write(new TextEncoder().encode(reply)).catch(() => {});
      conn.close();
    }
  })().catch(() => {});
  return {
    received,
    get accepted() {
      return accepted;
    },
    async close() {
      listener.close();
      await loop;
    },
  };
}

/**
 * `$TMPDIR/lazyshell-<uid>/<our pid>/control.sock` with the root as an attacker left it
 * and the instance directory in it private.
 */
function planted(mode: number) {
  const tmp = Deno.makeTempDirSync({ prefix: "lzs-planted-" });
  const root = `${tmp}/lazyshell-${UID}`;
  Deno.mkdirSync(`${root}/${Deno.pid}`, { recursive: true });
  // The instance directory private whatever the umask: only the root is wrong.
  Deno.chmodSync(`${root}/${Deno.pid}`, 0o700);
  Deno.chmodSync(root, mode);
  const env = { TMPDIR: tmp, HOME: tmp, XDG_CONFIG_HOME: `${tmp}/config` };
  return { tmp, root, env, socket: `${root}/${Deno.pid}/control.sock` };
}

function captured() {
  const out: string[] = [];
  const err: string[] = [];
  return { out, err, io: { out: (t: string) => out.push(t), err: (t: string) => err.push(t) } };
}

const OK_REPLY =
  '{"id":1,"ok":true,"result":{"id":"session-1","name":"x","bytes":3,"state":null}}\n';

Deno.test("ctl sends nothing into a runtime root others can enter, and says where and why", async () => {
  const p = planted(0o755);
  const fake = fakeServer(p.socket, OK_REPLY);
  try {
    const { err, io } = captured();
    const rc = await runCtl(["send", "session-1", "export AWS_SECRET=hunter2"], p.env, io);
    assert.equal(rc, 2);
    assert.deepEqual(err, [
      `lazyshell ctl: Refusing runtime directory ${p.root}: mode 755 lets others in, want 700 ` +
      "(remove it, or set XDG_RUNTIME_DIR to a directory only you can enter)",
    ]);
    assert.equal(fake.accepted, 0);
  } finally {
    await fake.close();
    Deno.removeSync(p.tmp, { recursive: true });
  }
});

Deno.test("ctl sends nothing to a LAZYSHELL_CONTROL in a private directory of a planted root", async () => {
  const p = planted(0o755);
  const fake = fakeServer(p.socket, OK_REPLY);
  try {
    const { err, io } = captured();
    assert.equal(await runCtl(["list"], { ...p.env, LAZYSHELL_CONTROL: p.socket }, io), 2);
    assert.match(
      err[0]!,
      new RegExp(`^lazyshell ctl: Refusing runtime directory ${p.root}: mode 755`),
    );
    assert.equal(fake.accepted, 0);
  } finally {
    await fake.close();
    Deno.removeSync(p.tmp, { recursive: true });
  }
});

Deno.test("ctl refuses a runtime root owned by another user (when the test may chown)", async () => {
  if (UID !== 0) return; // only root can make a directory another user's
  const p = planted(0o700);
  Deno.chownSync(p.root, 65534, null);
  const fake = fakeServer(p.socket, OK_REPLY);
  try {
    const { err, io } = captured();
    assert.equal(await runCtl(["list"], p.env, io), 2);
    assert.match(err[0]!, /Refusing runtime directory .*: owned by uid 65534, not 0 /);
    assert.equal(fake.accepted, 0);
  } finally {
    await fake.close();
    Deno.removeSync(p.tmp, { recursive: true });
  }
});

Deno.test("ctl refuses a symlinked root and a LAZYSHELL_CONTROL in a shared directory", async () => {
  const p = planted(0o700);
  const fake = fakeServer(p.socket, OK_REPLY);
  const shared = Deno.makeTempDirSync({ prefix: "lzs-shared-" });
  Deno.chmodSync(shared, 0o777);
  const other = fakeServer(`${shared}/control.sock`, OK_REPLY);
  try {
    Deno.renameSync(p.root, `${p.tmp}/real`);
    Deno.symlinkSync(`${p.tmp}/real`, p.root);
    let c = captured();
    assert.equal(await runCtl(["list"], p.env, c.io), 2);
    assert.match(c.err[0]!, /Refusing runtime directory .*: it is a symlink/);

    c = captured();
    assert.equal(
      await runCtl(["list"], { ...p.env, LAZYSHELL_CONTROL: `${shared}/control.sock` }, c.io),
      2,
    );
    assert.match(c.err[0]!, new RegExp(`Refusing runtime directory ${shared}: mode 777`));
    assert.equal(fake.accepted + other.accepted, 0);
  } finally {
    await fake.close();
    await other.close();
    Deno.removeSync(p.tmp, { recursive: true });
    Deno.removeSync(shared, { recursive: true });
  }
});

Deno.test("a reply's control characters are printed escaped, never raw", async () => {
  const dir = Deno.makeTempDirSync({ prefix: "lzs-evil-" });
  const path = `${dir}/control.sock`;
  const evil = JSON.stringify({
    id: 1,
    ok: true,
    result: {
      sessions: [{
        id: "session-1",
        name: "w\u001b]0;pwned\u0007",
        group: "g\u009b31m",
        status: "running",
        agent: null,
        state: null,
        kind: null,
      }],
    },
  });
  const fake = fakeServer(path, `${evil}\r\n`);
  const failing = fakeServer(
    `${dir}/failing.sock`,
    '{"id":1,"ok":false,"error":"\\u001b[2J\\rgone"}\n',
  );
  try {
    const env = { LAZYSHELL_CONTROL: path };
    for (const argv of [["list"], ["list", "--json"]]) {
      const c = captured();
      assert.equal(await runCtl(argv, env, c.io), 0);
      const text = c.out.join("\n");
      // deno-lint-ignore no-control-regex -- none of these may reach the terminal
      assert.doesNotMatch(text, /[\x1b\x07\r\u009b]/, `${argv.join(" ")}: ${JSON.stringify(text)}`);
      // --json: the `\r` before the newline is framing, dropped by the line splitter (src/util/lines.ts).
      assert.match(text, argv.length === 1 ? /w\\x1b\]0;pwned\\x07/ : /\\u001b\]0;pwned.*\}$/);
    }
    const c = captured();
    assert.equal(
      await runCtl(["list"], { LAZYSHELL_CONTROL: `${dir}/failing.sock` }, c.io),
      1,
    );
    assert.deepEqual(c.err, ["lazyshell ctl: \\x1b[2J\\x0dgone"]);
  } finally {
    await fake.close();
    await failing.close();
    Deno.removeSync(dir, { recursive: true });
  }
});

async function run(args: string[], env: Record<string, string>) {
  const out = await new Deno.Command(Deno.execPath(), {
    args: ["run", "-A", "--quiet", MAIN, ...args],
    env: { PATH: Deno.env.get("PATH") ?? "/usr/bin:/bin", NO_COLOR: "1", ...env },
    clearEnv: true,
    stdin: "null",
    stdout: "piped",
    stderr: "piped",
  }).output();
  return { code: out.code, stdout: decoder.decode(out.stdout), stderr: decoder.decode(out.stderr) };
}

Deno.test("the client (lazyshell ls) sends nothing to a server socket in a planted root", async () => {
  const p = planted(0o755);
  const fake = fakeServer(`${p.root}/server-default.sock`, "");
  try {
    const listed = await run(["ls"], p.env);
    assert.equal(listed.code, 2);
    assert.match(
      listed.stderr,
      new RegExp(`^lazyshell: Refusing runtime directory ${p.root}: mode 755 lets others in`),
    );
    assert.equal(listed.stderr.trimEnd().split("\n").length, 1);
    assert.equal(fake.accepted, 0);
  } finally {
    await fake.close();
    Deno.removeSync(p.tmp, { recursive: true });
  }
});

Deno.test("serve and hook refuse a planted root in one line; the hook sends nothing", async () => {
  const p = planted(0o755);
  const sock = `${p.root}/${Deno.pid}/session-1.sock`;
  const fake = fakeServer(sock, '{"v":1,"type":"ack"}\n');
  try {
    const served = await run(["serve"], p.env);
    assert.equal(served.code, 2);
    assert.equal(
      served.stderr,
      `lazyshell: Refusing runtime directory ${p.root}: mode 755 lets others in, want 700 ` +
        "(remove it, or set XDG_RUNTIME_DIR to a directory only you can enter)\n",
    );
    const hooked = await run(["hook", "working"], { ...p.env, LAZYSHELL_SOCK: sock });
    assert.equal(hooked.code, 0);
    assert.equal(hooked.stdout, "");
    assert.match(
      hooked.stderr,
      new RegExp(`^lazyshell hook: Refusing runtime directory ${p.root}: mode 755`),
    );
    assert.equal(hooked.stderr.trimEnd().split("\n").length, 1);
    assert.equal(fake.accepted, 0);
  } finally {
    await fake.close();
    Deno.removeSync(p.tmp, { recursive: true });
  }
});
