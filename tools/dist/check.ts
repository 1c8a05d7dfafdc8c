/**
 * The install, checked as a new user meets it (`.ci/run` runs this):
 *
 * 1. A fresh home (empty npm and Deno caches) and a PATH with Node/npm but
 *    no deno: the README's set-up command, `npx --yes deno@2.9.6 task setup`.
 * 2. The npm package: `npm pack` here, then `npm install -g` of the tarball
 *    with the registry unreachable (`--offline`, npm's cache warm from 1).
 *
 * Each installed `lazyshell` is then run from another folder: `--version`,
 * `doctor --self-test`, `init --agents` (every path it prints exists and is
 * not in a package-manager cache; doctor accepts the hooks), and `serve` +
 * `ctl list` from inside a project whose `lazyshell.yml` is found upward.
 * One line per check, then `install checks: N passed, N failed`; exit 1 on
 * any failure.
 *
 *   deno run -A tools/dist/check.ts [--keep]
 */

import { CLAUDE_HOOKS } from "../../src/ipc/integrations.ts";
import { claudeHookRunners, codexNotifyRunner } from "../../src/plugin/hook_paths.ts";
import { inPackageCache } from "../../src/plugin/self.ts";
import { exists } from "../../src/util/fs.ts";
import { type Output, ROOT, VERSION } from "./build.ts";
import { spawnServe } from "../abuse/server.ts";

let passed = 0;
let failed = 0;

function check(ok: boolean, what: string, detail = ""): boolean {
  if (ok) passed++;
  else failed++;
  console.log(
    `${ok ? "ok  " : "FAIL"} install: ${what}${!ok && detail ? `\n${indent(detail)}` : ""}`,
  );
  return ok;
}

function indent(text: string): string {
  return text.trim().split("\n").slice(-30).map((l) => `       ${l}`).join("\n");
}

const base = Deno.makeTempDirSync({ prefix: "lazyshell-install-check-" });
const home = `${base}/home`;
Deno.mkdirSync(home);

/** PATH as the user's, minus any deno: the README promises Node/npm are enough. */
function pathWithoutDeno(): string {
  const bin = `${base}/path`;
  Deno.mkdirSync(bin);
  for (const dir of (Deno.env.get("PATH") ?? "/usr/bin:/bin").split(":")) {
    let entries: Deno.DirEntry[];
    try {
      entries = [...Deno.readDirSync(dir)];
    } catch {
      continue;
    }
    for (const e of entries) {
      if (e.name === "deno" || e.isDirectory || exists(`${bin}/${e.name}`)) continue;
      Deno.symlinkSync(`${dir}/${e.name}`, `${bin}/${e.name}`);
    }
  }
  return `${home}/.local/bin:${bin}`;
}

/** A fresh user's environment: only what reaches the registry is passed through. */
const env: Record<string, string> = {
  HOME: home,
  PATH: pathWithoutDeno(),
  LANG: "C.UTF-8",
  SHELL: "/bin/sh",
  XDG_RUNTIME_DIR: `${base}/run`,
};
for (const [k, v] of Object.entries(Deno.env.toObject())) {
  if (/^(https?_proxy|no_proxy|node_extra_ca_certs|npm_config_registry)$/i.test(k)) env[k] = v;
}
Deno.mkdirSync(env.XDG_RUNTIME_DIR!, { mode: 0o700 });

async function sh(
  argv: string[],
  options: { cwd?: string; timeoutMs?: number } = {},
): Promise<Output & { ms: number }> {
  const started = performance.now();
  const child = new Deno.Command(argv[0]!, {
    args: argv.slice(1),
    cwd: options.cwd ?? base,
    env,
    clearEnv: true,
    stdin: "null",
    stdout: "piped",
    stderr: "piped",
  }).spawn();
  const timer = setTimeout(() => child.kill("SIGKILL"), options.timeoutMs ?? 120_000);
  const out = await child.output();
  clearTimeout(timer);
  const dec = new TextDecoder();
  return {
    code: out.code,
    stdout: dec.decode(out.stdout),
    stderr: dec.decode(out.stderr),
    ms: Math.round(performance.now() - started),
  };
}

/** A project with its own lazyshell.yml, served from a folder below it. */
function project(name: string): { dir: string; below: string } {
  const dir = `${base}/${name}`;
  Deno.mkdirSync(`${dir}/.git`, { recursive: true });
  Deno.mkdirSync(`${dir}/src/deep`, { recursive: true });
  Deno.writeTextFileSync(
    `${dir}/lazyshell.yml`,
    "sessions:\n  - name: api\n    command: sh\n  - name: worker\n",
  );
  return { dir, below: `${dir}/src/deep` };
}

