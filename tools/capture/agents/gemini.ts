/**
 * Gemini CLI (`@google/gemini-cli`, node). Offline start:
 * GOOGLE_GEMINI_BASE_URL at the mock (streamGenerateContent SSE), an API-key
 * auth type in ~/.gemini/settings.json, folder trust off (on for `trust`),
 * update nags and usage statistics off.
 */

import { type AgentProfile, DEFAULT_SCENARIOS } from "../profile.ts";
import { baseEnv, cliVersion, freshDir, KEYS, workdir, writeJson } from "./common.ts";

export const gemini: AgentProfile = {
  id: "gemini",
  idleRe: /Type your message|for shortcuts/,
  blockedRe: /Allow execution|Yes, allow once|Do you want to proceed|Apply this change/,
  busyRe: /esc to cancel|Working…/, // title "✦  Working… (<dir>)"
  trustRe: /trust this folder|Trust folder/i,
  questionRe: /Which test framework should I use/,
  // "Usage limit reached for gemini-2.5-flash." / "Access resets at 5:02 PM GMT+5:30." over
  // "1. Keep trying" / "2. Stop" (a retry delay over 300 s).
  limitRe: /Usage limit reached for \S/,
  limitDialogRe: /\d\.\s+Keep trying/,
  limitStopKeys: ["2"],
  trustKeys: [KEYS.enter],
  approveKey: KEYS.enter,
  interruptKeys: [KEYS.esc],
  idleWaitMs: 8000,
  scenarios: [...DEFAULT_SCENARIOS, "limit-dialog"],
  quitKeys: [KEYS.ctrlC, KEYS.ctrlC],
  async setup({ lab, mockUrl, scenario, name }) {
    const home = freshDir(`${lab}/homes/${name}`);
    const cwd = await workdir(lab, `gemini-${name}`);
    Deno.mkdirSync(`${home}/.gemini`, { recursive: true });
    const text = writeJson(`${home}/.gemini/settings.json`, {
      security: {
        auth: { selectedType: "gemini-api-key" },
        folderTrust: { enabled: scenario === "trust" },
      },
      privacy: { usageStatisticsEnabled: false },
      general: { disableAutoUpdate: true, disableUpdateNag: true },
      ide: { hasSeenNudge: true },
      model: { name: "gemini-2.5-flash" },
    });
    return {
      file: "gemini",
      args: [],
      env: {
        ...baseEnv(lab, home),
        GEMINI_API_KEY: "lab-dummy-key",
        GOOGLE_GEMINI_BASE_URL: mockUrl,
      },
      cwd,
      version: await cliVersion(`${lab}/node_modules/.bin/gemini`, home),
      configFiles: { "gemini-settings.json": text },
    };
  },
};
