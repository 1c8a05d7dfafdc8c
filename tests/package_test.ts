/**
 * The npm package, as `npm install -g` lays it out: the package's files
 * (tools/dist/pack.ts) in <prefix>/lib/node_modules/lazyshell with the bin
 * linked as <prefix>/bin/lazyshell, run through its launcher (bin/lazyshell)
 * from another folder. Dependencies come from this checkout's node_modules
 * (npm would install the same pinned versions) and Deno from PATH (npm
 * would install deno@2.9.6 beside them). `.ci/run` does the real
 * `npm pack` and `npm install -g`, offline, in a fresh home.
 */

import assert from "node:assert/strict";
import { stagePackage } from "../tools/dist/pack.ts";
import { gitCommit } from "../src/cli/version.ts";

const ROOT = new URL("../", import.meta.url).pathname;
const decoder = new TextDecoder();

async function install() {
  const base = Deno.makeTempDirSync({ prefix: "lzs-pkg-" });
  const lib = `${base}/prefix/lib/node_modules`;
  await stagePackage(`${lib}/lazyshell`);
  Deno.symlinkSync(`${ROOT}node_modules`, `${lib}/lazyshell/node_modules`);
  Deno.mkdirSync(`${base}/prefix/bin`);
  Deno.symlinkSync("../lib/node_modules/lazyshell/bin/lazyshell", `${base}/prefix/bin/lazyshell`);
  const home = `${base}/home`;
  Deno.mkdirSync(`${home}/work`, { recursive: true });
  const deno = Deno.execPath();
  const env = {
    HOME: home,
    PATH: `${deno.slice(0, deno.lastIndexOf("/"))}:/usr/bin:/bin`,
    XDG_RUNTIME_DIR: base,
  };
  return {
    bin: `${base}/prefix/bin/lazyshell`,
    home,
    env,
    async lazyshell(...args: string[]) {
      const out = await new Deno.Command(`${base}/prefix/bin/lazyshell`, {
        args,
        cwd: `${home}/work`,
        env,
        clearEnv: true,
        stdin: "null",
      }).output();
      return {
        code: out.code,
        stdout: decoder.decode(out.stdout),
        stderr: decoder.decode(out.stderr),
      };
    },
    [Symbol.dispose]: () => Deno.removeSync(base, { recursive: true }),
  };
}

Deno.test("the npm package, installed and run from another folder", async (t) => {
  using pkg = await install();

  await t.step("--version names the version and the commit it was built from", async () => {
    const version = await pkg.lazyshell("--version");
    const commit = gitCommit(ROOT.replace(/\/$/, ""))!.slice(0, 12);
    assert.match(
      version.stdout,
      new RegExp(`^lazyshell 0\\.1\\.0 \\(commit ${commit}(, modified)?\\)\n$`),
    );
    assert.equal(version.stderr, "");
  });

  await t.step("hooks name the command as installed (the bin link), not the package", async () => {
    const codex = await pkg.lazyshell("init", "--agents", "codex");
    assert.equal(codex.stdout, `notify = ["${pkg.bin}", "hook", "done"]\n`);
    assert.equal(codex.stderr, "");
  });

  await t.step("doctor --self-test: a PTY session, detection, a built-in plugin", async () => {
    const self = await pkg.lazyshell("doctor", "--self-test");
    assert.equal(self.code, 0, self.stdout + self.stderr);
    const lines = self.stdout.trim().split("\n");
    assert.deepEqual(lines.map((l) => l.split(":")[0]), [
      "ok   PTY session",
      "ok   detection",
      "ok   built-in plugin",
      "Self-test passed (3 checks)",
    ]);
    assert.ok(lines[2]!.includes(`${pkg.bin} __plugin env answered its handshake`), lines[2]);
  });

  await t.step("the launcher's path reaches no child process", async () => {
    const plugins = `${pkg.home}/.config/lazyshell/plugins`;
    Deno.mkdirSync(plugins, { recursive: true });
    Deno.writeTextFileSync(`${plugins}/showenv`, "#!/bin/sh\nenv\n", { mode: 0o755 });
    const out = await pkg.lazyshell("showenv");
    assert.equal(out.code, 0, out.stderr);
    assert.match(out.stdout, /^LAZYSHELL_PROTOCOL=1$/m);
    assert.doesNotMatch(out.stdout, /LAZYSHELL_SELF/);
  });

  await t.step("the launcher leaves the working directory as it found it", async () => {
    // It visits the package's folder to resolve it (bin/lazyshell): the program must not start there.
    const plugins = `${pkg.home}/.config/lazyshell/plugins`;
    Deno.mkdirSync(plugins, { recursive: true });
    Deno.writeTextFileSync(`${plugins}/where`, '#!/bin/sh\npwd -P\necho "$PWD"\n', {
      mode: 0o755,
    });
    Deno.mkdirSync(`${pkg.home}/real`);
    Deno.symlinkSync(`${pkg.home}/real`, `${pkg.home}/link`);
    const out = await new Deno.Command(pkg.bin, {
      args: ["where"],
      cwd: `${pkg.home}/link`,
      env: { ...pkg.env, PWD: `${pkg.home}/link` },
      clearEnv: true,
      stdin: "null",
    }).output();
    assert.equal(out.code, 0, decoder.decode(out.stderr));
    const [physical] = decoder.decode(out.stdout).split("\n");
    assert.equal(physical, Deno.realPathSync(`${pkg.home}/real`));
  });
});
