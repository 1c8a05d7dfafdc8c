import assert from "node:assert/strict";
import { detectAgents, toAgentEntry } from "./agents.ts";
import { which } from "../util/fs.ts";
import { claudeHookStatus, codexHookStatus } from "./hook_status.ts";

function files(map: Record<string, string>) {
  return (path: string) => map[path] ?? null;
}
const base = { home: "/h", os: "linux", injectClaude: false };

Deno.test("Claude hooks: installed, missing, injected, disabled by settings", () => {
  const hooks = JSON.stringify({
    hooks: { Stop: [{ hooks: [{ type: "command", command: "lazyshell hook done" }] }] },
  });
  assert.equal(
    claudeHookStatus({ ...base, read: files({ "/h/.claude/settings.json": hooks }) }).state,
    "installed",
  );
  const missing = claudeHookStatus({ ...base, read: files({}) });
  assert.equal(missing.state, "missing");
  assert.match(missing.detail, /run lazyshell init --agents/);
  assert.equal(
    claudeHookStatus({ ...base, injectClaude: true, read: files({}) }).state,
    "injected",
  );
  const managed = "/etc/claude-code/managed-settings.json";
  const disabled = claudeHookStatus({
    ...base,
    read: files({ "/h/.claude/settings.json": hooks, [managed]: '{"disableAllHooks":true}' }),
  });
  assert.equal(disabled.state, "disabled");
  assert.match(
    disabled.detail,
    /disableAllHooks is set in \/etc\/claude-code\/managed-settings.json/,
  );
  const only = claudeHookStatus({
    ...base,
    read: files({ "/h/.claude/settings.json": hooks, [managed]: '{"allowManagedHooksOnly":true}' }),
  });
  assert.equal(only.state, "disabled");
  assert.match(only.detail, /allowManagedHooksOnly/);
  assert.equal(
    claudeHookStatus({
      ...base,
      read: files({ "/h/.claude/settings.json": '{"disableAllHooks":true}' }),
    })
      .state,
    "disabled",
  );
});

Deno.test("Codex notify is recognised", () => {
  const read = files({
    "/h/.codex/config.toml": 'model = "x"\nnotify = ["lazyshell", "hook", "done"]\n',
  });
  assert.equal(codexHookStatus({ ...base, read }).state, "installed");
  assert.equal(codexHookStatus({ ...base, read: files({}) }).state, "missing");
});

Deno.test("agents are found on PATH with their version; missing ones are listed too", async () => {
  const dir = Deno.makeTempDirSync({ prefix: "lazyshell-agents-" });
  Deno.writeTextFileSync(`${dir}/fakeagent`, "#!/bin/sh\necho 'fakeagent 1.2.3 (build 7)'\n", {
    mode: 0o755,
  });
  Deno.writeTextFileSync(`${dir}/notexec`, "#!/bin/sh\n", { mode: 0o644 });
  assert.equal(which("fakeagent", `/nonexistent:${dir}`), `${dir}/fakeagent`);
  assert.equal(which("notexec", dir), null);
  const reports = await detectAgents(
    [
      { id: "claude", name: "Fake", processes: ["nope", "fakeagent"], builtin: true },
      { id: "ghost", name: "Ghost", processes: ["ghost-cli"], builtin: false },
    ],
    { env: { PATH: dir, HOME: "/h" }, read: files({}) },
  );
  assert.deepEqual(toAgentEntry(reports[0]!), {
    id: "claude",
    name: "Fake",
    installed: true,
    version: "1.2.3",
    managedDir: "/h/.claude",
    readDirs: ["/h/.claude", "/h/.claude/skills", "/h/.claude/commands"],
    source: "builtin",
    hooks: "missing",
  });
  assert.equal(reports[1]!.installed, false);
  assert.equal(reports[1]!.version, null);
  assert.equal(reports[1]!.source, "user");
  assert.equal(reports[1]!.hooks, "unsupported");
  Deno.removeSync(dir, { recursive: true });
});
