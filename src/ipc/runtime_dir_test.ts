import assert from "node:assert/strict";
import { UserError } from "../errors.ts";
import {
  checkPrivateDir,
  createInstanceDir,
  ensureRuntimeRoot,
  listenPrivate,
  listInstances,
  pruneDeadInstances,
  removeInstanceDir,
} from "./runtime_dir.ts";
import { aliveOn, hostLiveness } from "../platform/liveness.ts";

function tempEnv(): { env: Record<string, string>; base: string } {
  const base = Deno.makeTempDirSync({ prefix: "lzs-rt-" });
  return { env: { XDG_RUNTIME_DIR: base }, base };
}

Deno.test("the runtime root and instance directory are 0700 and checked", async () => {
  const { env, base } = tempEnv();
  try {
    const dir = await createInstanceDir(env);
    assert.equal(dir, `${base}/lazyshell/${Deno.pid}`);
    assert.equal(Deno.statSync(`${base}/lazyshell`).mode! & 0o777, 0o700);
    assert.equal(Deno.statSync(dir).mode! & 0o777, 0o700);
    removeInstanceDir(dir);
    assert.throws(() => Deno.statSync(dir));
  } finally {
    Deno.removeSync(base, { recursive: true });
  }
});

Deno.test("a runtime root others can enter, or a symlink, is refused", () => {
  const { env, base } = tempEnv();
  try {
    Deno.mkdirSync(`${base}/lazyshell`, { mode: 0o755 });
    Deno.chmodSync(`${base}/lazyshell`, 0o755);
    assert.throws(() => ensureRuntimeRoot(env), (e: unknown) => {
      assert.ok(e instanceof UserError);
      assert.match(e.message, /mode 755 lets others in/);
      return true;
    });
    Deno.removeSync(`${base}/lazyshell`);
    Deno.mkdirSync(`${base}/elsewhere`, { mode: 0o700 });
    Deno.symlinkSync(`${base}/elsewhere`, `${base}/lazyshell`);
    assert.throws(() => checkPrivateDir(`${base}/lazyshell`), /symlink/);
  } finally {
    Deno.removeSync(base, { recursive: true });
  }
});

Deno.test("a socket is 0600; a stale one is replaced, a live one refused", async () => {
  const { env, base } = tempEnv();
  try {
    const dir = await createInstanceDir(env);
    const path = `${dir}/control.sock`;
    // A stale socket file: bound, then abandoned without unlinking (like a SIGKILLed owner).
    const stale = Deno.listen({ transport: "unix", path });
    const copy = `${dir}/stale.sock`;
    Deno.renameSync(path, copy);
    stale.close();
    Deno.renameSync(copy, path);
    await assert.rejects(Deno.connect({ transport: "unix", path }), Deno.errors.ConnectionRefused);

    const listener = await listenPrivate(path);
    assert.equal(Deno.statSync(path).mode! & 0o777, 0o600);
    await assert.rejects(listenPrivate(path), /already in use/);
    assert.deepEqual(listInstances(`${base}/lazyshell`), [{
      dir,
      pid: Deno.pid,
      control: path,
      server: null,
    }]);
    listener.close();
    await assert.rejects(listenPrivate(`${dir}/${"x".repeat(120)}.sock`), /too long/);
  } finally {
    Deno.removeSync(base, { recursive: true });
  }
});

Deno.test("directories of dead instances are pruned", async () => {
  const { env, base } = tempEnv();
  try {
    ensureRuntimeRoot(env);
    // pid 2^22 + 1 is above pid_max: never alive.
    Deno.mkdirSync(`${base}/lazyshell/4194305`, { mode: 0o700 });
    await createInstanceDir(env);
    assert.throws(() => Deno.statSync(`${base}/lazyshell/4194305`));
    assert.deepEqual(listInstances(`${base}/lazyshell`).map((i) => i.pid), [Deno.pid]);
  } finally {
    Deno.removeSync(base, { recursive: true });
  }
});

Deno.test("with macOS's liveness (no /proc) another live server's directory is kept", async () => {
  const { env, base } = tempEnv();
  const other = new Deno.Command("sleep", { args: ["30"] }).spawn();
  try {
    const root = ensureRuntimeRoot(env);
    Deno.mkdirSync(`${root}/${other.pid}`, { mode: 0o700 });
    Deno.mkdirSync(`${root}/4194305`, { mode: 0o700 });
    const darwin = (pid: number) => aliveOn({ ...hostLiveness, os: "darwin" }, pid);
    pruneDeadInstances(root, darwin);
    assert.ok(Deno.statSync(`${root}/${other.pid}`).isDirectory, "the live server's directory");
    assert.throws(() => Deno.statSync(`${root}/4194305`), "the dead one's is pruned");
    assert.deepEqual(listInstances(root, darwin).map((i) => i.pid), [other.pid]);
  } finally {
    other.kill("SIGKILL");
    await other.status;
    Deno.removeSync(base, { recursive: true });
  }
});

Deno.test("a runtime root that cannot be created is one clear error", () => {
  assert.throws(
    () => ensureRuntimeRoot({ XDG_RUNTIME_DIR: "/proc/no-such-dir" }),
    (e: unknown) => e instanceof UserError && /Cannot create runtime directory/.test(e.message),
  );
});

Deno.test("a runtime root under a missing directory names the directory that is missing", () => {
  const base = Deno.makeTempDirSync();
  try {
    assert.throws(
      () => ensureRuntimeRoot({ XDG_RUNTIME_DIR: `${base}/gone` }),
      (e: unknown) =>
        e instanceof UserError && !e.message.includes("\n") &&
        e.message.includes(`${base}/gone does not exist`) &&
        e.message.includes("XDG_RUNTIME_DIR"),
    );
  } finally {
    Deno.removeSync(base, { recursive: true });
  }
});
