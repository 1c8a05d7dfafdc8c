import assert from "node:assert/strict";
import { ConfigError, ManifestError } from "../errors.ts";
import { loadCatalogSync } from "../runtime/catalog.ts";
import { loadConfig } from "./load.ts";
import { loadProject } from "./project_load.ts";
import { FileRefused, MAX_SETTINGS_FILE_BYTES, readSettingsFile } from "./read_file.ts";

function mkfifo(path: string): void {
  const out = new Deno.Command("mkfifo", { args: [path] }).outputSync();
  assert.ok(out.success, "mkfifo");
}

/** A 72 MB file (sparse: it costs no disk), a FIFO, a symlink to /dev/zero, a good file. */
function hostile(dir: string) {
  const big = `${dir}/big.yml`;
  using f = Deno.openSync(big, { create: true, write: true });
  f.truncateSync(72 * 1024 * 1024);
  const fifo = `${dir}/fifo.yml`;
  mkfifo(fifo);
  const zero = `${dir}/zero.yml`;
  Deno.symlinkSync("/dev/zero", zero);
  const good = `${dir}/good.yml`;
  Deno.writeTextFileSync(good, "control:\n  enabled: true\n");
  const linked = `${dir}/linked.yml`;
  Deno.symlinkSync(good, linked);
  return { big, fifo, zero, good, linked };
}

Deno.test("readSettingsFile() refuses a huge file, a FIFO and /dev/zero by a symlink, without blocking", () => {
  const dir = Deno.makeTempDirSync();
  try {
    const f = hostile(dir);
    assert.throws(
      () => readSettingsFile(f.big),
      (e) =>
        e instanceof FileRefused &&
        e.message === "75497472 bytes, over the 256 KiB limit of a settings file: not read",
    );
    assert.throws(() => readSettingsFile(f.fifo), /^FileRefused: Not a regular file \(a FIFO\)/);
    assert.throws(() => readSettingsFile(f.zero), /Not a regular file \(a character device\)/);
    assert.throws(() => readSettingsFile(dir), /Not a regular file \(a directory\)/);
    assert.throws(() => readSettingsFile(`${dir}/missing.yml`), Deno.errors.NotFound);
    assert.equal(readSettingsFile(f.linked), "control:\n  enabled: true\n", "a symlink to a file");
    Deno.writeTextFileSync(f.good, "x".repeat(MAX_SETTINGS_FILE_BYTES));
    assert.equal(
      readSettingsFile(f.good).length,
      MAX_SETTINGS_FILE_BYTES,
      "the limit itself is fine",
    );
  } finally {
    Deno.removeSync(dir, { recursive: true });
  }
});

Deno.test("config.yml, a project file and a user manifest that are not plain small files are one-line errors", () => {
  const dir = Deno.makeTempDirSync();
  try {
    const f = hostile(dir);
    const configDir = `${dir}/cfg/lazyshell`;
    Deno.mkdirSync(`${configDir}/agents`, { recursive: true });
    const config = `${configDir}/config.yml`;
    const cases = [
      [f.big, "75497472 bytes, over the 256 KiB limit of a settings file: not read"],
      [f.fifo, "Not a regular file (a FIFO): not read"],
      [f.zero, "Not a regular file (a character device): not read"],
    ] as const;
    for (const [target, reason] of cases) {
      Deno.symlinkSync(target, config);
      assert.throws(
        () => loadConfig({ XDG_CONFIG_HOME: `${dir}/cfg` }),
        (e) => e instanceof ConfigError && e.message === `${config}: ${reason}`,
      );
      Deno.removeSync(config);
      assert.throws(
        () => loadProject({ cwd: dir, file: target }),
        (e) => e instanceof ConfigError && e.message === `${target}: ${reason}`,
      );
      Deno.symlinkSync(target, `${configDir}/agents/${target.slice(dir.length + 1)}`);
    }
    const catalog = loadCatalogSync({ userDir: `${configDir}/agents` });
    assert.deepEqual(
      catalog.errors.map((e) => e instanceof ManifestError && e.message),
      cases.map(([target, reason]) =>
        `${configDir}/agents/${target.slice(dir.length + 1)}: ${reason}`
      ),
    );
    assert.ok(catalog.get("claude"), "the built-in manifests still load");
  } finally {
    Deno.removeSync(dir, { recursive: true });
  }
});

Deno.test("a YAML alias bomb in config.yml is a one-line ConfigError, not an internal error", () => {
  const dir = Deno.makeTempDirSync();
  try {
    Deno.mkdirSync(`${dir}/lazyshell`);
    const levels = ["a: &a [x, x, x, x, x, x, x, x, x]"];
    for (let i = 1; i < 9; i++) {
      const prev = String.fromCharCode(96 + i);
      const name = String.fromCharCode(97 + i);
      levels.push(`${name}: &${name} [${Array(9).fill(`*${prev}`).join(", ")}]`);
    }
    Deno.writeTextFileSync(`${dir}/lazyshell/config.yml`, levels.join("\n") + "\n");
    assert.throws(
      () => loadConfig({ XDG_CONFIG_HOME: dir }),
      (e) =>
        e instanceof ConfigError &&
        e.message === `${dir}/lazyshell/config.yml: Cannot use this YAML: ` +
            "Excessive alias count indicates a resource exhaustion attack",
    );
  } finally {
    Deno.removeSync(dir, { recursive: true });
  }
});
