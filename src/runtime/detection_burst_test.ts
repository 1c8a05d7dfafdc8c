/**
 * The OSC 7501 burst bound on a real PTY (docs/detection.md "Bursts"): a
 * program writing more than 256 KiB of records at once has them dropped
 * whole, though the PTY delivers them in several reads; a burst under the
 * bound is applied whole, in one step.
 */

import assert from "node:assert/strict";
import { testStore } from "../session/test_util.ts";
import { loadCatalog } from "./catalog.ts";
import { watchedHub } from "./test_util.ts";

const catalog = await loadCatalog({ userDir: null });

function record(state: string, msgBytes = 0): string {
  const msg = msgBytes > 0 ? `:msg=${btoa("x".repeat(msgBytes))}` : "";
  return `\x1b]7501;state=${state}${msg}\x1b\\`;
}

/** `count` records: blocked first, done last, working with a 1.5 KB msg between. */
function burst(count: number): string {
  const middle = Array.from({ length: count - 2 }, () => record("working", 1500)).join("");
  return record("blocked") + middle + record("done");
}

/**
 * The states the hub reports while `cat` writes `bytes` (`count` records),
 * then — once the session has answered a key — a lone `state=idle`
 * record; each state with how many records had arrived when it was
 * reported. The key is sent once every record arrived, so the end of the
 * burst does not depend on this machine's scheduling.
 */
async function statesFor(bytes: string, count: number): Promise<string[]> {
  const dir = await Deno.makeTempDir();
  try {
    await Deno.writeTextFile(`${dir}/burst`, bytes);
    await using store = testStore();
    using hub = watchedHub(store, catalog);
    const states: string[] = [];
    let arrived = 0;
    const idle = record("idle").replaceAll("\x1b", "\\033");
    const session = store.create({
      command: `stty -echo; cat '${dir}/burst'; read -r _; printf '${idle}'; sleep 30`,
    });
    const all = Promise.withResolvers<void>();
    session.on((e) => {
      if (e.type === "osc7501" && ++arrived === count) all.resolve();
    });
    const done = new Promise<void>((resolve, reject) => {
      const timer = setTimeout(() => reject(new Error(`timed out: ${states}`)), 15_000);
      hub.on((e) => {
        if (e.type !== "state" || e.id !== session.id) return;
        states.push(`${e.status.state}@${arrived}`);
        if (e.status.state === "idle" && e.status.source === "declared") {
          clearTimeout(timer);
          resolve();
        }
      });
    });
    await all.promise;
    session.write("\n", false); // ctl send: input ends the burst in flight
    await done;
    return states;
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
}

Deno.test("hub: a 405 KB burst of OSC 7501 records is dropped whole, not applied in part", async () => {
  const bytes = burst(200);
  assert.ok(bytes.length > 400_000, `${bytes.length} bytes`);
  assert.deepEqual(await statesFor(bytes, 200), ["idle@201"]);
});

Deno.test("hub: a 200 KB burst, several PTY reads, is applied whole once all of it arrived", async () => {
  const bytes = burst(100);
  assert.ok(bytes.length > 150_000 && bytes.length < 256 * 1024, `${bytes.length} bytes`);
  const states = await statesFor(bytes, 100);
  // Every record declared is seen, in order, and none before the last one arrived.
  assert.deepEqual(states.map((s) => s.split("@")[0]), ["blocked", "working", "done", "idle"]);
  assert.ok(states.every((s) => Number(s.split("@")[1]) >= 100), states.join(" "));
});
