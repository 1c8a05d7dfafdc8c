import assert from "node:assert/strict";
import type { AgentStatus } from "../../../model/agent.ts";
import { initialTuiState, type TuiState } from "../../../model/tui.ts";
import { type SessionView, sessionView } from "../../../model/session.ts";
import { Frame } from "../frame.ts";
import { resolveKeymap } from "../keymap.ts";
import { repaintPane, view } from "./mod.ts";
import { diff } from "../diff.ts";
import { layout } from "../layout.ts";

const { keymap } = resolveKeymap();

function row(id: string, more: Partial<SessionView> = {}): SessionView {
  return sessionView(id, { hasRules: true, ...more });
}

function st(state: AgentStatus["state"], more: Partial<AgentStatus> = {}): AgentStatus {
  return {
    state,
    kind: null,
    source: "declared",
    ruleId: "osc7501",
    seq: 1,
    since: 0,
    msg: null,
    ...more,
  };
}

function busyState(cols: number, rows: number): TuiState {
  return {
    ...initialTuiState(cols, rows, 92_000),
    sessions: [
      row("session-1", {
        name: "api",
        agent: "claude",
        agentStatus: st("blocked", { msg: "approve Bash" }),
      }),
      row("session-2", {
        name: "web",
        agent: "codex",
        agentStatus: st("working"),
        stats: "12k tok",
      }),
      row("session-3", { name: "shell" }),
      row("session-4", { name: "done", agent: "claude", agentStatus: st("idle"), group: "g" }),
      row("session-5", { name: "mystery", agent: "aider", hasRules: false, group: "g" }),
      row("session-6", { name: "old", status: "exited", exitCode: 1 }),
      row("session-7", {
        name: "batch",
        agent: "codex",
        agentStatus: st("error", { kind: "quota", msg: "Quota exceeded." }),
      }),
    ],
    selected: "session-2",
    unseenDone: { "session-4": true },
    activity: { "session-3": true },
  };
}

function screen(cols: number, rows: number): Frame {
  const f = new Frame(cols, rows);
  f.text(0, 0, "$ echo 界 hello", { fg: 2 });
  f.cursor = { x: 3, y: 1 };
  return f;
}

Deno.test("view() draws markers, names, agents, durations, stats and the blocked banner", () => {
  const s = busyState(120, 32);
  const text = view(s, { keymap, screen: screen(89, 30), tabLines: null }).toText();
  assert.match(text, /^ ‼ 1 blocked · ✗ 1 failed +│/m, "the banner drops its hint to fit");
  assert.match(text, /^ lazyshell .*‼ 1 blocked · ✗ 1 failed\s*$/m, "the tab bar counts both");
  assert.match(text, /✗ batch +codex/);
  assert.match(text, /failed: quota exceeded/);
  assert.match(text, /‼ api +claude/);
  assert.match(text, /approve Bash/);
  assert.match(text, /⠋ web +codex/);
  assert.match(text, /⏱ 1m32s {2}12k tok/);
  assert.match(text, /● shell/);
  assert.match(text, /▾ g/);
  assert.match(text, /✓ done/);
  assert.match(text, /◌ mystery +aider/);
  assert.match(text, /no status/);
  assert.match(text, /× old/);
  assert.match(text, /exit 1/);
  assert.match(text, /\$ echo 界 hello/);
  assert.match(text, /enter type +n new/);
});

Deno.test("reduce_motion draws the working marker static", () => {
  const s = { ...busyState(120, 32), reduceMotion: true, spin: 3 };
  const text = view(s, { keymap, screen: null, tabLines: null }).toText();
  assert.match(text, /… web/);
});

Deno.test("terminal mode shows the escape chord and the child's cursor", () => {
  const s: TuiState = { ...busyState(120, 32), mode: "terminal" };
  const f = view(s, { keymap, screen: screen(89, 30), tabLines: null });
  assert.match(f.toText(), /TERMINAL +ctrl\+] back · keys go to the session/);
  const narrow = view({ ...s, cols: 24, rows: 6 }, { keymap, screen: null, tabLines: null });
  assert.match(narrow.toText(), /TERMINAL +ctrl\+] back/, "the chord survives a narrow screen");
  assert.deepEqual(f.cursor, { x: 31 + 3, y: 1 + 1 });
  const nav = view(busyState(120, 32), { keymap, screen: screen(89, 30), tabLines: null });
  assert.equal(nav.cursor, null);
});

