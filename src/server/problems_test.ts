/**
 * Mistakes a user can make in their set-up are each reported once, with
 * file:line, by the one validation that doctor, the TUI and serve share
 * (README "Configuration"). Real files in a temporary XDG_CONFIG_HOME.
 */

import assert from "node:assert/strict";
import { Runtime } from "../runtime/runtime.ts";
import { doctor } from "../cli/commands/doctor.ts";
import { runtimeProblems } from "./problems.ts";
import { problemsMessage } from "../tui/core/problems_message.ts";

const CONFIG = [
  "keys:", // 1
  "  unfocus: esc", // 2
  "  frobnicate: x", // 3
  "  new: j", // 4
  "shell: /nonexistent/zsh", // 5
  "contrl:", // 6
  "  enabled: true", // 7
  "colour: red", // 8
  "notify:", // 9
  "  fallbak_command: x", // 10
  "",
].join("\n");

async function withSetup(
  files: Record<string, string>,
  body: (env: Record<string, string>, dir: string) => Promise<void>,
): Promise<void> {
  const dir = await Deno.makeTempDir();
  try {
    for (const [path, text] of Object.entries(files)) {
      const full = `${dir}/lazyshell/${path}`;
      await Deno.mkdir(full.slice(0, full.lastIndexOf("/")), { recursive: true });
      await Deno.writeTextFile(full, text);
    }
    const env = {
      ...Deno.env.toObject(),
      XDG_CONFIG_HOME: dir,
      XDG_DATA_HOME: `${dir}/data`,
      SHELL: "/bin/bash",
    };
    await body(env, `${dir}/lazyshell`);
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
}

async function doctorLines(
  env: Record<string, string>,
): Promise<{ lines: string[]; code: number }> {
  const lines: string[] = [];
  const code = await doctor(env, { plugins: false, print: (l) => lines.push(l) });
  return { lines, code };
}

Deno.test("problems: each config mistake is named with its line; doctor, TUI and serve agree", async () => {
  await withSetup({
    "config.yml": CONFIG,
    "agents/broken.yml": "id: broken\nname: Broken\nidentity:\n  processes: [broken\nrules: []\n",
    "plugins/Bad_Name": "#!/bin/sh\n",
    "plugins/notexec": "#!/bin/sh\n",
  }, async (env, dir) => {
    await Deno.chmod(`${dir}/plugins/Bad_Name`, 0o755);
    const file = `${dir}/config.yml`;
    await using runtime = new Runtime({ env, cwd: dir });
    const problems = runtimeProblems(runtime, ["doctor"]);
    assert.deepEqual(problems, [
      `${file}:10: Unknown key notify.fallbak_command (ignored): did you mean fallback_command?`,
      `${file}:6: Unknown key contrl, no setting and no plugin has that name (ignored): did you mean control?`,
      `${file}:8: Unknown key colour, no setting and no plugin has that name (ignored)`,
      `${file}:3: keys.frobnicate: Unknown key action (ignored)`,
      `${file}:2: keys.unfocus: esc cannot be a terminal-mode key: agents need esc and ctrl+c (default ctrl+] kept)`,
      `${file}:4: keys.new: Key j is bound to both down and new (down wins)`,
      `${file}:5: shell: /nonexistent/zsh is not an executable file: fix the path`,
      // The line of the unclosed bracket, not the next one.
      `${dir}/agents/broken.yml:4: Invalid YAML: Flow sequence in block collection must be sufficiently indented and end with a ]: fix or remove that file`,
      `${dir}/plugins/Bad_Name: Not a plugin id (the name without extension must match ^[a-z0-9][a-z0-9_-]{0,31}$): rename it`,
      `${dir}/plugins/notexec: Not executable: chmod +x ${dir}/plugins/notexec`,
    ]);
    // The TUI's one line names the count and the first.
    assert.equal(problemsMessage(problems), `10 problems: ${problems[0]}; see lazyshell doctor`);
    // Doctor prints the same list, each once, as problems, never "No problems found".
    const { lines, code } = await doctorLines(env);
    assert.equal(code, 1);
    assert.deepEqual(lines.filter((l) => l.startsWith("FAIL ")), problems.map((p) => `FAIL ${p}`));
    assert.equal(lines.at(-1), "10 problems found");
    assert.ok(!lines.some((l) => /^ok .*warning/.test(l)), "no warning under ok");
  });
});

Deno.test("problems: a plugin's config section is not a mistake; a clean set-up has none", async () => {
  await withSetup({
    "config.yml": "agents:\n  claude:\n    inject_hooks: true\nhello:\n  greeting: hi\n",
    "plugins/hello": "#!/bin/sh\n",
  }, async (env, dir) => {
    await Deno.chmod(`${dir}/plugins/hello`, 0o755);
    await using runtime = new Runtime({ env, cwd: dir });
    assert.deepEqual(runtimeProblems(runtime), []);
    assert.deepEqual(runtime.loaded.sections, { hello: { greeting: "hi" } });
    assert.equal(problemsMessage([]), null);
  });
});

Deno.test("problems: a YAML error in config.yml is reported at the line to fix", async () => {
  await withSetup(
    { "config.yml": "scrollback: 100\nkeys:\n  up: [k\nshell: bash\n" },
    async (env, dir) => {
      const { lines } = await doctorLines(env);
      assert.equal(
        lines[0],
        `FAIL ${dir}/config.yml:3: Flow sequence in block collection must be sufficiently indented and end with a ]: fix config.yml`,
      );
    },
  );
});

Deno.test("problems: a key name no key decodes to is named at its line, by doctor too", async () => {
  await withSetup(
    { "config.yml": 'shell: /bin/sh\nkeys:\n  new: "enterr"\n  unfocus: "ctrl+zz"\n' },
    async (env, dir) => {
      const file = `${dir}/config.yml`;
      await using runtime = new Runtime({ env, cwd: dir });
      const problems = runtimeProblems(runtime, ["doctor"]);
      assert.deepEqual(problems, [
        `${file}:3: keys.new: "enterr" is not a key name: did you mean enter? (default n kept)`,
        `${file}:4: keys.unfocus: "ctrl+zz" is not a key name: did you mean ctrl+z? (default ctrl+] kept)`,
      ]);
      const { lines, code } = await doctorLines(env);
      assert.equal(code, 1);
      for (const p of problems) assert.ok(lines.includes(`FAIL ${p}`), p);
    },
  );
});

Deno.test("doctor starts a plugin with the TUI's theme colours, as its tab does", async () => {
  const good = new URL("../../fixtures/plugins/good", import.meta.url).pathname;
  await withSetup(
    { "config.yml": "shell: /bin/sh\n", "plugins/good": Deno.readTextFileSync(good) },
    async (env, dir) => {
      await Deno.chmod(`${dir}/plugins/good`, 0o755);
      const lines: string[] = [];
      await doctor(env, { print: (l) => lines.push(l) });
      assert.ok(lines.some((l) => /good: handshake ok/.test(l)), lines.join("\n"));
      const init = JSON.parse(
        Deno.readTextFileSync(`${env.XDG_DATA_HOME}/lazyshell/plugins/good/init.json`),
      );
      assert.deepEqual(init.theme.id, "terminal");
      assert.equal(init.theme.colors["ui.accent"], "ansi:6");
      assert.equal(init.theme.colors["state.blocked"], "ansi:1");
    },
  );
});
