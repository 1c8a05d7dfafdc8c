/**
 * A frame drawn inside a synchronized update (`CSI ? 2026 h` … `l`) is not
 * classified half drawn: the hub waits for its end. Real bytes: opencode
 * wraps every redraw in one, and in `opencode-fail-overload` the screen cut
 * at byte 167558 (64 bytes into the update that starts at 167494) reads
 * idle while the agent works before and after it. The fake agent writes the
 * capture up to the update, then the first 64 bytes of it, then — 400 ms
 * later, eight settle periods — the rest.
 */

import assert from "node:assert/strict";
import { loadCatalog } from "../src/runtime/catalog.ts";
import { DetectionHub } from "../src/runtime/detection.ts";
import { SessionStore } from "../src/session/store.ts";
import { testEnv, waitFor } from "../src/session/test_util.ts";
import type { AgentStateName } from "../src/model/agent.ts";

const FAKE = new URL("./testdata/replay_parts.ts", import.meta.url).pathname;
const CAPTURE = new URL("../fixtures/captures/opencode-fail-overload", import.meta.url).pathname;
const UPDATE = 167494;
const CUT = 167558;
const END = 167859 + "\x1b[?2026l".length;

Deno.test("a frame half drawn inside a synchronized update is not read (working stays working)", async () => {
  const dir = Deno.makeTempDirSync({ prefix: "lzs-mid-update-" });
  const catalog = await loadCatalog({ userDir: null });
  await using store = new SessionStore({ shell: "/bin/bash", env: testEnv(), cols: 120, rows: 32 });
  using hub = new DetectionHub(store, catalog, { midUpdateMaxMs: 60_000 });
  try {
    const script = `${dir}/opencode.ts`;
    Deno.copyFileSync(FAKE, script);
    const log = `${dir}/parts.log`;
    const parts = () => {
      try {
        return Deno.readTextFileSync(log).split("\n").filter(Boolean).length;
      } catch {
        return 0;
      }
    };
    const session = store.create({
      name: "oc",
      command: `exec ${Deno.execPath()} run -A --quiet ${script} ${CAPTURE} ${log} ` +
        `${UPDATE} ${CUT} ${END}`,
    });
    const state = () => hub.status(session.id)?.state ?? null;
    await waitFor(session, () => state() === "working", 30_000, "working before the update");
    const seen: AgentStateName[] = [];
    using _ = hub.on((e) => {
      if (e.type === "state" && e.id === session.id) seen.push(e.status.state);
    });

    Deno.kill(session.pid, "SIGUSR1");
    await waitFor(session, () => parts() === 2, 30_000, "the first bytes of the update");
    await waitFor(session, () => !session.outputBehind, 30_000, "those bytes parsed");
    assert.equal(session.midUpdate, true);
    await new Promise((r) => setTimeout(r, 400));
    Deno.kill(session.pid, "SIGUSR1");
    await waitFor(session, () => parts() === 3 && !session.midUpdate, 30_000, "the update's end");
    await new Promise((r) => setTimeout(r, 300));

    assert.deepEqual(seen.filter((s) => s !== "working"), [], `states: ${seen.join(" ")}`);
    assert.equal(state(), "working");
  } finally {
    Deno.removeSync(dir, { recursive: true });
  }
});