Deno.test("view() survives every size down to 0x0, overlays included", () => {
  const overlays: TuiState["overlay"][] = [
    null,
    { type: "help" },
    { type: "palette", query: "re", index: 1 },
    { type: "input", purpose: "rename", target: "session-1", text: "new name" },
    { type: "confirm-quit", running: 3 },
    restoreOverlay(30),
  ];
  for (const overlay of overlays) {
    for (const [cols, rows] of [[0, 0], [1, 1], [5, 2], [10, 3], [39, 9], [40, 10], [80, 24]]) {
      const s = { ...busyState(cols!, rows!), overlay };
      const f = view(s, { keymap, screen: screen(30, 20), tabLines: null });
      assert.equal(f.cols, cols);
      assert.equal(f.rows, rows);
      assert.equal(f.chars.length, cols! * rows!);
    }
  }
});

function restoreOverlay(n: number): TuiState["overlay"] {
  const items = Array.from({ length: n }, (_, i) => ({
    name: `s${i}`,
    group: i % 2 ? "dev" : null,
    how: `shell in /src/${i}`,
    picked: i !== 1,
  }));
  return { type: "restore", items, index: n - 1, problem: "The state file x is damaged" };
}

Deno.test("the restore offer lists the saved sessions, checked, with its keys from the keymap", () => {
  const s = { ...busyState(100, 30), overlay: restoreOverlay(3) };
  const text = view(s, { keymap, screen: null, tabLines: null }).toText();
  assert.match(text, /Restore 3 sessions saved before the server ended/);
  assert.match(text, /\[x\] s0 +shell in \/src\/0/);
  assert.match(text, /\[ \] s1 \[dev\] shell in \/src\/1/);
  assert.match(text, /The state file x is damaged/);
  assert.match(text, /space pick +enter restore +a all +N none +esc later/);
  // A long list keeps the selected (last) row in the box.
  const long = { ...busyState(100, 20), overlay: restoreOverlay(30) };
  assert.match(view(long, { keymap, screen: null, tabLines: null }).toText(), /\] s29 /);
});

Deno.test("the help overlay lists the keymap", () => {
  const s = { ...busyState(100, 30), overlay: { type: "help" } as const };
  const text = view(s, { keymap, screen: null, tabLines: null }).toText();
  assert.match(text, /B +Jump to the next blocked or failed session/);
  if (/ctrl\+] +Leave terminal mode/.test(text)) return; // every key fits
  // Taller than the screen: the list scrolls, the footer says how, the last key is reachable.
  assert.match(text, /Keys 1–\d+ of \d+/);
  assert.match(text, /j\/k scroll · esc or \? closes/);
  const end = { ...s, overlay: { type: "help", top: 999 } as const };
  const last = view(end, { keymap, screen: null, tabLines: null }).toText();
  assert.match(last, /ctrl\+] +Leave terminal mode/);
  assert.match(last, /Markers: ‼ blocked/);
});

Deno.test("a plugin tab's lines fill the body", () => {
  const s: TuiState = {
    ...busyState(60, 10),
    tabs: [{ title: "agents", capturing: false, commands: [] }],
    tab: 1,
  };
  const text = view(s, { keymap, screen: null, tabLines: [[{ text: "hello from a plugin" }]] })
    .toText();
  assert.match(text, /2 agents/);
  assert.match(text, /tab next tab +\? help +: cmd +q quit/, "only the global keys are hinted");
  assert.doesNotMatch(text, /n new/);
  assert.match(text.split("\n")[1]!, /^hello from a plugin/);
});

