/**
 * Claude Code 2.1.332 declares its state only if the OSC 7501 answer reaches
 * it before the DA1 reply to the probe it writes in the same chunk
 * (captures/README.md). Feed the captured start-up bytes of claude-tool (probe
 * unanswered in the capture) through the real emulator and check the order
 * of what goes back to the PTY.
 */

import assert from "node:assert/strict";
import { OSC7501_QUERY_REPLY } from "../src/model/agent.ts";
import { HeadlessTerminal } from "../src/session/terminal.ts";

const raw = await Deno.readFile(
  new URL("../fixtures/captures/claude-tool/output.raw", import.meta.url),
);

Deno.test("the OSC 7501 answer is written before the emulator's DA1 reply", async () => {
  const text = new TextDecoder().decode(raw);
  const probe = text.indexOf("\x1b]7501;?");
  const da1 = text.indexOf("\x1b[c", probe);
  assert.ok(probe > 0 && da1 > probe, "the capture holds the 7501 probe followed by DA1");
  // Everything up to the end of the start-up write that carries XTVERSION, CSI ? u, 7501 ? and DA1.
  const end = new TextEncoder().encode(text.slice(0, da1 + 3)).length;
  const replies: string[] = [];
  let queried = 0;
  using term = new HeadlessTerminal({ cols: 120, rows: 32, reply: (d) => replies.push(d) });
  using _ = term.on((e) => {
    if (e.type === "osc7501-query") queried++;
  });
  term.write(raw.subarray(0, end));
  await term.flush();
  assert.equal(queried, 1);
  const i7501 = replies.indexOf(OSC7501_QUERY_REPLY);
  const iDa1 = replies.findIndex((r) => r.startsWith("\x1b[?") && r.endsWith("c"));
  assert.ok(i7501 >= 0, `no 7501 answer in ${JSON.stringify(replies)}`);
  assert.ok(iDa1 >= 0, `no DA1 reply in ${JSON.stringify(replies)}`);
  assert.ok(i7501 < iDa1, `7501 answer after DA1: ${JSON.stringify(replies)}`);
});
