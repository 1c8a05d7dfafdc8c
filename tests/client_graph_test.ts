/**
 * What the client loads before its hello goes out (docs/architecture.md,
 * Start-up): `lazyshell attach` and `ls` load main.ts, the launcher's
 * adoption, the client's argv and src/client/client.ts with what the hello
 * needs — 17 modules, ~55 KB, the host terminal's code among them (an
 * attach takes its terminal before the hello) —, and the rest by mode once
 * the hello is out (one_shot.ts, attached.ts: the server works meanwhile)
 * or when a server may be started (start.ts). Deno's cost grows with each module and each
 * kilobyte loaded (measured: ~50 µs a module, ~40 µs a KB of source, of
 * CPU); the client loaded 23 modules, 82 KB, before its hello.
 *
 * A module added to this path fails the test: add it to the list only if
 * the hello cannot go out without it.
 */

import assert from "node:assert/strict";
import { info, ROOT, staticClosure } from "./module_graph.ts";

/** The modules `entries` load before they run (paths from the repository root), sorted. */
async function loaded(...entries: string[]): Promise<string[]> {
  const all = new Set<string>();
  for (const entry of entries) {
    for (const s of staticClosure(await info(entry), entry)) all.add(s.slice(ROOT.href.length));
  }
  return [...all].sort();
}

/**
 * main.ts's dynamic imports on the client's way (an attach loads the last two beside the
 * launcher's; `ls` and the others one after the other).
 */
const BEFORE_HELLO = [
  "main.ts",
  "src/plugin/launcher.ts",
  "src/client/main.ts",
  "src/client/client.ts",
];

Deno.test("the client loads only what its hello needs before sending it", async () => {
  assert.deepEqual(await loaded(...BEFORE_HELLO), [
    "deno.json",
    "main.ts",
    "src/client/client.ts",
    "src/client/link.ts",
    "src/client/main.ts",
    "src/config/paths.ts",
    "src/errors.ts",
    "src/ipc/private_path.ts",
    "src/model/update_env.ts",
    "src/platform/libc.ts",
    "src/platform/terminal.ts",
    "src/plugin/launcher.ts",
    "src/tui/core/terminal_modes.ts",
    "src/tui/host.ts",
    "src/tui/stderr.ts",
    "src/wire/paths.ts",
    "src/wire/protocol.ts",
  ]);
});

Deno.test("ls and the other one-shot modes load no terminal code after the hello", async () => {
  const before = new Set(await loaded(...BEFORE_HELLO));
  const after = (await loaded("src/client/one_shot.ts")).filter((s) => !before.has(s));
  assert.deepEqual(after, ["src/client/one_shot.ts"]);
});

Deno.test("attaching to a running server loads no view, no spawn: the splash draws it on demand", async () => {
  // The splash (a server starting) needs the view, ~50 modules; an attach to a running server
  // draws nothing itself: measured, `lazyshell ls` went from 1.45× to 1.20× a bare `deno run`.
  const attach = await loaded(...BEFORE_HELLO, "src/client/attached.ts");
  assert.ok(attach.includes("src/tui/splash.ts"), attach.join(" "));
  const view = attach.filter((s) =>
    s.startsWith("src/tui/core/view/") || s === "src/tui/core/keymap.ts"
  );
  assert.deepEqual(view, []);
  // Nor what identifies programs (src/platform/liveness.ts is enough to see a server die, and
  // only then), the project file's search or a server's start (only a server that starts).
  const starting = [
    "src/session/procinfo.ts",
    "src/session/identity.ts",
    "src/config/project_find.ts",
    "src/platform/liveness.ts",
    "src/wire/spawn.ts",
    "src/ipc/runtime_dir.ts",
    "src/plugin/self.ts",
  ];
  assert.deepEqual(attach.filter((s) => starting.includes(s)), []);
  // A client that may start a server loads that, and only it.
  assert.ok((await loaded("src/client/start.ts")).includes("src/wire/spawn.ts"));
});
