import assert from "node:assert/strict";
import { ManifestError } from "../errors.ts";
import { identify } from "../session/identity.ts";
import { loadCatalog, loadCatalogSync } from "./catalog.ts";

const BUILTIN = ["claude", "codex", "opencode", "gemini", "qwen"];
const IDENTITY_ONLY = [
  "amp",
  "aider",
  "cursor-agent",
  "copilot",
  "goose",
  "crush",
  "kimi",
  "droid",
];

Deno.test("catalog: built-in manifests all parse; rules for five agents, identity for the rest", async () => {
  const catalog = await loadCatalog({ userDir: null });
  assert.deepEqual(catalog.errors, []);
  for (const id of BUILTIN) assert.ok((catalog.get(id)?.rules.length ?? 0) > 0, id);
  for (const id of IDENTITY_ONLY) assert.equal(catalog.get(id)?.rules.length, 0, id);
});

Deno.test("catalog: every built-in rule names the capture that justifies it", async () => {
  const dir = new URL("../../manifests/", import.meta.url);
  for (const id of BUILTIN) {
    const text = await Deno.readTextFile(new URL(`${id}.yml`, dir));
    const lines = text.split("\n");
    lines.forEach((line, i) => {
      const rule = /^ {2}- id: (\S+)/.exec(line)?.[1];
      if (!rule) return;
      let comment = "";
      for (let j = i - 1; j >= 0 && /^\s*#/.test(lines[j]!); j--) comment = lines[j] + comment;
      assert.match(comment, /@\d+|captures\/README\.md|held out/, `${id}.yml rule ${rule}`);
    });
  }
});

const proc = (argv: string[], comm: string, exe: string | null = null) => ({
  pid: 1,
  startTime: 1,
  comm,
  argv,
  exe,
});

Deno.test("catalog: real agent process identities (captures/README.md)", () => {
  const ids = loadCatalogSync({ userDir: null }).identities();
  const cases: [ReturnType<typeof proc>, string | null][] = [
    [
      proc(
        ["claude", "--settings", "x"],
        "claude",
        "/h/node_modules/@anthropic-ai/claude-code/bin/claude.exe",
      ),
      "claude",
    ],
    [proc(["node", "/h/node_modules/.bin/codex"], "node", "/usr/bin/node"), "codex"],
    [
      proc(
        ["/h/node_modules/@openai/codex-linux-x64/vendor/x86_64-unknown-linux-musl/bin/codex"],
        "codex",
      ),
      "codex",
    ],
    [
      proc(["opencode", "--port", "1"], "opencode", "/h/node_modules/opencode-ai/bin/opencode.exe"),
      "opencode",
    ],
    [
      proc(["/usr/bin/node", "--max-old-space-size=12052", "/h/node_modules/.bin/gemini"], "node"),
      "gemini",
    ],
    [
      proc(["/usr/bin/node", "--expose-gc", "/h/node_modules/@qwen-code/qwen-code/cli.js"], "node"),
      "qwen",
    ],
    [proc(["node", "/h/node_modules/@anthropic-ai/claude-code/cli.js"], "node"), "claude"],
    [proc(["node", "-e", "require('claude')"], "node"), null],
    [proc(["bash"], "bash", "/usr/bin/bash"), null],
  ];
  for (const [p, want] of cases) assert.equal(identify(p, ids), want, p.argv.join(" "));
});

Deno.test("catalog: user manifests replace by name, add new ones, and a broken one is reported alone", async () => {
  const dir = await Deno.makeTempDir();
  try {
    await Deno.writeTextFile(
      `${dir}/codex.yml`,
      "id: codex\nname: My Codex\nidentity: { processes: [codex] }\nrules:\n  - id: mine\n    state: blocked\n    any: ['HELP']\n",
    );
    await Deno.writeTextFile(
      `${dir}/myagent.yml`,
      "id: myagent\nidentity: { processes: [myagent] }\n",
    );
    await Deno.writeTextFile(
      `${dir}/broken.yml`,
      "id: broken\nrules:\n  - id: x\n    state: idle\n    any: ['(']\n",
    );
    await Deno.writeTextFile(`${dir}/notes.txt`, "ignored");
    const catalog = await loadCatalog({ userDir: dir });
    assert.equal(catalog.get("codex")?.name, "My Codex");
    assert.deepEqual(catalog.get("codex")?.rules.map((r) => r.id), ["mine"], "replaced wholesale");
    assert.ok(catalog.get("myagent"));
    assert.ok(catalog.get("claude"), "the others keep working");
    assert.equal(catalog.get("broken"), null);
    assert.equal(catalog.errors.length, 1);
    const e = catalog.errors[0]!;
    assert.ok(e instanceof ManifestError);
    assert.equal(e.file, `${dir}/broken.yml`);
    assert.equal(e.line, 5);
    assert.match(e.reason, /Invalid regex/);
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("catalog: the user directory defaults to $XDG_CONFIG_HOME/lazyshell/agents; missing is fine", async () => {
  const home = await Deno.makeTempDir();
  try {
    const none = await loadCatalog({ env: { XDG_CONFIG_HOME: home } });
    assert.deepEqual(none.errors, []);
    await Deno.mkdir(`${home}/lazyshell/agents`, { recursive: true });
    await Deno.writeTextFile(`${home}/lazyshell/agents/zed.yml`, "id: zed\n");
    const one = await loadCatalog({ env: { XDG_CONFIG_HOME: home } });
    assert.ok(one.get("zed"));
  } finally {
    await Deno.remove(home, { recursive: true });
  }
});
