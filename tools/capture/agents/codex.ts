/**
 * Codex (`@openai/codex`: `node bin/codex.js` → native musl `codex`).
 * Offline start: a `mock` model provider (Responses API) in
 * ~/.codex/config.toml, approval_policy=on-request (the mock asks for
 * escalation, so the CLI must ask the user), the work dir trusted (except
 * for `trust`), and `notify` logged through scripts/notify-log.sh.
 * Codex 0.171 starts an app-server daemon per CODEX_HOME: the driver ends it
 * by PID after the CLI exits (found through the capture's HOME).
 */

import type { AgentProfile } from "../profile.ts";
import { baseEnv, cliVersion, freshDir, KEYS, workdir } from "./common.ts";

export const codex: AgentProfile = {
  id: "codex",
  idleRe: /\? for shortcuts|context left|Ask Codex|›\s/,
  blockedRe: /Would you like to (run|make|grant|allow)|Press enter to confirm or esc to cancel/,
  // "Working (… esc to interrupt)" vanishes while text streams; the title spinner does not.
  busyRe: /esc to interrupt|^[\u2800-\u28ff] /,
  trustRe: /trust the (files|contents)|Do you trust|Trust this|trusted/i,
  questionRe: /Which test framework should I use/,
  trustKeys: ["1", KEYS.enter],
  approveKey: KEYS.enter,
  interruptKeys: [KEYS.esc],
  idleWaitMs: 8000,
  quitKeys: [KEYS.ctrlC, KEYS.ctrlC],
  async setup({ lab, mockUrl, scenario, name, scriptsDir }) {
    const home = freshDir(`${lab}/homes/${name}`);
    const cwd = await workdir(lab, `codex-${name}`);
    const notifyLog = `${home}/notify.jsonl`;
    Deno.mkdirSync(`${home}/.codex`, { recursive: true });
    const notif = /notif/.test(name)
      ? '\n[tui]\nnotifications = true\nnotification_method = "osc9"\nnotification_condition = "always"\n'
      : "";
    const trusted = scenario === "trust" ? "" : `\n[projects."${cwd}"]\ntrust_level = "trusted"\n`;
    const toml = `model = "mock-model"
model_provider = "mock"
approval_policy = "on-request"
sandbox_mode = "workspace-write"
check_for_update_on_startup = false
notify = ["${scriptsDir}/notify-log.sh"]

[model_providers.mock]
name = "Mock LLM"
base_url = "${mockUrl}/v1"
env_key = "MOCK_API_KEY"
wire_api = "responses"
${trusted}${notif}`;
    Deno.writeTextFileSync(`${home}/.codex/config.toml`, toml);
    return {
      file: "codex",
      args: [],
      env: {
        ...baseEnv(lab, home),
        MOCK_API_KEY: "lab-dummy-key",
        LAB_NOTIFY_LOG: notifyLog,
        RUST_LOG: "warn",
      },
      cwd,
      version: await cliVersion(`${lab}/node_modules/.bin/codex`, home),
      notifyLog,
      configFiles: { "codex-config.toml": toml },
    };
  },
};
