/**
 * Scenarios of the dialogs agents draw beside the plain permission prompt:
 * several questions at once (`ask-multi`), a subagent that asks permission
 * and runs in the background (`agent`, `background`), an MCP tool (`mcp`), a
 * permission prompt across resizes (`resize`) and opencode's "Always allow"
 * confirmation (`always`). Labels as in scenarios.ts.
 */

import type { ScenarioName } from "./profile.ts";
import {
  blocked,
  busy,
  idle,
  noPrompt,
  type Player,
  type Scenario,
  settle,
  TOOL_PROMPT,
  toolTurn,
  untilPermission,
} from "./player.ts";
import { KEYS } from "./agents/common.ts";

/** Claude Code's line while its main turn has ended and subagents still run. */
const WAITING = /Waiting for \d+ background agents? to finish/;

/** The main turn ended but a background agent runs on: working, with the idle footer. */
async function waitingForAgents(p: Player): Promise<void> {
  const waiting = (s: string) =>
    WAITING.test(s) && p.agent.idleRe.test(s) && !p.agent.blockedRe.test(s) &&
    !/ finished · \d/.test(s);
  const at = await p.waitState(waiting, 120000, "waiting for the background agent");
  if (!at) return;
  p.label(
    "working",
    "main turn ended; it waits for its background agent (idle footer) and goes on by itself",
    "screen",
    at,
  );
  // A point every 8 s while it lasts: the idle footer stays on screen all along.
  for (let i = 1; i <= 3; i++) {
    await p.wait(8000);
    if (!waiting(p.screenText())) break;
    p.label("working", `still waiting for the background agent (${8 * i} s later)`, "screen");
  }
}

/** Claude goes on once the agent finished, and its turn completes: "✻ Crunched for 18s". */
async function doneAfterAgents(p: Player): Promise<void> {
  const at = await p.waitState(
    (s, title) => {
      const after = s.slice(s.lastIndexOf(" finished"));
      return /finished/.test(s) && /\n✻ \S+ for \d/.test(after) && !busy(p, s, title);
    },
    180000,
    "the turn to complete after the background agent",
  );
  if (at) p.label("done", "background agent finished; the main turn completed", "screen", at);
  await settle(p, "turn ended; prompt waiting for input");
  await p.wait(4000);
}

const ANSWERS = "LAB-ASK-MULTI: add a regression test for the parser";

export const MORE_BODIES = {
  async "ask-multi"(p) {
    await idle(p);
    await p.wait(3000);
    await p.prompt(ANSWERS);
    const steps = p.agent.multiQuestion ?? [];
    for (const [i, step] of steps.entries()) {
      const at = await p.waitScreen(step.screen, 60000, step.note);
      if (!at) {
        p.note(`step ${i + 1} of the dialog never showed: no key pressed`);
        await p.waitTurnEnd(30000);
        return;
      }
      p.label("blocked", step.note, "screen", at);
      await p.wait(4000);
      for (const [j, k] of step.keys.entries()) {
        if (j > 0) await p.wait(500);
        p.key(k, `${step.note}: key ${JSON.stringify(k)}`);
      }
    }
    const last = steps.at(-1);
    if (last) {
      await p.labelOnScreen(
        "working",
        "user submitted the answers",
        (s) => !last.screen.test(s),
      );
    }
    await p.waitTurnEnd(60000);
    await settle(p, "turn ended after the questions were answered");
    await p.wait(4000);
  },

  // Claude Code 2.1.33x runs every subagent in the background: the subagent's permission
  // prompt comes over "Waiting for 1 background agent to finish".
  async agent(p) {
    p.ownTurnEnds();
    await idle(p);
    await p.wait(3000);
    await p.prompt("LAB-AGENT: please create the marker file lab-file.txt with a subagent");
    const note = "the subagent's permission prompt on screen";
    if (!await blocked(p, p.agent.blockedRe, "permission prompt", note)) return noPrompt(p);
    await p.wait(6000);
    p.key(p.agent.approveKey, "approve the subagent's permission prompt");
    await p.labelOnScreen(
      "working",
      "user approved the subagent's tool call",
      (s) => !p.agent.blockedRe.test(s),
    );
    await waitingForAgents(p);
    await doneAfterAgents(p);
  },

  async background(p) {
    p.ownTurnEnds();
    await idle(p);
    await p.wait(3000);
    await p.prompt("LAB-BACKGROUND: think about the parser with a subagent");
    await waitingForAgents(p);
    await doneAfterAgents(p);
  },

  mcp: (p) => toolTurn(p, "LAB-MCP: please create the marker file lab-file.txt with the lab tool"),

  // The permission prompt stays while the terminal shrinks twice and grows back.
  resize: (p) =>
    toolTurn(p, TOOL_PROMPT, async (p) => {
      for (const [cols, rows] of [[100, 28], [80, 24], [120, 32]] as const) {
        p.resize(cols, rows);
        p.label("blocked", `permission prompt redrawn at ${cols}x${rows} (resize)`, "driver");
        await p.wait(4000);
      }
    }),

  // opencode: "Allow always" asks once more ("△ Always allow"), then Confirm.
  async always(p) {
    if (!await untilPermission(p, TOOL_PROMPT)) return;
    await p.wait(4000);
    p.key(KEYS.right, 'select "Allow always"');
    await p.wait(600);
    p.key(KEYS.enter, 'choose "Allow always"');
    const confirm = /△ Always allow/;
    const note = 'permission prompt: the "Always allow" confirmation on screen';
    if (!await blocked(p, confirm, "always-allow confirmation", note)) return noPrompt(p);
    await p.wait(5000);
    p.key(KEYS.enter, "Confirm");
    await p.labelOnScreen(
      "working",
      "user confirmed always allowing the command",
      (s) => !confirm.test(s) && !p.agent.blockedRe.test(s),
    );
    await p.waitTurnEnd(60000);
    await settle(p, "turn ended; prompt waiting for input");
    await p.wait(4000);
  },
} satisfies Partial<Record<ScenarioName, Scenario>>;
