import assert from "node:assert/strict";
import type { AgentStatus } from "../../model/agent.ts";
import { initialTuiState, type TuiState } from "../../model/tui.ts";
import { type SessionView, sessionView } from "../../model/session.ts";
import { KeyDecoder, type UserInput } from "./keys.ts";
import { resolveKeymap } from "./keymap.ts";
import type { TuiEffect, TuiEvent } from "./events.ts";
import { update } from "./update.ts";
import { tiles, tileSizes } from "./view/tiles_layout.ts";

const { keymap } = resolveKeymap();

const row = (id: string, more: Partial<SessionView> = {}) =>
  sessionView(id, { name: id, hasRules: true, ...more });

const blocked: AgentStatus = {
  state: "blocked",
  kind: null,
  source: "screen",
  ruleId: "r",
  seq: 1,
  since: 0,
  msg: null,
};

function start(n: number, more: Partial<TuiState> = {}): TuiState {
  const sessions = Array.from({ length: n }, (_, i) => row(`s${i + 1}`));
  return { ...initialTuiState(160, 45, 0), sessions, selected: "s1", ...more };
}

const input = (bytes: string): TuiEvent => {
  const d = new KeyDecoder();
  return { type: "input", input: [...d.feed(bytes), ...d.flush()][0] as UserInput };
};

function run(state: TuiState, ...events: (TuiEvent | string)[]) {
  const effects: TuiEffect[] = [];
  for (const e of events) {
    const u = update(state, typeof e === "string" ? input(e) : e, keymap);
    state = u.state;
    effects.push(...u.effects);
  }
  return { state, effects };
}

const resizes = (fx: readonly TuiEffect[]) => fx.filter((e) => e.type === "resize-sessions");

Deno.test("p pins, t tiles the selected beside the pinned and sizes each PTY to its tile, t again ends it", () => {
  let { state, effects } = run(start(3), "p", "j", "j");
  assert.deepEqual(state.pinned, ["s1"]);
  assert.equal(state.tiles, "off");
  assert.deepEqual(resizes(effects), [], "pinning alone changes no size");
  ({ state, effects } = run(state, "t"));
  assert.equal(state.tiles, "pinned");
  assert.deepEqual(tiles(state).map((t) => t.id), ["s1", "s3"]);
  assert.deepEqual(resizes(effects), [
    { type: "resize-sessions", cols: 119, rows: 43, tiles: tileSizes(state), claim: true },
  ]);
  assert.deepEqual(tileSizes(state).map((t) => [t.id, t.cols, t.rows]), [
    ["s1", 57, 41],
    ["s3", 58, 41],
  ]);
  assert.ok(!effects.some((e) => e.type === "focus"), "tiling does not change what is focused");
  ({ state, effects } = run(state, "t"));
  assert.equal(state.tiles, "off");
  assert.deepEqual(resizes(effects), [{ type: "resize-sessions", cols: 119, rows: 43, tiles: [] }]);
});

Deno.test("p on a pinned session unpins it; a fifth pin is refused with a message", () => {
  let { state } = run(start(6), "p", "p");
  assert.deepEqual(state.pinned, []);
  ({ state } = run(state, "p", "j", "p", "j", "p", "j", "p", "j", "p"));
  assert.deepEqual(state.pinned, ["s1", "s2", "s3", "s4"]);
  assert.equal(state.message?.text, "At most 4 tiles: unpin one first");
  assert.equal(state.message?.error, true);
});

Deno.test("T tiles the blocked and failed sessions and focuses the first; none: says so", () => {
  assert.equal(run(start(3), "T").state.message?.text, "No blocked or failed session");
  const s = start(4, {
    sessions: [row("s1"), row("s2", { agent: "claude", agentStatus: blocked }), row("s3"), {
      ...row("s4", { agent: "codex" }),
      agentStatus: { ...blocked, state: "error" },
    }],
  });
  let { state, effects } = run(s, "T");
  assert.equal(state.tiles, "blocked");
  assert.equal(state.selected, "s2");
  assert.deepEqual(tiles(state).map((t) => t.id), ["s2", "s4"]);
  assert.deepEqual(resizes(effects)[0]?.type === "resize-sessions" && resizes(effects)[0], {
    type: "resize-sessions",
    cols: 119,
    rows: 43,
    tiles: tileSizes(state),
    claim: true,
  });
  // s2 answered: it stays while selected; once the selection moves on, it leaves the tiles.
  const answered = state.sessions.map((r) => r.id === "s2" ? { ...r, agentStatus: null } : r);
  ({ state, effects } = run(state, { type: "sessions", sessions: answered }));
  assert.deepEqual(tiles(state).map((t) => t.id), ["s2", "s4"]);
  ({ state, effects } = run(state, "j", "j"));
  assert.deepEqual(tiles(state).map((t) => t.id), ["s4"]);
  assert.equal(run(state, "T").state.tiles, "off");
});

