import assert from "node:assert/strict";
import { loadCatalog } from "../runtime/catalog.ts";
import { identify } from "../session/identity.ts";
import { ReplaySession, standIn } from "./replay_session.ts";

const catalog = await loadCatalog({ userDir: null });

Deno.test("every built-in agent's stand-in process is identified as that agent (S4)", () => {
  for (const m of catalog.manifests) {
    const argv = standIn(m);
    const proc = { pid: 0, startTime: 0, comm: argv[0]!, argv, exe: null };
    assert.equal(identify(proc, catalog.identities()), m.id, argv.join(" "));
  }
});

Deno.test("a replayed session reports what a live one does, and names no program once exited", async () => {
  using session = new ReplaySession({
    id: "session-1",
    cols: 40,
    rows: 5,
    argv: standIn(catalog.get("claude")!),
    manifests: [],
    declared: false,
  });
  const seen: string[] = [];
  using _ = session.on((e) => seen.push(e.type));
  await session.output(new TextEncoder().encode("\x1b]7501;state=working\x07hello"));
  session.type("x");
  session.resize(30, 5);
  session.resize(30, 5); // the same size: nothing to report
  assert.equal(session.foreground()?.argv[0], "claude");
  session.exit(0, null);
  session.type("y"); // after the exit: no one reads it
  assert.deepEqual(seen, ["output", "input", "resize", "exit"], "records left out (screen alone)");
  assert.equal(session.foreground(), null);
});
