/**
 * Golden frames of the tiled view (docs/tui.md, Several at once) at the
 * sizes the README promises: the whole screen as text, compared with
 * src/tui/core/view/testdata/tiles_*.txt. `UPDATE_GOLDEN=1 deno test -A
 * src/tui/core/view/tiles_test.ts` writes them again (read the diff before
 * committing).
 */

import assert from "node:assert/strict";
import type { AgentStatus } from "../../../model/agent.ts";
import { initialTuiState, type TuiState } from "../../../model/tui.ts";
import { sessionView } from "../../../model/session.ts";
import { Frame } from "../frame.ts";
import { resolveKeymap } from "../keymap.ts";
import { repaintPane, view } from "./mod.ts";
import { tiles } from "./tiles_layout.ts";
import { CYAN, GRAY } from "./theme.ts";

const { keymap } = resolveKeymap();
const GOLDEN = new URL("./testdata/", import.meta.url);
const UPDATE = Deno.env.get("UPDATE_GOLDEN") === "1";

function status(state: AgentStatus["state"], msg: string | null = null): AgentStatus {
  return { state, kind: null, source: "screen", ruleId: "r", seq: 1, since: 0, msg };
}

function state(cols: number, rows: number, more: Partial<TuiState> = {}): TuiState {
  return {
    ...initialTuiState(cols, rows, 65_000),
    sessions: [
      sessionView("session-1", {
        name: "api",
        agent: "claude",
        hasRules: true,
        agentStatus: status("blocked", "approve Bash"),
      }),
      sessionView("session-2", {
        name: "web",
        agent: "codex",
        hasRules: true,
        agentStatus: status("working"),
      }),
      sessionView("session-3", { name: "shell" }),
      sessionView("session-4", {
        name: "batch",
        agent: "codex",
        hasRules: true,
        agentStatus: status("error", "Quota exceeded."),
      }),
      sessionView("session-5", { name: "logs" }),
    ],
    selected: "session-2",
    tiles: "pinned",
    pinned: ["session-1", "session-3", "session-4"],
    ...more,
  };
}

/** A screen of the tile's size: its session's name on each row, a prompt at the bottom. */
function screens(s: TuiState): Map<string, Frame> {
  const out = new Map<string, Frame>();
  for (const t of tiles(s)) {
    const f = new Frame(t.inner.width, t.inner.height);
    for (let y = 0; y < f.rows - 1; y++) f.text(0, y, `${t.id} line ${y + 1} ${"·".repeat(80)}`);
    f.text(0, f.rows - 1, `${t.id}$ `);
    f.cursor = { x: t.id.length + 2, y: f.rows - 1 };
    out.set(t.id, f);
  }
  return out;
}

async function golden(name: string, s: TuiState): Promise<Frame> {
  const frame = view(s, { keymap, screen: null, tabLines: null, screens: screens(s) });
  const text = frame.toText() + "\n";
  const file = new URL(`tiles_${name}.txt`, GOLDEN);
  if (UPDATE) {
    await Deno.mkdir(GOLDEN, { recursive: true });
    await Deno.writeTextFile(file, text);
  }
  assert.equal(text, await Deno.readTextFile(file), `${name}: UPDATE_GOLDEN=1 rewrites it`);
  return frame;
}

for (const [cols, rows] of [[80, 24], [160, 45], [250, 70]] as const) {
  Deno.test(`tiled view at ${cols}x${rows}: four live tiles, markers and names in the borders`, async () => {
    const s = state(cols, rows);
    const frame = await golden(`${cols}x${rows}`, s);
    const t = tiles(s);
    assert.equal(t.length, 4);
    // The focused tile (the selected session) is drawn in the accent colour, the others dim.
    for (const tile of t) {
      const at = tile.outer.y * cols + tile.outer.x;
      assert.equal(frame.fg[at], tile.id === s.selected ? CYAN : GRAY, tile.id);
    }
  });
}

Deno.test("tiled view at 80x24, blocked mode: the blocked and failed sessions", async () => {
  await golden("80x24_blocked", state(80, 24, { tiles: "blocked", selected: "session-1" }));
});

Deno.test("tiled view at 160x45, zoomed: the focused tile fills the pane and says what is hidden", async () => {
  const frame = await golden("160x45_zoomed", state(160, 45, { zoomed: true }));
  assert.match(frame.toText(), /zoomed · 3 more · z/);
});

Deno.test("terminal mode: the cursor is the focused tile's, and repaintPane() matches view()", () => {
  const s = state(160, 45, { mode: "terminal" });
  const full = view(s, { keymap, screen: null, tabLines: null, screens: screens(s) });
  const focused = tiles(s).find((t) => t.id === s.selected)!;
  assert.deepEqual(full.cursor, {
    x: focused.inner.x + "session-2".length + 2,
    y: focused.inner.y + focused.inner.height - 1,
  });
  const prev = view(s, { keymap, screen: null, tabLines: null, screens: new Map() });
  const fast = repaintPane(s, prev, null, null, undefined, keymap, screens(s))!;
  assert.equal(fast.toText(), full.toText());
  assert.deepEqual(fast.cursor, full.cursor);
});

Deno.test("a tile smaller than its session's screen shows its last rows and says what it hides on its bottom border", () => {
  const s = state(80, 24);
  const big = new Map<string, Frame>();
  for (const t of tiles(s)) {
    // Another client sized it: 120×40, the prompt on the last row.
    const f = new Frame(120, 40);
    for (let y = 0; y < 40; y++) f.text(0, y, `${t.id} row ${y}`);
    f.cursor = { x: 5, y: 39 };
    big.set(t.id, f);
  }
  const frame = view(s, { keymap, screen: null, tabLines: null, screens: big });
  for (const t of tiles(s)) {
    const inner = t.inner;
    const bottom = t.outer.y + t.outer.height - 1;
    const last = frame.rowText(inner.y + inner.height - 1).slice(inner.x, inner.x + inner.width);
    assert.match(last, new RegExp(`^${t.id} row 39`), t.id);
    const border = frame.rowText(bottom).slice(t.outer.x, t.outer.x + t.outer.width);
    assert.match(border, /↑\d+ →\d+ hidden/, `${t.id}: ${border}`);
    const first = frame.rowText(inner.y).slice(inner.x, inner.x + inner.width);
    assert.doesNotMatch(first, /hidden/, t.id);
  }
});
