/**
 * A server's sessions start at the pane a terminal of `default_size` shows
 * (src/tui/core/layout.ts sessionSize), not at `default_size` itself: a first
 * client of that size resizes nothing, so no session reflows its scrollback
 * before the first frame (docs/architecture.md, Start-up). Sized at
 * default_size, the first 120×32 attach resized the selected session and
 * reflowed its 5000 lines: ~40 % of that attach's time.
 */

import assert from "node:assert/strict";
import { sessionSize } from "../src/tui/core/layout.ts";
import { attachLab, hello, RawClient, sleep, until } from "./attach_lab.ts";

async function screen(call: (verb: string, args: Record<string, unknown>) => Promise<unknown>) {
  const r = await call("read", { target: "probe" }) as { result?: { lines: string[] } };
  return (r.result?.lines ?? []).join("\n");
}

Deno.test("a new session takes default_size's pane; the first client of that size resizes nothing", async () => {
  await using lab = await attachLab("default_size:\n  cols: 120\n  rows: 32\n");
  const call = (verb: string, args: Record<string, unknown>) => lab.server.call(verb, args);
  const created = await call("new", {
    name: "probe",
    command: "trap 'echo RESIZED; stty size' WINCH; stty size; while :; do sleep 0.05; done",
  });
  assert.ok(created.ok, JSON.stringify(created));
  const pane = sessionSize(120, 32);
  // stty's answer on a line of its own: what is asserted is what is waited for.
  const sized = new RegExp(`^${pane.rows} ${pane.cols}$`, "m");
  await until(async () => sized.test(await screen(call)));
  assert.match(await screen(call), sized);
  assert.ok(pane.cols < 120 || pane.rows < 32, "the pane is smaller than the terminal");

  using client = await RawClient.open(lab.socket);
  await client.write(hello({ cols: 120, rows: 32 }));
  const reading = client.read();
  await until(() => client.welcomed);
  assert.ok(client.welcomed, "the client was not welcomed");
  await sleep(600); // a resize would have reached the shell's trap by now
  assert.doesNotMatch(await screen(call), /RESIZED/);

  // A client of another size still resizes it (the pane it shows).
  using other = await RawClient.open(lab.socket);
  client.close();
  await reading;
  await other.write(hello({ cols: 100, rows: 30 }));
  const read2 = other.read();
  const small = sessionSize(100, 30);
  // The trap prints RESIZED, then stty's answer: wait for both lines, not the first.
  const resized = new RegExp(`RESIZED\\n${small.rows} ${small.cols}`);
  await until(async () => resized.test(await screen(call)));
  assert.match(await screen(call), resized);
  other.close();
  await read2;
});
