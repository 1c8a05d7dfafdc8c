/**
 * A real capture replayed in parts by a fake agent (testdata/replay_parts.ts)
 * in a real PTY session, with a detection hub on it: for the tests that cut
 * a capture where a read may cut it. `next()` writes the next part; `parts()`
 * counts the parts written (the fake logs each after writing it).
 */

import { loadCatalog } from "../src/runtime/catalog.ts";
import type { DetectionHub, DetectionOptions } from "../src/runtime/detection.ts";
import { watchedHub } from "../src/runtime/test_util.ts";
import { SessionStore } from "../src/session/store.ts";
import type { Session } from "../src/session/session.ts";
import { testEnv } from "../src/session/test_util.ts";
import type { AgentStateName } from "../src/model/agent.ts";

const FAKE = new URL("./testdata/replay_parts.ts", import.meta.url).pathname;

export interface ReplayLab extends AsyncDisposable {
  readonly hub: DetectionHub;
  readonly session: Session;
  /** Parts written so far (the first at start). */
  parts(): number;
  /** Writes the next part. */
  next(): void;
  /** The session's state now, or null. */
  state(): AgentStateName | null;
  /** The states the hub reported from now on, in order. */
  record(): AgentStateName[];
}

/**
 * `agent`: the script's name (how the hub identifies it: `claude`,
 * `opencode`); `capture`: a directory under fixtures/captures; `cuts`: the
 * end of each part, in bytes of output.raw.
 */
export async function replayLab(
  agent: string,
  capture: string,
  cuts: readonly number[],
  hubOptions: DetectionOptions,
): Promise<ReplayLab> {
  const dir = Deno.makeTempDirSync({ prefix: `lzs-replay-${agent}-` });
  const catalog = await loadCatalog({ userDir: null });
  const store = new SessionStore({ shell: "/bin/bash", env: testEnv(), cols: 120, rows: 32 });
  const watch = watchedHub(store, catalog, hubOptions);
  const hub = watch.hub;
  const script = `${dir}/${agent}.ts`;
  Deno.copyFileSync(FAKE, script);
  const log = `${dir}/parts.log`;
  const dirOf = new URL(`../fixtures/captures/${capture}`, import.meta.url).pathname;
  const session = store.create({
    name: agent,
    command: `exec ${Deno.execPath()} run -A --quiet ${script} ${dirOf} ${log} ${cuts.join(" ")}`,
  });
  const subs: Disposable[] = [];
  return {
    hub,
    session,
    parts: () => {
      try {
        return Deno.readTextFileSync(log).split("\n").filter(Boolean).length;
      } catch {
        return 0;
      }
    },
    next: () => Deno.kill(session.pid, "SIGUSR1"),
    state: () => hub.status(session.id)?.state ?? null,
    record: () => {
      const seen: AgentStateName[] = [];
      subs.push(watch.on((e) => {
        if (e.type === "state" && e.id === session.id) seen.push(e.status.state);
      }));
      return seen;
    },
    async [Symbol.asyncDispose]() {
      for (const s of subs) s[Symbol.dispose]();
      hub[Symbol.dispose]();
      await store[Symbol.asyncDispose]();
      Deno.removeSync(dir, { recursive: true });
    },
  };
}
