import assert from "node:assert/strict";
import { CLAUDE_HOOKS, claudeSettings, codexNotifyLine, hookCommand } from "../ipc/integrations.ts";
import {
  claudeHookRunners,
  codexNotifyRunner,
  hookPathFindings,
  type HookPathOptions,
  shellWords,
} from "./hook_paths.ts";

Deno.test("shellWords: the quoting shellQuote writes reads back", () => {
  const argv = ["/opt/my tools/deno", "run", "-A", "/it's/main.ts", "hook", "blocked"];
  assert.deepEqual(shellWords(hookCommand(argv.slice(0, 4), ["blocked"])), argv);
  assert.deepEqual(shellWords(`a "b \\"c\\" d" e\\ f ''`), ["a", 'b "c" d', "e f", ""]);
});

Deno.test("the runners of what init --agents prints are found again", () => {
  const self = ["/home/u/.local/bin/lazyshell"];
  const claude = claudeHookRunners(JSON.stringify(claudeSettings(self)));
  assert.equal(claude.length, CLAUDE_HOOKS.length); // six, StopFailure included
  for (const r of claude) assert.deepEqual(r, self);
  assert.deepEqual(codexNotifyRunner(`model = "x"\n${codexNotifyLine(self)}\n`), self);
  // Other hooks and notify programs are not ours.
  const other = {
    hooks: { Stop: [{ hooks: [{ type: "command", command: "notify-send done" }] }] },
  };
  assert.deepEqual(claudeHookRunners(JSON.stringify(other)), []);
  assert.equal(codexNotifyRunner(`notify = ["notify-send", "done"]`), null);
  assert.deepEqual(codexNotifyRunner(`notify = ['/x/lazyshell', 'hook', 'done'] # mine`), [
    "/x/lazyshell",
  ]);
});

function options(files: Record<string, string>, present: string[]): HookPathOptions {
  return {
    home: "/h",
    read: (p) => files[p] ?? null,
    exists: (p) => present.includes(p),
    opencodePlugin: "// plugin v2\n",
  };
}

Deno.test("doctor: hooks whose program is gone or in a cache are problems with the fix", () => {
  const npx = ["/h/.npm/_npx/1a2b/node_modules/deno/deno", "run", "-A", "/src/main.ts"];
  const files = {
    "/h/.claude/settings.json": JSON.stringify(claudeSettings(["/old/bin/lazyshell"])),
    "/h/.codex/config.toml": codexNotifyLine(npx),
    "/h/.config/opencode/plugin/lazyshell.js": "// plugin v1\n",
  };
  const findings = hookPathFindings(options(files, [npx[0]!, "/src/main.ts"]));
  assert.deepEqual(findings.map((f) => f.ok), [false, false, false]);
  assert.match(
    findings[0]!.text,
    /^Claude Code hooks in \/h\/.claude\/settings.json run \/old\/bin\/lazyshell, which no longer exists: replace lazyshell's hooks in \/h\/.claude\/settings.json with the output of lazyshell init --agents claude$/,
  );
  assert.match(
    findings[1]!.text,
    /_npx\/1a2b\/.*inside a package-manager cache.*init --agents codex$/,
  );
  assert.match(
    findings[2]!.text,
    /differs from this lazyshell's: lazyshell init --agents opencode > \/h\/.config\/opencode\/plugin\/lazyshell.js$/,
  );
});

Deno.test("doctor: hooks that run an existing stable lazyshell are fine; none configured, no line", () => {
  const self = ["/h/.local/bin/lazyshell"];
  const files = {
    "/h/.claude/settings.json": JSON.stringify(claudeSettings(self)),
    "/h/.codex/config.toml": codexNotifyLine(self),
    "/h/.config/opencode/plugin/lazyshell.js": "// plugin v2\n",
  };
  const findings = hookPathFindings(options(files, self));
  assert.deepEqual(findings.map((f) => [f.ok, f.text.split(" run ")[0]]), [
    [true, "Claude Code hooks in /h/.claude/settings.json"],
    [true, "Codex notify in /h/.codex/config.toml"],
    [true, "opencode plugin /h/.config/opencode/plugin/lazyshell.js is current"],
  ]);
  assert.deepEqual(hookPathFindings(options({}, [])), []);
});
