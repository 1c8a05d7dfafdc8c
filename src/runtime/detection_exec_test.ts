/**
 * An agent reached through a launcher chain (a shim script that `exec`s,
 * `env`, the agent) is identified even when it is quiet afterwards: exec
 * keeps the pid and the process group, so nothing but the process itself
 * says the program changed (docs/detection.md "Identity"). Real processes, a real PTY.
 */

import assert from "node:assert/strict";
import { testStore } from "../session/test_util.ts";
import { loadCatalog } from "./catalog.ts";
import { type WatchedHub, watchedHub } from "./test_util.ts";

const catalog = await loadCatalog({ userDir: null });

/** Resolves when the hub names `agent` for the session, or rejects after `ms`. */
function identified(watch: WatchedHub, id: string, agent: string, ms: number): Promise<void> {
  return new Promise((resolve, reject) => {
    const timer = setTimeout(
      () => reject(new Error(`not identified as ${agent} in ${ms} ms: ${watch.hub.agent(id)}`)),
      ms,
    );
    const sub = watch.on((e) => {
      if (e.type !== "agent" || e.id !== id || e.agent !== agent) return;
      clearTimeout(timer);
      sub[Symbol.dispose]();
      resolve();
    });
  });
}

for (const quiet of [false, true]) {
  const what = quiet ? "prints nothing at all" : "draws once, then stays quiet";
  Deno.test(`hub: an agent started through a shim, then env, that ${what}, is identified`, async () => {
    const dir = await Deno.makeTempDir();
    try {
      // The agent: a script named like it (the process table names it), waiting on stdin.
      await Deno.writeTextFile(
        `${dir}/claude`,
        `#!/bin/bash\n${quiet ? "" : "printf '╭ Claude Code ╮\\r\\n❯ \\r\\n'\n"}read -r _\n`,
      );
      // A shim as pyenv/asdf write them: does some work, then execs the next step in place.
      await Deno.writeTextFile(
        `${dir}/start-agent`,
        `#!/bin/bash\nsleep 0.3\nexec env LAB=1 '${dir}/claude'\n`,
      );
      await Deno.chmod(`${dir}/claude`, 0o755);
      await Deno.chmod(`${dir}/start-agent`, 0o755);
      await using store = testStore();
      using watch = watchedHub(store, catalog);
      const session = store.create({ command: `${dir}/start-agent` });
      // When the shim's answer was reused and nothing asked again, this never came.
      await identified(watch, session.id, "claude", 10_000);
      assert.equal(session.foreground()?.pid, session.pid, "exec kept the pid");
    } finally {
      await Deno.remove(dir, { recursive: true });
    }
  });
}
