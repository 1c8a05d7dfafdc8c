/**
 * opencode (`opencode-ai`, a native Bun-compiled `opencode`).
 * Offline start: a `mock` provider (`@ai-sdk/openai-compatible`, Chat
 * Completions) in ~/.config/opencode/opencode.json with bash/edit/webfetch
 * set to "ask", model downloads and default plugins off, a local plugin that
 * logs every bus event, and `--port` so the driver can follow `/event` (SSE).
 * It installs its provider package from npm into each fresh HOME; with
 * `LAB_OPENCODE_SEED=<an earlier capture's HOME>` those packages are copied in
 * first, so it starts with no network at all (a namespace with only 127.0.0.1).
 */

import { type AgentProfile, DEFAULT_SCENARIOS } from "../profile.ts";
import { baseEnv, cliVersion, freshDir, KEYS, workdir } from "./common.ts";

const LOGGER_PLUGIN = (log: string) =>
  `import { appendFileSync } from "node:fs";
const log = (event, payload) => appendFileSync(${
    JSON.stringify(log)
  }, JSON.stringify({ t_epoch_ms: Date.now(), event, payload }) + "\\n");
export const LabLogger = async () => ({
  event: async ({ event }) => { if (!/^message\\.part\\.(delta|updated)$/.test(event.type)) log(event.type, event.properties); },
  "permission.ask": async (input, output) => log("hook:permission.ask", { input, output }),
  "tool.execute.before": async (input, output) => log("hook:tool.execute.before", { input, output }),
  "tool.execute.after": async (input, output) => log("hook:tool.execute.after", { tool: input.tool }),
  "chat.message": async (input, output) => log("hook:chat.message", { input }),
});
`;

export const opencode: AgentProfile = {
  id: "opencode",
  idleRe: /ctrl\+p|tab agents|Ask anything|commands/i,
  blockedRe: /Permission required|Allow once|Allow always/i,
  // The retry line "<provider message> [retrying in 2s attempt #3]" can push "esc interrupt"
  // off the footer (opencode-fail-rate).
  // A message longer than the row cuts the hint itself: "… (click to expand) [retrying in 1s"
  // (opencode-fail-rate-long).
  busyRe: /esc (again to )?interrupt|\[retrying\b/,
  retryRe: /\[retrying\b/,
  // A failed turn: the provider's message after a bar, first in a toast at the top right,
  // then in a block above the turn marker (mock/failures.ts has the messages). The retry
  // line shows them too, but with no bar.
  failedRe:
    /┃ {2}(?:Incorrect API key|You exceeded your current quota|The server is overloaded|Rate limit reached|Connection reset|The usage limit has been reached)/,
  trustRe: /trust/i,
  questionRe: /Which test framework should I use/,
  // Its question tool with two questions: a digit picks (or ticks) an option, Tab goes to
  // the review tab, Enter submits.
  multiQuestion: [
    {
      screen: /Which test framework should I use for the regression test\?/,
      note: "question 1 of 2 (single choice) on screen",
      keys: ["1"],
    },
    {
      screen: /Which cases should the regression test cover\? \(select all that apply\)/,
      note: "question 2 of 2 (multi-select) on screen",
      keys: ["1", "3"],
    },
    {
      screen: /\[✓\] Empty input[\s\S]*\[✓\] Long input/,
      note: "question 2 of 2 with two answers ticked",
      keys: [KEYS.tab],
    },
    { screen: /Cases: Empty input, Long input/, note: "review tab on screen", keys: [KEYS.enter] },
  ],
  trustKeys: [KEYS.enter],
  approveKey: KEYS.enter,
  // The first Esc only arms it: the footer says "esc again to interrupt".
  interruptKeys: [KEYS.esc, KEYS.esc],
  idleWaitMs: 8000,
  quitKeys: [KEYS.ctrlC, KEYS.ctrlC],
  // It has no folder-trust dialog; "Allow always" asks for a confirmation.
  scenarios: [...DEFAULT_SCENARIOS.filter((s) => s !== "trust"), "always", "limit-retry"],
  async setup({ lab, mockUrl, mockPort, name }) {
    const home = freshDir(`${lab}/homes/${name}`);
    const cwd = await workdir(lab, `opencode-${name}`);
    // Below the ephemeral range, so it cannot collide with the mock's random port.
    const serverPort = 29000 + (mockPort % 1000);
    const cfg = {
      $schema: "https://opencode.ai/config.json",
      provider: {
        mock: {
          npm: "@ai-sdk/openai-compatible",
          name: "Mock LLM",
          options: { baseURL: `${mockUrl}/v1`, apiKey: "lab-dummy-key" },
          models: {
            "mock-model": {
              name: "Mock Model",
              tool_call: true,
              limit: { context: 128000, output: 8192 },
            },
          },
        },
      },
      model: "mock/mock-model",
      small_model: "mock/mock-model",
      permission: { bash: "ask", edit: "ask", webfetch: "ask" },
      autoupdate: false,
      share: "disabled",
    };
    const cfgText = JSON.stringify(cfg, null, 1);
    Deno.mkdirSync(`${home}/.config/opencode/plugin`, { recursive: true });
    Deno.writeTextFileSync(`${home}/.config/opencode/opencode.json`, cfgText);
    await seedPackages(home);
    const pluginLog = `${home}/plugin-events.jsonl`;
    Deno.writeTextFileSync(
      `${home}/.config/opencode/plugin/lab-logger.js`,
      LOGGER_PLUGIN(pluginLog),
    );
    const noPort = /noport/.test(name); // plain `opencode`: does the TUI listen without --port?
    return {
      file: "opencode",
      args: noPort ? [] : ["--port", String(serverPort)],
      env: {
        ...baseEnv(lab, home),
        OPENCODE_DISABLE_AUTOUPDATE: "1",
        OPENCODE_DISABLE_MODELS_FETCH: "1",
        OPENCODE_DISABLE_LSP_DOWNLOAD: "1",
        OPENCODE_DISABLE_DEFAULT_PLUGINS: "1",
        OPENCODE_DISABLE_SHARE: "1",
      },
      cwd,
      version: await cliVersion(`${lab}/node_modules/.bin/opencode`, home),
      ...(noPort ? {} : { sseUrl: `http://127.0.0.1:${serverPort}/event` }),
      hookLog: pluginLog,
      hookKind: "plugin",
      configFiles: { "opencode-config.json": cfgText },
    };
  },
};

/** The packages opencode installed into an earlier HOME (`LAB_OPENCODE_SEED`), copied in. */
async function seedPackages(home: string): Promise<void> {
  const seed = Deno.env.get("LAB_OPENCODE_SEED");
  if (!seed) return;
  const from = `${seed}/.config/opencode`;
  const files = ["node_modules", "package.json", "package-lock.json"].map((f) => `${from}/${f}`);
  const out = await new Deno.Command("cp", {
    args: ["-a", ...files, `${home}/.config/opencode/`],
    stdout: "null",
    stderr: "piped",
  }).output();
  if (!out.success) throw new Error(`LAB_OPENCODE_SEED: ${new TextDecoder().decode(out.stderr)}`);
}
