/**
 * Item 06: 200 pipelined 900 KB `send`s to a session that never
 * reads (`sleep 1000`) all replied ok, nothing was delivered, RSS +272 MB.
 * Bound: the PTY input queue (4 MiB); a send that does not fit is refused
 * with one line and nothing of it is queued.
 */

import { CONTROL_LINE_LIMIT, readLines } from "../../../src/ipc/jsonl.ts";
import { type AbuseItem, secs } from "../harness.ts";

const SENDS = 200;
const SIZE = 900 * 1024;

export default {
  id: "06",
  title: "200 pipelined 900 KB sends to a session that never reads",
  async run(ctx) {
    await ctx.call("new", { name: "sleeper", command: "sleep 1000" });
    const conn = await Deno.connect({ transport: "unix", path: ctx.server!.control });
    const text = "y".repeat(SIZE);
    const start = performance.now();
    const writing = (async () => {
      const encoder = new TextEncoder();
      for (let i = 0; i < SENDS; i++) {
        const line = encoder.encode(
          `${JSON.stringify({ id: i, verb: "send", args: { target: "sleeper", text } })}\n`,
        );
        let offset = 0;
        while (offset < line.length) offset += await conn.write(line.subarray(offset));
      }
    })();
    let accepted = 0;
    const errors = new Map<string, number>();
    let firstRefusal: number | undefined;
    for await (const item of readLines(conn, CONTROL_LINE_LIMIT)) {
      if (item.type !== "line" || !item.text.trim()) continue;
      const reply = JSON.parse(item.text) as { ok: boolean; error?: string };
      if (reply.ok) accepted++;
      else {
        firstRefusal ??= performance.now() - start;
        errors.set(reply.error!, (errors.get(reply.error!) ?? 0) + 1);
      }
      if (accepted + [...errors.values()].reduce((a, b) => a + b, 0) === SENDS) break;
    }
    await writing;
    conn.close();
    const refused = SENDS - accepted;
    const [message] = [...errors.keys()];
    return {
      // What the kernel takes (the terminal's line discipline swallows or echoes it) counts as
      // delivered; lazyshell itself holds at most 4 MiB for the session.
      ok: refused > 0 && errors.size === 1 && /is not reading its input/.test(message ?? ""),
      bound: `${accepted} accepted (${((accepted * SIZE) / 1024 / 1024).toFixed(1)} MiB), ` +
        `${refused} refused "${message ?? "-"}"` +
        (firstRefusal === undefined ? "" : `, first after ${secs(firstRefusal)}`),
      refusedMs: firstRefusal,
    };
  },
} satisfies AbuseItem;
