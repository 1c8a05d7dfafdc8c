/**
 * Qwen Code (`@qwen-code/qwen-code`, node). Offline start: OPENAI_BASE_URL /
 * OPENAI_API_KEY / OPENAI_MODEL at the mock (Chat Completions) and an
 * `openai` auth type in ~/.qwen/settings.json. Its side requests (permission
 * classifier, next-input suggestion, memory) are answered as aux by the mock.
 */

import type { AgentProfile } from "../profile.ts";
import { baseEnv, cliVersion, freshDir, KEYS, workdir, writeJson } from "./common.ts";

export const qwen: AgentProfile = {
  id: "qwen",
  idleRe: /Type your message|\? for shortcuts/,
  blockedRe: /Allow execution|Yes, allow once|Do you want to proceed|Apply this change/,
  busyRe: /esc to cancel|^◐/, // title "◐︎ Qwen - <dir>"
  trustRe: /trust this folder|Trust folder/i,
  questionRe: /Which test framework should I use/,
  trustKeys: [KEYS.enter],
  approveKey: KEYS.enter,
  interruptKeys: [KEYS.esc],
  idleWaitMs: 8000,
  quitKeys: [KEYS.ctrlC, KEYS.ctrlC],
  async setup({ lab, mockUrl, scenario, name }) {
    const home = freshDir(`${lab}/homes/${name}`);
    const cwd = await workdir(lab, `qwen-${name}`);
    Deno.mkdirSync(`${home}/.qwen`, { recursive: true });
    const text = writeJson(`${home}/.qwen/settings.json`, {
      security: {
        auth: { selectedType: "openai" },
        ...(scenario === "trust" ? { folderTrust: { enabled: true } } : {}),
      },
      model: { name: "mock-model" },
      privacy: { usageStatisticsEnabled: false },
      general: { disableAutoUpdate: true, enableWelcomeBack: false },
      ide: { hasSeenNudge: true },
    });
    return {
      file: "qwen",
      args: [],
      env: {
        ...baseEnv(lab, home),
        OPENAI_API_KEY: "lab-dummy-key",
        OPENAI_BASE_URL: `${mockUrl}/v1`,
        OPENAI_MODEL: "mock-model",
      },
      cwd,
      version: await cliVersion(`${lab}/node_modules/.bin/qwen`, home),
      configFiles: { "qwen-settings.json": text },
    };
  },
};
