/**
 * `deno task capture <agent> [scenario] [--osc7501] [--no-term-replies] [--out DIR] ...`
 *
 * Runs one real agent CLI (npm-installed under --lab) against the mock model
 * server and writes one capture folder into --out (default: <lab>/captures,
 * never fixtures/ unless asked). See tools/capture/README.md.
 */

import { parseArgs } from "node:util";
import { AGENTS } from "./agents/mod.ts";
import { runCapture } from "./driver.ts";
import { DEFAULT_SCENARIOS, type ScenarioName, SCENARIOS } from "./profile.ts";

const USAGE = `Usage: deno task capture <agent> [scenario] [options]
  agents:    ${Object.keys(AGENTS).join(", ")}
  scenarios: ${SCENARIOS.join(", ")} (default: tool)
  --osc7501          answer the OSC 7501 capability probe
  --no-term-replies  answer no terminal query (DA1, DSR, XTVERSION, OSC 10/11, ...)
  --focus-out        report focus-out (CSI O) once the main prompt is up
  --out DIR          parent folder of the capture (default: <lab>/captures)
  --lab DIR          where the CLIs are npm-installed (default: $LAB_DIR or ~/.cache/lazyshell/lab)
  --name NAME        capture folder name (default: <agent>-<scenario>[-<size>][-osc7501][-noreplies])
  --size COLSxROWS   terminal size (default 120x32)
  --env K=V          extra environment for the CLI (repeatable)
  --pace X           scale the scenario's waits (default 1)
  --hard-limit SECS  end the run after this long (default 300)`;

function fail(message: string): never {
  console.error(message);
  Deno.exit(2);
}

export async function main(argv: string[]): Promise<number> {
  let parsed;
  try {
    parsed = parseArgs({
      args: argv,
      allowPositionals: true,
      options: {
        osc7501: { type: "boolean", default: false },
        "no-term-replies": { type: "boolean", default: false },
        "focus-out": { type: "boolean", default: false },
        out: { type: "string" },
        lab: { type: "string" },
        name: { type: "string" },
        size: { type: "string", default: "120x32" },
        env: { type: "string", multiple: true, default: [] },
        pace: { type: "string", default: "1" },
        "hard-limit": { type: "string", default: "300" },
        help: { type: "boolean", short: "h", default: false },
      },
    });
  } catch (error) {
    fail(`${(error as Error).message}\n${USAGE}`);
  }
  const { values, positionals } = parsed;
  if (values.help) {
    console.log(USAGE);
    return 0;
  }
  const [agentId, scenarioArg = "tool"] = positionals;
  const agent = agentId ? AGENTS[agentId] : undefined;
  if (!agent) fail(`Unknown agent: ${agentId ?? "(none)"}\n${USAGE}`);
  const scenario = scenarioArg as ScenarioName;
  const supported = agent.scenarios ?? DEFAULT_SCENARIOS;
  if (!supported.includes(scenario)) {
    fail(`Unknown scenario for ${agent.id}: ${scenarioArg} (one of ${supported.join(", ")})`);
  }
  const home = Deno.env.get("HOME") ?? "/tmp";
  const lab = values.lab ?? Deno.env.get("LAB_DIR") ?? `${home}/.cache/lazyshell/lab`;
  const bin = `${lab}/node_modules/.bin/${agent.id}`;
  try {
    Deno.statSync(bin);
  } catch {
    fail(`Not installed: ${bin} (npm install the CLI into ${lab}, see tools/capture/README.md)`);
  }
  const env: Record<string, string> = {};
  for (const kv of values.env) {
    const eq = kv.indexOf("=");
    if (eq <= 0) fail(`Bad --env: ${kv} (expected K=V)`);
    env[kv.slice(0, eq)] = kv.slice(eq + 1);
  }
  const size = /^(\d{2,3})x(\d{2,3})$/.exec(values.size);
  if (!size) fail(`Bad --size: ${values.size} (expected COLSxROWS, e.g. 80x24)`);
  const pace = Number(values.pace);
  const hardLimit = Number(values["hard-limit"]);
  if (!(pace > 0) || !(hardLimit > 0)) {
    fail("Bad --pace or --hard-limit: expected a positive number");
  }
  const result = await runCapture({
    agent,
    scenario,
    lab,
    outDir: values.out ?? `${lab}/captures`,
    ...(values.name ? { name: values.name } : {}),
    answerOsc7501: values.osc7501,
    termReplies: !values["no-term-replies"],
    focusOut: values["focus-out"],
    env,
    pace,
    hardLimitMs: hardLimit * 1000,
    cols: Number(size[1]),
    rows: Number(size[2]),
  });
  return result.forced ? 1 : 0;
}

if (import.meta.main) Deno.exit(await main(Deno.args));
