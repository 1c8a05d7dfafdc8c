import assert from "node:assert/strict";
import { discoverPlugins, idOf, pluginEnv } from "./discovery.ts";

function tree(files: Record<string, number>): { env: Record<string, string>; dir: string } {
  const root = Deno.makeTempDirSync({ prefix: "lazyshell-disc-" });
  const dir = `${root}/lazyshell/plugins`;
  Deno.mkdirSync(dir, { recursive: true });
  for (const [name, mode] of Object.entries(files)) {
    if (mode < 0) Deno.mkdirSync(`${dir}/${name}`);
    else Deno.writeTextFileSync(`${dir}/${name}`, "#!/bin/sh\n", { mode });
  }
  return { env: { XDG_CONFIG_HOME: root, HOME: "/home/u", XDG_DATA_HOME: `${root}/data` }, dir };
}

Deno.test("the id is the file name without extension", () => {
  assert.equal(idOf("hello"), "hello");
  assert.equal(idOf("hello.py"), "hello");
  assert.equal(idOf("my-tool.tar.gz"), "my-tool");
  assert.equal(idOf("Hello"), null);
  assert.equal(idOf("_x"), null);
  assert.equal(idOf("a".repeat(33)), null);
  assert.equal(idOf("a".repeat(32)), "a".repeat(32));
});

Deno.test("user plugins are found; collisions and bad files are reported clearly", () => {
  const { env, dir } = tree({
    "hello": 0o755,
    "weather.py": 0o755,
    "weather.sh": 0o755,
    "stats": 0o755,
    "doctor.sh": 0o755,
    "mytool": 0o755,
    "notexec": 0o644,
    "Bad Name": 0o755,
    "subdir": -1,
    ".hidden": 0o755,
  });
  const found = discoverPlugins({ env, commands: ["mytool"] });
  const ids = found.plugins.map((p) => `${p.id}:${p.builtin ? "builtin" : "user"}`);
  assert.deepEqual(ids, [
    "agents:builtin",
    "watchers:builtin",
    "stats:builtin",
    "env:builtin",
    "changes:builtin",
    "hello:user",
    "weather:user",
  ]);
  assert.deepEqual(found.plugins.find((p) => p.id === "hello")?.command, [`${dir}/hello`]);
  assert.deepEqual(found.problems, [
    `${dir}/Bad Name: Not a plugin id (the name without extension must match ^[a-z0-9][a-z0-9_-]{0,31}$): rename it`,
    `${dir}/doctor.sh: Plugin id "doctor" collides with the command "lazyshell doctor": rename it`,
    `${dir}/mytool: Plugin id "mytool" collides with the command "lazyshell mytool": rename it`,
    `${dir}/notexec: Not executable: chmod +x ${dir}/notexec`,
    `${dir}/stats: Plugin id "stats" collides with the built-in tab "stats": rename it`,
    `${dir}/subdir: Not a file (a plugin is one executable file): move it away`,
    `${dir}/weather.sh: Plugin id "weather" is already used by ${dir}/weather.py: remove or rename one`,
  ]);
});

Deno.test("a missing plugin directory is no problem", () => {
  const found = discoverPlugins({ env: { XDG_CONFIG_HOME: "/nonexistent/x" }, builtins: false });
  assert.deepEqual(found, { plugins: [], problems: [] });
});

Deno.test("every mode gets the five LAZYSHELL_* variables", () => {
  const env = pluginEnv(
    { HOME: "/home/u", XDG_CONFIG_HOME: "/c", XDG_DATA_HOME: "/d", X: "y" },
    "hi",
  );
  assert.equal(env.X, "y");
  assert.equal(env.LAZYSHELL_HOME, "/home/u");
  assert.equal(env.LAZYSHELL_CONFIG_DIR, "/c/lazyshell");
  assert.equal(env.LAZYSHELL_DATA_DIR, "/d/lazyshell/plugins/hi");
  assert.ok(Deno.statSync(`${env.LAZYSHELL_LIBRARY_DIR}/main.ts`).isFile);
  assert.equal(env.LAZYSHELL_PROTOCOL, "1");
});
