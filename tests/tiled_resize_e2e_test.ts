/**
 * End to end: under `window_size: latest` a session's size follows the
 * client that last typed into it, selected it or tiled it (README, "Sessions
 * that outlive the terminal") — not a client whose terminal merely changed
 * size. A small client tiles two shells, a big one then selects the first:
 * resizing the small client's terminal leaves that shell at the big
 * client's size. The real server, real clients in real PTYs, real shells.
 */

import assert from "node:assert/strict";
import type { Session } from "../src/session/session.ts";
import { screenText, waitFor, waitForText } from "../src/session/test_util.ts";
import { spawnServe } from "../tools/abuse/server.ts";
import { lab } from "./e2e_lab.ts";

const WAIT = 30_000;

/** The tiled view's first row ends with a tile's corner at the client's last column. */
const tiledAt = (c: Session, cols: number) =>
  screenText(c).split("\n").some((row) => row.length === cols && row.endsWith("┐"));

Deno.test("a resize of a tiling client takes no session from the client that selected it last", async () => {
  await using l = lab("lazyshell-tiled-resize-");
  Deno.writeTextFileSync(`${l.dir}/config/lazyshell/config.yml`, "control:\n  enabled: true\n");
  await using serve = spawnServe(l.env, { cwd: l.dir });
  await serve.ready;
  const run = async (...args: string[]) => {
    const r = await l.run(...args);
    assert.equal(r.code, 0, `${args.join(" ")}: ${r.stderr}\nserver: ${serve.stderr()}`);
    return r.stdout;
  };
  await run("ctl", "new", "--name", "one");
  await run("ctl", "new", "--name", "two");
  /** `lazyshell ls`'s size of session `name`. */
  const sizeOf = async (name: string) =>
    new RegExp(`^session-\\d+ ${name}: .* (\\d+x\\d+) `, "m").exec(await run("ls"))?.[1];

  const small = l.client(70, 24, "attach");
  await waitForText(small, "two", WAIT);
  // Tile both shells in the small client: `p` pins the selected one, `j`, `t` tiles.
  small.write("k");
  small.write("p");
  small.write("j");
  small.write("t");
  await waitFor(small, () => tiledAt(small, 70), WAIT, "the small client's tiles");
  const tiled = await sizeOf("one");

  const big = l.client(140, 40, "attach");
  await waitForText(big, "two", WAIT);
  big.write("j");
  big.write("k"); // selects `one`: it takes the big client's pane size
  let claimed: string | undefined;
  for (const end = Date.now() + WAIT; Date.now() < end;) {
    claimed = await sizeOf("one");
    if (claimed !== tiled) break;
  }
  assert.notEqual(claimed, tiled, "the big client's selection sized `one`");

  small.resize(72, 25);
  await waitFor(small, () => tiledAt(small, 72), WAIT, "the small client redrawn at 72 columns");
  // One more round trip through the server after the redraw: the resize was handled.
  assert.equal(await sizeOf("one"), claimed, "`one` keeps the big client's size");
});