/** Every check on one installed command. */
async function checkCommand(label: string, lazyshell: string): Promise<void> {
  const elsewhere = `${base}/elsewhere`;
  Deno.mkdirSync(elsewhere, { recursive: true });
  const version = await sh([lazyshell, "--version"], { cwd: elsewhere });
  check(
    version.code === 0 &&
      new RegExp(`^lazyshell ${VERSION.replaceAll(".", "\\.")} \\(commit [0-9a-f]{12}`).test(
        version.stdout,
      ) && version.stderr === "",
    `${label}: lazyshell --version from another folder (${version.stdout.trim()})`,
    version.stdout + version.stderr,
  );

  const self = await sh([lazyshell, "doctor", "--self-test"], { cwd: elsewhere });
  check(
    self.code === 0,
    `${label}: lazyshell doctor --self-test (${self.ms} ms)`,
    self.stdout + self.stderr,
  );

  const claude = await sh([lazyshell, "init", "--agents", "claude"], { cwd: elsewhere });
  const codex = await sh([lazyshell, "init", "--agents", "codex"], { cwd: elsewhere });
  const runners = [...claudeHookRunners(claude.stdout), codexNotifyRunner(codex.stdout) ?? []];
  const paths = runners.flat().filter((w) => w.startsWith("/"));
  const bad = paths.filter((p) => !exists(p) || inPackageCache(p));
  // One runner per Claude hook event, and Codex's notify.
  check(
    claude.code === 0 && codex.code === 0 &&
      runners.length === CLAUDE_HOOKS.length + 1 && paths.length > 0 &&
      bad.length === 0 && claude.stderr === "",
    `${label}: lazyshell init --agents prints ${[...new Set(paths)].join(" ")} (exists, no cache)`,
    `${claude.stdout}\n${codex.stdout}\n${claude.stderr}\nbad: ${bad.join(" ")}`,
  );
  Deno.mkdirSync(`${home}/.claude`, { recursive: true });
  Deno.writeTextFileSync(`${home}/.claude/settings.json`, claude.stdout);
  const doctor = await sh([lazyshell, "doctor", "--no-plugins"], { cwd: elsewhere });
  check(
    /^ok {3}Claude Code hooks in .* run /m.test(doctor.stdout),
    `${label}: lazyshell doctor accepts the printed Claude Code hooks`,
    doctor.stdout + doctor.stderr,
  );

  await checkServe(label, lazyshell);
}

async function checkServe(label: string, lazyshell: string): Promise<void> {
  const config = `${home}/.config/lazyshell`;
  Deno.mkdirSync(config, { recursive: true });
  Deno.writeTextFileSync(`${config}/config.yml`, "control:\n  enabled: true\n");
  const { dir, below } = project(`project-${label}`);
  // --yes: the project file is the check's own (a user is asked first: `lazyshell trust --ask`).
  const { child: serve, ended: log } = spawnServe(env, {
    program: lazyshell,
    args: ["--yes"],
    cwd: below,
  });
  let list: Output = { code: -1, stdout: "", stderr: "" };
  let names: string[] = [];
  try {
    const deadline = Date.now() + 60_000;
    while (Date.now() < deadline) {
      list = await sh([lazyshell, "ctl", "list", "--json"], { cwd: below });
      if (list.code === 0) {
        const sessions = JSON.parse(list.stdout).result?.sessions ?? [];
        names = sessions.map((s: { name: string; cwd: string }) => `${s.name}@${s.cwd}`);
        if (names.length >= 2) break;
      }
      await new Promise((r) => setTimeout(r, 250));
    }
  } finally {
    try {
      serve.kill("SIGTERM");
    } catch {
      // Already ended: its status and log say why below.
    }
  }
  const status = await serve.status;
  const stderr = await log;
  check(
    names.join(" ") === `api@${dir} worker@${dir}`,
    `${label}: lazyshell serve in ${
      below.slice(dir.length + 1)
    } found ${dir}/lazyshell.yml; ctl list: ${names.join(" ")}`,
    `${list.stdout}${list.stderr}\nserve: ${stderr}`,
  );
  check(status.success, `${label}: lazyshell serve ended on SIGTERM`, stderr);
}

