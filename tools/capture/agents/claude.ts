/**
 * Claude Code (`@anthropic-ai/claude-code`, a native Bun-compiled `claude`).
 * Offline start: ANTHROPIC_BASE_URL at the mock, an API key pre-approved in
 * ~/.claude.json, onboarding/upsell dialogs marked as seen (except for the
 * `firststart` scenario), the work dir trusted (except for `trust`), and
 * every hook event logged through scripts/hook-log.sh. The `mcp` scenario
 * adds the lab's stdio MCP server (scripts/mcp_server.ts) with --mcp-config.
 * `limit-auto` and `limit-week` sign in as a Max subscriber instead (SUBSCRIBER_ENV): its
 * usage-limit screens are a subscriber's; with an API key Claude Code shows a
 * plain `API Error: Request rejected (429)` (docs/limits.md).
 */

import { type AgentProfile, DEFAULT_SCENARIOS } from "../profile.ts";
import { baseEnv, cliVersion, freshDir, KEYS, workdir, writeJson } from "./common.ts";

const API_KEY = "sk-ant-lab-dummy-0000000000000000000000000000LABKEY";
const VERSION_SEEN = "2.1.332";
/**
 * A Max subscriber, to Claude Code 2.1.332: an OAuth token from the
 * environment (sent as a bearer token to ANTHROPIC_BASE_URL, i.e. the mock)
 * and the subscription it would have read from the account's profile.
 */
const SUBSCRIBER_ENV = {
  CLAUDE_CODE_OAUTH_TOKEN: "sk-ant-oat01-lab-dummy-0000000000000000LABTOKEN",
  CLAUDE_CODE_SUBSCRIPTION_TYPE: "max",
  CLAUDE_CODE_RATE_LIMIT_TIER: "default_claude_max_20x",
};
const HOOK_EVENTS = [
  "SessionStart",
  "SessionEnd",
  "UserPromptSubmit",
  "PreToolUse",
  "PostToolUse",
  "PermissionRequest",
  "Notification",
  "Stop",
  "StopFailure",
  "SubagentStart",
  "SubagentStop",
  "PreCompact",
];

export const claude: AgentProfile = {
  id: "claude",
  // Idle footer: "⏸ manual mode on · ? for shortcuts" or "⏵⏵ auto mode on (shift+tab to cycle)".
  idleRe: /\? for shortcuts|shift\+tab to cycle\)(?!.*esc to interrupt)/,
  blockedRe: /Do you want to proceed\?/,
  busyRe: /esc to interrupt/,
  trustRe: /trust this folder|Do you trust|Yes, I trust/i,
  questionRe: /Which test framework should I use/,
  // "⎿ You've hit your 5-hour limit · resets 8:43am (America/Los_Angeles)" (a subscriber).
  limitRe: /You've hit your [\w-]+ limit · resets /,
  // AskUserQuestion with two questions: a digit picks (or ticks) an option; the second
  // question's "Submit" row is four rows down; the review step's "1. Submit answers".
  multiQuestion: [
    {
      screen: /Which test framework should I use for the regression test\?/,
      note: "question 1 of 2 (single choice) on screen",
      keys: ["1"],
    },
    {
      screen: /Which cases should the regression test cover\?/,
      note: "question 2 of 2 (multi-select) on screen",
      keys: ["1", "3"],
    },
    {
      screen: /\[✔\] Empty input[\s\S]*\[✔\] Long input/,
      note: "question 2 of 2 with two answers ticked",
      keys: [KEYS.down, KEYS.down, KEYS.down, KEYS.down, KEYS.enter],
    },
    { screen: /Review your answers/, note: "review of the answers on screen", keys: ["1"] },
  ],
  // The trust dialog's default is "No, exit": Down, then Enter.
  trustKeys: [KEYS.down, KEYS.enter],
  approveKey: KEYS.enter,
  interruptKeys: [KEYS.esc],
  idleWaitMs: 70000,
  quitKeys: [KEYS.ctrlC, KEYS.ctrlC],
  scenarios: [
    ...DEFAULT_SCENARIOS,
    "firststart",
    "agent",
    "background",
    "mcp",
    "resize",
    "limit-auto",
    "limit-week",
  ],
  async setup({ lab, mockUrl, scenario, name, scriptsDir }) {
    const home = freshDir(`${lab}/homes/${name}`);
    const cwd = await workdir(lab, `claude-${name}`);
    const firstStart = scenario === "firststart";
    const hookLog = `${home}/hooks.jsonl`;
    writeJson(`${home}/.claude.json`, {
      hasCompletedOnboarding: true,
      lastOnboardingVersion: VERSION_SEEN,
      lastReleaseNotesSeen: VERSION_SEEN,
      theme: "dark",
      numStartups: 5,
      firstStartTime: "2026-01-01T00:00:00.000Z",
      autoUpdates: false,
      // Skip the 2.1.33x upsell/notice dialogs ("Try the new fullscreen renderer?", auto mode).
      ...(firstStart ? {} : {
        fullscreenUpsellSeenCount: 99,
        hasSeenAutoDefaultNotice: true,
        hasSeenAutoDefaultNudge: true,
        hasSeenTasksHint: true,
      }),
      customApiKeyResponses: { approved: [API_KEY.slice(-20)], rejected: [] },
      projects: scenario === "trust" ? {} : {
        [cwd]: {
          hasTrustDialogAccepted: true,
          hasCompletedProjectOnboarding: true,
          allowedTools: [],
          projectOnboardingSeenCount: 5,
        },
      },
    });
    Deno.mkdirSync(`${home}/.claude`, { recursive: true });
    const hook = (event: string) => [{
      matcher: "*",
      hooks: [{ type: "command", command: `${scriptsDir}/hook-log.sh ${event}` }],
    }];
    const settings = {
      ...(firstStart ? {} : { permissions: { defaultMode: "default" } }),
      hooks: Object.fromEntries(HOOK_EVENTS.map((e) => [e, hook(e)])),
    };
    const settingsFile = `${home}/lab-settings.json`;
    const settingsText = writeJson(settingsFile, settings);
    const args = firstStart
      ? ["--settings", settingsFile]
      : ["--settings", settingsFile, "--permission-mode", "default"];
    const configFiles: Record<string, string> = { "claude-settings-hooks.json": settingsText };
    if (scenario === "mcp") {
      const mcpFile = `${home}/lab-mcp.json`;
      configFiles["claude-mcp.json"] = writeJson(mcpFile, {
        mcpServers: {
          lab: {
            command: Deno.execPath(),
            args: ["run", "--quiet", "--no-config", `${scriptsDir}/mcp_server.ts`],
          },
        },
      });
      args.push("--mcp-config", mcpFile);
    }
    return {
      file: "claude",
      args,
      env: {
        ...baseEnv(lab, home),
        ANTHROPIC_BASE_URL: mockUrl,
        ...(scenario.startsWith("limit-") ? SUBSCRIBER_ENV : { ANTHROPIC_API_KEY: API_KEY }),
        DISABLE_TELEMETRY: "1",
        DISABLE_AUTOUPDATER: "1",
        DISABLE_ERROR_REPORTING: "1",
        CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC: "1",
        LAB_HOOK_LOG: hookLog,
      },
      cwd,
      version: await cliVersion(`${lab}/node_modules/.bin/claude`, home),
      hookLog,
      configFiles,
    };
  },
};
