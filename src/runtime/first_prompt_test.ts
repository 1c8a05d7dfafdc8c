import assert from "node:assert/strict";
import { parseConfig } from "../config/config.ts";
import { testEnv, waitFor } from "../session/test_util.ts";
import { Runtime } from "./runtime.ts";
import { deliverFirstPrompt, promptHost } from "./first_prompt.ts";

const FAKE = new URL("../../tests/testdata/input_agent.ts", import.meta.url).pathname;

/**
 * An agent that looks ready (its idle screen, its input box) but ignores
 * Enter while it still starts, with nothing on screen to say so: Codex
 * offline did for 60-90 s (tools/live). The first prompt keeps pressing
 * Enter while the text waits in the box, and is taken once the agent is.
 */
Deno.test("the first prompt is taken by an agent that ignores Enter while it starts", async () => {
  const tmp = Deno.makeTempDirSync({ prefix: "lzs-first-prompt-" });
  const env = testEnv({ XDG_CONFIG_HOME: `${tmp}/config`, XDG_DATA_HOME: `${tmp}/data` });
  await using runtime = new Runtime({ env, config: parseConfig("", "config.yml"), cwd: tmp });
  try {
    Deno.copyFileSync(FAKE, `${tmp}/claude.ts`); // identified as Claude Code: its rules and box
    const session = runtime.createSession({
      name: "starting",
      command: `MODE=starting STARTING_MS=2500 exec ${Deno.execPath()} run -A --quiet ` +
        `${tmp}/claude.ts ${tmp}/reads.log`,
    });
    await waitFor(session, () => runtime.view(session.id)?.agent === "claude", 30_000, "identity");
    const outcome = await deliverFirstPrompt(
      promptHost(runtime),
      session,
      "claude",
      true,
      "Fix the parser",
      {
        receiptMs: 30_000,
        retryEveryMs: 500,
      },
    );
    assert.deepEqual(outcome, { type: "received", id: session.id });
    const reads = Deno.readTextFileSync(`${tmp}/reads.log`).split("\n").filter((l) => l !== "")
      .map((l) => (JSON.parse(l) as { data: string }).data).filter((d) => !d.startsWith("\x1b["));
    // The text once (no second paste), then Enters until one was taken, and none after it.
    assert.equal(reads.filter((d) => d !== "\r").join(""), "Fix the parser");
    assert.ok(reads.filter((d) => d === "\r").length >= 3, `reads: ${JSON.stringify(reads)}`);
    assert.equal(reads.at(-1), "\r");
  } finally {
    Deno.removeSync(tmp, { recursive: true });
  }
});
