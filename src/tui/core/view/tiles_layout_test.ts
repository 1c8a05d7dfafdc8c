import assert from "node:assert/strict";
import { initialTuiState, type TuiState } from "../../../model/tui.ts";
import { sessionView } from "../../../model/session.ts";
import type { AgentStatus } from "../../../model/agent.ts";
import { layout, type Rect } from "../layout.ts";
import {
  innerRect,
  MAX_TILES,
  tileAt,
  tiledIds,
  tileRects,
  tiles,
  tileSizes,
} from "./tiles_layout.ts";

const blocked: AgentStatus = {
  state: "blocked",
  kind: null,
  source: "screen",
  ruleId: "r",
  seq: 1,
  since: 0,
  msg: null,
};

function state(n: number, more: Partial<TuiState> = {}): TuiState {
  const sessions = Array.from(
    { length: n },
    (_, i) => sessionView(`s${i + 1}`, { name: `n${i + 1}`, hasRules: true }),
  );
  return { ...initialTuiState(160, 45, 0), sessions, selected: "s1", tiles: "pinned", ...more };
}

const area = (r: Rect) => r.width * r.height;

Deno.test("tileRects() fills the area exactly, without overlap, for 1–4 tiles at any size", () => {
  for (let w = 0; w <= 90; w += 7) {
    for (let h = 0; h <= 50; h += 5) {
      const r = { x: 3, y: 1, width: w, height: h };
      for (let n = 1; n <= MAX_TILES; n++) {
        const rects = tileRects(r, n);
        assert.equal(rects.length, n);
        assert.equal(rects.reduce((a, t) => a + area(t), 0), w * h, `${n} in ${w}x${h}`);
        for (const t of rects) {
          assert.ok(t.width >= 0 && t.height >= 0);
          assert.ok(t.x >= r.x && t.y >= r.y && t.x + t.width <= r.x + w);
          assert.ok(t.y + t.height <= r.y + h);
        }
        for (let i = 0; i < n; i++) {
          for (let j = i + 1; j < n; j++) {
            const [a, b] = [rects[i]!, rects[j]!];
            const apart = a.x + a.width <= b.x || b.x + b.width <= a.x ||
              a.y + a.height <= b.y || b.y + b.height <= a.y;
            assert.ok(apart || area(a) === 0 || area(b) === 0, `${n} in ${w}x${h}: ${i}/${j}`);
          }
        }
      }
    }
  }
});

Deno.test("tileRects(): side by side when wide, stacked when tall, one big and two, a 2x2 grid", () => {
  const wide = { x: 0, y: 0, width: 100, height: 30 };
  const tall = { x: 0, y: 0, width: 50, height: 40 };
  assert.deepEqual(tileRects(wide, 2), [
    { x: 0, y: 0, width: 50, height: 30 },
    { x: 50, y: 0, width: 50, height: 30 },
  ]);
  assert.deepEqual(tileRects(tall, 2), [
    { x: 0, y: 0, width: 50, height: 20 },
    { x: 0, y: 20, width: 50, height: 20 },
  ]);
  assert.deepEqual(tileRects(wide, 3).map((r) => [r.x, r.y, r.width, r.height]), [
    [0, 0, 50, 30],
    [50, 0, 50, 15],
    [50, 15, 50, 15],
  ]);
  assert.deepEqual(
    tileRects({ x: 0, y: 0, width: 41, height: 21 }, 4).map((r) => [r.width, r.height]),
    [
      [20, 10],
      [21, 10],
      [20, 11],
      [21, 11],
    ],
  );
  assert.deepEqual(innerRect({ x: 2, y: 3, width: 10, height: 5 }), {
    x: 3,
    y: 4,
    width: 8,
    height: 3,
  });
  assert.deepEqual(innerRect({ x: 2, y: 3, width: 2, height: 5 }), {
    x: 2,
    y: 3,
    width: 2,
    height: 5,
  });
});

Deno.test("tiledIds(): the selected plus the pinned in list order, at most 4 with the selected kept", () => {
  assert.deepEqual(tiledIds(state(3, { tiles: "off", pinned: ["s2"] })), []);
  assert.deepEqual(tiledIds(state(3, { tab: 1, pinned: ["s2"] })), []);
  assert.deepEqual(tiledIds(state(3)), ["s1"]);
  assert.deepEqual(tiledIds(state(4, { pinned: ["s3", "s2"] })), ["s1", "s2", "s3"]);
  assert.deepEqual(tiledIds(state(4, { pinned: ["s3", "s2"], selected: "s3" })), ["s2", "s3"]);
  const six = state(6, { pinned: ["s1", "s2", "s3", "s4"], selected: "s6" });
  assert.deepEqual(tiledIds(six), ["s1", "s2", "s3", "s6"]);
});

Deno.test("tiledIds() in blocked mode: every blocked or failed session, and the selected one", () => {
  const s = state(5, { tiles: "blocked", selected: "s1" });
  const sessions = s.sessions.map((r) =>
    r.id === "s2" || r.id === "s4" ? { ...r, agent: "claude", agentStatus: blocked } : r
  );
  assert.deepEqual(tiledIds({ ...s, sessions }), ["s1", "s2", "s4"]);
  assert.deepEqual(tiledIds({ ...s, sessions, selected: "s4" }), ["s2", "s4"]);
});

Deno.test("tiles() and tileSizes(): each PTY gets its tile's inside; a zoom sizes only the zoomed", () => {
  const s = state(3, { pinned: ["s2", "s3"], cols: 160, rows: 45 });
  const pane = layout(160, 45).pane;
  const t = tiles(s);
  assert.deepEqual(t.map((x) => x.id), ["s1", "s2", "s3"]);
  assert.deepEqual(t[0]!.outer, { x: pane.x, y: pane.y, width: 59, height: 43 });
  assert.deepEqual(tileSizes(s), [
    { id: "s1", cols: 57, rows: 41 },
    { id: "s2", cols: 58, rows: 19 },
    { id: "s3", cols: 58, rows: 20 },
  ]);
  const zoomed = { ...s, zoomed: true, selected: "s2" };
  assert.deepEqual(tiles(zoomed).map((x) => [x.id, x.outer]), [["s2", pane]]);
  assert.deepEqual(tileSizes(zoomed), [
    { id: "s2", cols: pane.width - 2, rows: pane.height - 2 },
    // s1 (unpinned) left the tiles with the selection; s3 keeps its unzoomed size.
    { id: "s3", cols: 58, rows: 41 },
  ]);
  assert.equal(tileAt(s, pane.x + 60, pane.y + 30)?.id, "s3");
  assert.equal(tileAt(s, 0, 0), null);
  // A tiny screen: still valid PTY sizes.
  assert.ok(tileSizes({ ...s, cols: 5, rows: 3 }).every((x) => x.cols >= 2 && x.rows >= 2));
});
