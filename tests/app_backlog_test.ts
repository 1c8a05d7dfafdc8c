/**
 * The TUI's side of frames coalescing (docs/architecture.md, Bounds): while
 * its client is behind, TuiApp writes nothing and counts the frames it
 * skipped; once the client drained, it writes one frame, the diff against
 * the last frame it wrote. Applied to a terminal that shows only what was
 * written, that frame gives the screen a fresh draw gives. Real PTY
 * session, real emulators on both sides.
 */

import assert from "node:assert/strict";
import { parseConfig } from "../src/config/config.ts";
import { Runtime } from "../src/runtime/runtime.ts";
import { TuiApp } from "../src/tui/app.ts";
import { HeadlessTerminal } from "../src/session/terminal.ts";
import { testEnv, waitForText } from "../src/session/test_util.ts";

const SIZE = { cols: 100, rows: 30 };

async function shown(bytes: string[]): Promise<string[]> {
  using t = new HeadlessTerminal({ ...SIZE, scrollback: 0 });
  for (const b of bytes) t.write(b);
  await t.flush();
  return t.visibleLines().map((l) => l.trimEnd());
}

Deno.test("behind, the TUI skips frames and counts them; drained, one frame makes the terminal a fresh draw", async () => {
  const dir = Deno.makeTempDirSync({ prefix: "lzs-backlog-" });
  const env = testEnv({ XDG_CONFIG_HOME: `${dir}/c`, XDG_DATA_HOME: `${dir}/d` });
  const runtime = new Runtime({ env, config: parseConfig("", "config.yml"), cwd: dir });
  let behind = false;
  let drained = Promise.withResolvers<void>();
  const written: string[] = [];
  const app = new TuiApp({
    runtime,
    ...SIZE,
    write: (t) => written.push(t),
    backlog: { behind: () => behind, drained: () => drained.promise },
  });
  try {
    const session = runtime.createSession({ name: "cat", command: "cat" });
    app.start();
    session.write("first line\r");
    await waitForText(session, "first line");
    await new Promise((r) => setTimeout(r, 50));
    app.flush();
    assert.ok((await shown(written)).some((l) => l.includes("first line")));
    const before = written.length;

    behind = true;
    for (let i = 0; i < 20; i++) {
      session.write(`behind ${i}\r`);
      await waitForText(session, `behind ${i}`);
      await new Promise((r) => setTimeout(r, 20));
      app.flush();
    }
    assert.equal(written.length, before, "written while behind");
    assert.ok(app.skipped > 0, "no frame counted as skipped");

    behind = false;
    drained.resolve();
    drained = Promise.withResolvers<void>();
    await new Promise((r) => setTimeout(r, 100));
    app.flush();
    assert.equal(written.length, before + 1, "not one frame once drained");

    // A fresh TUI of the same size draws the same screen from nothing.
    const fresh: string[] = [];
    using other = new TuiApp({ runtime, ...SIZE, write: (t) => fresh.push(t), client: "fresh" });
    other.start();
    other.flush();
    const lines = await shown(written);
    assert.ok(lines.some((l) => l.includes("behind 19")), lines.join("\n"));
    assert.deepEqual(lines, await shown(fresh));
  } finally {
    app[Symbol.dispose]();
    await runtime[Symbol.asyncDispose]();
    Deno.removeSync(dir, { recursive: true });
  }
});

Deno.test("a new client's first frame is written though its link is behind (its Welcome); the next ones wait", async () => {
  const dir = Deno.makeTempDirSync({ prefix: "lzs-backlog-" });
  const env = testEnv({ XDG_CONFIG_HOME: `${dir}/c`, XDG_DATA_HOME: `${dir}/d` });
  const runtime = new Runtime({ env, config: parseConfig("", "config.yml"), cwd: dir });
  const drained = Promise.withResolvers<void>();
  const written: string[] = [];
  const app = new TuiApp({
    runtime,
    ...SIZE,
    write: (t) => written.push(t),
    // Never drains: only the first frame may go.
    backlog: { behind: () => true, drained: () => drained.promise },
  });
  try {
    const session = runtime.createSession({ name: "cat", command: "cat" });
    app.start();
    assert.equal(written.length, 1, "the first frame waited for the link to drain");
    assert.ok((await shown(written)).some((l) => l.includes("cat")), "no list in the first frame");
    session.write("later line\r");
    await waitForText(session, "later line");
    await new Promise((r) => setTimeout(r, 50));
    app.flush();
    assert.equal(written.length, 1, "written while behind");
    assert.ok(app.skipped > 0, "no frame counted as skipped");
  } finally {
    app[Symbol.dispose]();
    drained.resolve();
    await runtime[Symbol.asyncDispose]();
    Deno.removeSync(dir, { recursive: true });
  }
});