Deno.test("repaintPane() gives the same frame as view() when only the screen changed", () => {
  const s: TuiState = { ...busyState(120, 32), mode: "terminal" };
  const before = view(s, { keymap, screen: screen(89, 30), tabLines: null });
  const next = screen(89, 30);
  next.text(0, 1, "typed", { fg: 3 });
  next.cursor = { x: 5, y: 1 };
  const full = view(s, { keymap, screen: next, tabLines: null });
  const fast = repaintPane(s, before, next)!;
  assert.deepEqual(fast.toText(), full.toText());
  assert.deepEqual([...fast.fg], [...full.fg]);
  assert.deepEqual(fast.cursor, full.cursor);
  assert.equal(repaintPane({ ...s, overlay: { type: "help" } }, before, next), null);
  // Told which screen rows changed, it redraws only those, to the same frame.
  const rows = repaintPane(s, before, next, null, [1, 2])!;
  assert.deepEqual(rows.toText(), full.toText());
  assert.deepEqual([...rows.fg], [...full.fg]);
  assert.deepEqual(rows.cursor, full.cursor);
  // diff() limited to the pane rows that changed writes the same bytes.
  const pane = layout(120, 32).pane;
  assert.equal(diff(before, rows, { rows: [pane.y + 1, pane.y + 2] }), diff(before, full));
});

Deno.test("the stats line shows on the selected running session only", () => {
  const s = busyState(120, 32);
  const withStats = {
    ...s,
    sessions: s.sessions.map((r) => r.id === "session-3" ? { ...r, stats: "9k tok" } : r),
  };
  const text = view(withStats, { keymap, screen: null, tabLines: null }).toText();
  assert.match(text, /12k tok/, "session-2, selected");
  assert.doesNotMatch(text, /9k tok/, "session-3, not selected");
});

Deno.test("a blocked session's reason wraps under it instead of being cut", () => {
  const reason = "approve Bash: touch lab-file.txt && rm -rf ./build/cache";
  const s: TuiState = {
    ...busyState(160, 40),
    sessions: [
      row("session-1", {
        name: "api",
        agent: "claude",
        agentStatus: st("blocked", { msg: reason }),
      }),
    ],
    selected: "session-1",
  };
  const text = view(s, { keymap, screen: null, tabLines: null }).toText();
  const side = text.split("\n").map((l) => l.split("│")[0]!.trim()).join(" ");
  assert.ok(side.replace(/\s+/g, "").includes(reason.replace(/\s+/g, "")), side);
});

Deno.test("tabs that do not fit say how many are hidden; the active one stays visible", () => {
  const tab = (title: string) => ({ title, capturing: false, commands: [] });
  const tabs = ["Agents (3)", "Watchers (2)", "Stats", "Env", "Notes", "Changes"].map(tab);
  const s: TuiState = { ...busyState(80, 24), tabs, tab: 6 };
  const bar = view(s, { keymap, screen: null, tabLines: null }).toText().split("\n")[0]!;
  assert.match(bar, /\+\d /, bar);
  assert.match(bar, /7 Changes/, "the active tab is shown");
});

Deno.test("the palette ends a description it cuts with …", () => {
  const s: TuiState = { ...busyState(40, 24), overlay: { type: "palette", query: "", index: 0 } };
  const text = view(s, { keymap, screen: null, tabLines: null }).toText();
  assert.match(text, /…│/);
});

Deno.test("a shell that printed nothing for seconds says so in its pane", () => {
  const shell = row("session-1", { name: "bash", command: "/bin/bash", createdAt: 1000 });
  const s: TuiState = { ...busyState(120, 32), sessions: [shell], selected: "session-1" };
  const blank = new Frame(89, 30);
  const at = (now: number) => view({ ...s, now }, { keymap, screen: blank, tabLines: null });
  assert.doesNotMatch(at(2000).toText(), /slow rc files/, "not at once");
  assert.match(at(5000).toText(), /waiting for bash to start — slow rc files\? \(4 s/);
  const printed = { ...s, sessions: [{ ...shell, outputAt: 1500 }], now: 9000 };
  assert.doesNotMatch(
    view(printed, { keymap, screen: blank, tabLines: null }).toText(),
    /slow rc files/,
  );
});

Deno.test("a message too long to sit beside the hints takes the bar instead of vanishing", () => {
  const text = "Sent the first prompt to fix-the-login-redirect: the agent took it (receipt)";
  const s = { ...busyState(80, 24), message: { text, error: false } };
  const bottom = view(s, { keymap, screen: null, tabLines: null }).toText().split("\n").at(-1)!;
  assert.match(bottom, /^Sent the first prompt to fix-the-login-redirect/);
});