Deno.test("z zooms the focused tile and back; outside the tiled view it says why not", () => {
  assert.equal(run(start(2), "z").state.message?.text, "Nothing to zoom: the view is not tiled");
  let { state, effects } = run(start(3, { pinned: ["s2", "s3"] }), "t", "z");
  assert.equal(state.zoomed, true);
  assert.deepEqual(tiles(state).map((t) => t.id), ["s1"]);
  const zoom = resizes(effects).at(-1);
  assert.deepEqual(zoom?.type === "resize-sessions" && zoom.tiles[0], {
    id: "s1",
    cols: 117,
    rows: 41,
  });
  ({ state } = run(state, "z"));
  assert.equal(state.zoomed, false);
  ({ state } = run(state, "z", "t"));
  assert.equal(state.zoomed, false, "the zoom ends with the tiles");
});

Deno.test("a resize while tiled resizes every tile at once; a removed pinned session is unpinned", () => {
  let { state, effects } = run(start(4, { pinned: ["s2", "s3", "s4"] }), "t");
  ({ state, effects } = run(state, { type: "resize", cols: 250, rows: 70 }));
  // No claim: a resize alone takes no session from the client that sized it last.
  assert.deepEqual(resizes(effects), [
    { type: "resize-sessions", cols: 201, rows: 68, tiles: tileSizes(state) },
  ]);
  assert.deepEqual(tileSizes(state).map((t) => [t.cols, t.rows]), [
    [98, 32],
    [99, 32],
    [98, 32],
    [99, 32],
  ]);
  ({ state } = run(state, { type: "sessions", sessions: state.sessions.slice(0, 3) }));
  assert.deepEqual(state.pinned, ["s2", "s3"]);
});

Deno.test("the mouse: a click focuses a tile; in terminal mode the focused tile gets it tile-relative", () => {
  let { state } = run(start(2, { pinned: ["s1", "s2"] }), "t");
  const [a, b] = tiles(state);
  const at = (x: number, y: number, code = 0) => input(`\x1b[<${code};${x + 1};${y + 1}M`);
  ({ state } = run(state, at(b!.inner.x + 2, b!.inner.y + 3)));
  assert.equal(state.selected, "s2");
  const { effects } = run({ ...state, mode: "terminal" }, at(b!.inner.x + 2, b!.inner.y + 3));
  assert.deepEqual(
    effects.filter((e) => e.type === "mouse").map((e) => e.type === "mouse" && [e.id, e.x, e.y]),
    [["s2", 2, 3]],
  );
  const wheel = run(state, at(a!.inner.x, a!.inner.y, 64)).effects;
  assert.deepEqual(wheel.filter((e) => e.type === "scroll"), [{
    type: "scroll",
    id: "s1",
    delta: 3,
  }]);
});

Deno.test("copy mode needs the one pane: tiling ends it, a zoomed tile keeps it", () => {
  let { state } = run(start(2), "p", "c", { type: "copy-started", id: "s1", top: 99, cursor: 0 });
  assert.equal(state.mode, "copy");
  ({ state } = run(state, "\x1b", "t"));
  assert.equal(state.tiles, "pinned");
  ({ state } = run(state, "c", { type: "copy-started", id: "s1", top: 99, cursor: 0 }));
  assert.notEqual(state.mode, "copy", "copy mode over several tiles");
  assert.equal(state.copy, null);
  ({ state } = run(state, "z", "c", { type: "copy-started", id: "s1", top: 99, cursor: 0 }));
  assert.equal(state.zoomed, true);
  assert.equal(state.mode, "copy");
});
