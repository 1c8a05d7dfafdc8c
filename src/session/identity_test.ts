import assert from "node:assert/strict";
import { type AgentIdentity, identify, isLauncher, wrappedScript } from "./identity.ts";
import type { ProcessInfo } from "../model/snapshot.ts";

const CATALOG: AgentIdentity[] = [
  {
    id: "claude",
    processes: ["claude"],
    scripts: ["claude"],
    packages: ["@anthropic-ai/claude-code"],
  },
  { id: "codex", processes: ["codex"], scripts: ["codex"], packages: ["@openai/codex"] },
  { id: "gemini", processes: ["gemini"], scripts: ["gemini"], packages: ["@google/gemini-cli"] },
  { id: "qwen", processes: ["qwen"], scripts: ["qwen"], packages: ["@qwen-code/qwen-code"] },
];

function proc(argv: string[], comm = argv[0] ?? "", exe: string | null = null): ProcessInfo {
  return { pid: 1, startTime: 1, comm, argv, exe };
}

const CASES: [string, ProcessInfo, string | null][] = [
  ["native binary by argv[0]", proc(["claude", "--settings", "x"]), "claude"],
  [
    "native binary by exe path in its package",
    proc(
      ["/opt/x/claude.exe"],
      "claude.exe",
      "/l/node_modules/@anthropic-ai/claude-code/bin/claude.exe",
    ),
    "claude",
  ],
  [
    "node wrapper resolved through its script",
    proc(["node", "/l/node_modules/.bin/codex"]),
    "codex",
  ],
  [
    "node wrapper with options before the script",
    proc(["/usr/bin/node", "--max-old-space-size=12052", "/l/node_modules/.bin/gemini"]),
    "gemini",
  ],
  [
    "node wrapper whose script lives in a known package",
    proc(["node", "--expose-gc", "/l/node_modules/@qwen-code/qwen-code/cli.js"]),
    "qwen",
  ],
  ["node -e never designates an agent", proc(["node", "-e", "require('claude')"]), null],
  ["python -c never designates an agent", proc(["python3", "-c", "print('codex')"]), null],
  ["python -m never designates an agent", proc(["python3", "-m", "claude"]), null],
  ["deno run resolves its script", proc(["deno", "run", "-A", "/x/claude.ts"]), "claude"],
  ["an unknown program is no agent", proc(["sleep", "30"]), null],
  ["a wrapper with an unknown script is no agent", proc(["node", "/x/server.js"]), null],
  ["an agent name inside an argument does not count", proc(["vim", "claude.md"]), null],
];

for (const [name, p, expected] of CASES) {
  Deno.test(`identify(): ${name}`, () => assert.equal(identify(p, CATALOG), expected));
}

Deno.test("wrappedScript() skips options that take a value", () => {
  assert.equal(wrappedScript(["node", "--require", "ts-node/register", "app.js"]), "app.js");
  assert.equal(wrappedScript(["node"]), null);
  assert.equal(wrappedScript(["bash", "x.sh"]), null);
  assert.equal(wrappedScript(["node", "-e", "1"]), "inline");
});

Deno.test("isLauncher(): shims, env and scripts may exec in place; an interactive shell does not", () => {
  const cases: [ProcessInfo, boolean][] = [
    [proc(["bash", "/root/.pyenv/shims/claude"], "claude", "/usr/bin/bash"), true],
    [proc(["/bin/bash", "/opt/start-agent", "--fast"], "start-agent", "/usr/bin/bash"), true],
    [proc(["/bin/bash", "-c", "cd x && claude"], "bash", "/usr/bin/bash"), true],
    [proc(["env", "LAB=1", "claude"], "env", "/usr/bin/env"), true],
    [proc(["claude"], "claude", "/usr/local/bin/mise"), true],
    [proc(["bash"], "bash", "/usr/bin/bash"), false],
    [proc(["-bash"], "bash", "/usr/bin/bash"), false],
    [proc(["/bin/bash", "--norc", "--noprofile", "-i"], "bash", "/usr/bin/bash"), false],
    [proc(["zsh", "-l"], "zsh", "/usr/bin/zsh"), false],
    [proc(["vim", "a.txt"], "vim", "/usr/bin/vim"), false],
    [proc(["node", "/l/node_modules/.bin/claude"], "node", "/usr/bin/node"), false],
  ];
  for (const [p, want] of cases) assert.equal(isLauncher(p), want, p.argv.join(" "));
});