/** Running the set-up again replaces the install in place; --uninstall removes it. */
async function checkUpgradeAndUninstall(command: string): Promise<void> {
  const data = `${home}/.local/share/lazyshell`;
  // An older version's folder, as an earlier set-up would have left it.
  Deno.mkdirSync(`${data}/0.0.1`, { recursive: true });
  Deno.writeTextFileSync(`${data}/0.0.1/install.json`, "{}\n");
  const before = await sh([command, "init", "--agents", "codex"]);
  const again = await sh(["npx", "--yes", "deno@2.9.6", "task", "setup"], {
    cwd: ROOT,
    timeoutMs: 900_000,
  });
  const after = await sh([command, "init", "--agents", "codex"]);
  // Installed versions hold install.json; plugins/ and logs beside them are lazyshell's data.
  const versions = [...Deno.readDirSync(data)]
    .filter((e) => e.isDirectory && exists(`${data}/${e.name}/install.json`)).map((e) => e.name);
  check(
    again.code === 0 && after.code === 0 && after.stdout === before.stdout &&
      versions.join(" ") === VERSION,
    `setup again: upgraded in place (${Math.round(again.ms / 1000)} s), hooks unchanged, only ${
      versions.join(" ")
    } left in ${data}`,
    again.stdout + again.stderr + after.stdout + after.stderr,
  );
  const removed = await sh(["npx", "--yes", "deno@2.9.6", "task", "setup", "--uninstall"], {
    cwd: ROOT,
  });
  const left = [...Deno.readDirSync(data)].map((e) => e.name);
  check(
    removed.code === 0 && !exists(command) && !left.includes(VERSION),
    `setup --uninstall removed ${command} and ${data}/${VERSION}`,
    removed.stdout + removed.stderr,
  );
}

async function main(): Promise<void> {
  console.log(`install: fresh home ${home}, PATH without deno`);
  const setup = await sh(["npx", "--yes", "deno@2.9.6", "task", "setup"], {
    cwd: ROOT,
    timeoutMs: 900_000,
  });
  const command = `${home}/.local/bin/lazyshell`;
  const installed = check(
    setup.code === 0 && exists(command),
    `the README's set-up command installed ${command} (${Math.round(setup.ms / 1000)} s)`,
    setup.stdout + setup.stderr,
  );
  for (const line of setup.stdout.trim().split("\n")) console.log(`       ${line}`);
  if (installed) {
    await checkCommand("setup", command);
    await checkUpgradeAndUninstall(command);
  }

  // The npm package: `npm pack` as a maintainer runs it, installed with the registry unreachable.
  const pack = await sh(["npm", "pack", "--json", "--pack-destination", base], {
    cwd: ROOT,
    timeoutMs: 300_000,
  });
  let tarball = "";
  try {
    tarball = `${base}/${JSON.parse(pack.stdout)[0].filename}`;
  } catch { /* reported below */ }
  const size = tarball && exists(tarball) ? Deno.statSync(tarball).size : 0;
  if (
    !check(
      pack.code === 0 && size > 0,
      `npm pack made ${tarball.slice(base.length + 1)} (${Math.round(size / 1024)} KiB)`,
      pack.stdout + pack.stderr,
    )
  ) return;
  const prefix = `${base}/npm-global`;
  const offline = await sh([
    "npm",
    "install",
    "--global",
    "--prefix",
    prefix,
    "--offline",
    // And were npm to try the network anyway: a proxy that refuses every connection.
    "--proxy",
    "http://127.0.0.1:9/",
    "--https-proxy",
    "http://127.0.0.1:9/",
    "--no-audit",
    "--no-fund",
    "--loglevel=error",
    tarball,
  ], { timeoutMs: 300_000 });
  const bin = `${prefix}/bin/lazyshell`;
  if (
    check(
      offline.code === 0 && exists(bin),
      `npm install -g of the tarball, registry unreachable (--offline, npm cache warm): ${bin} (${
        Math.round(offline.ms / 1000)
      } s)`,
      offline.stdout + offline.stderr,
    )
  ) await checkCommand("npm", bin);
}

try {
  await main();
} catch (error) {
  check(false, "the checks themselves crashed", (error as Error).stack ?? String(error));
}
if (!Deno.args.includes("--keep")) {
  // npm leaves read-only files in its cache; make everything removable first.
  await new Deno.Command("chmod", { args: ["-R", "u+w", base] }).output();
  Deno.removeSync(base, { recursive: true });
}
console.log(`install checks: ${passed} passed, ${failed} failed`);
Deno.exit(failed === 0 ? 0 : 1);
