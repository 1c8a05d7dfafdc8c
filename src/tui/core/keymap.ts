/**
 * The one keybinding table (docs/architecture.md, Conventions): action → default keys → help.
 * The help overlay, the hint bar and the README's Keys section are
 * generated from it; config `keys:` overrides keys by action name. Pure.
 */

import { didYouMean } from "../../util/nearest.ts";
import { KEY_NAMES, keyNameProblem } from "./keys.ts";
import { stringWidth } from "../../util/width.ts";

/** Where a key applies: the list, a focused session, copy mode, the restore offer (docs/restore.md). */
export type KeyScope = "navigation" | "terminal" | "copy" | "restore";

export interface Binding {
  readonly action: string;
  readonly keys: readonly string[];
  readonly help: string;
  readonly scope: KeyScope;
  /** Short label for the hint bar; bindings without one are only in the help. */
  readonly hint?: string;
}

export const BINDINGS: readonly Binding[] = [
  { action: "down", keys: ["j", "down"], help: "Select the next session", scope: "navigation" },
  { action: "up", keys: ["k", "up"], help: "Select the previous session", scope: "navigation" },
  {
    action: "focus",
    keys: ["enter"],
    help: "Type into the selected session (terminal mode)",
    scope: "navigation",
    hint: "type",
  },
  {
    action: "new",
    keys: ["n"],
    help: "New shell session (takes focus)",
    scope: "navigation",
    hint: "new",
  },
  {
    action: "new-agent",
    keys: ["N"],
    help: "New agent session: an agent, a folder, a first prompt, a new worktree if you like",
    // No hint: the bar is full at 80 columns (the help, `?`, lists it).
    scope: "navigation",
  },
  {
    action: "kill",
    keys: ["x"],
    help: "Kill the selected session; remove it once exited (in a worktree: keep or remove it)",
    scope: "navigation",
    hint: "kill",
  },
  { action: "rename", keys: ["r"], help: "Rename the selected session", scope: "navigation" },
  {
    action: "restart",
    keys: ["W"],
    help: "Restart the selected session or its group",
    scope: "navigation",
  },
  {
    action: "next-blocked",
    keys: ["B"],
    help: "Jump to the next blocked or failed session (cycles)",
    scope: "navigation",
    hint: "blocked",
  },
  {
    action: "next-limited",
    keys: ["L"],
    help: "Jump to the next session stopped at a usage limit (cycles)",
    scope: "navigation",
  },
  {
    action: "resume-limit",
    keys: ["U"],
    help: "Resume the selected session at its usage limit's reset (re-checked first)",
    scope: "navigation",
  },
  {
    action: "cancel-limit",
    keys: ["C"],
    help: "Cancel the selected session's pending resume at its usage limit",
    scope: "navigation",
  },
  {
    action: "limit-policy",
    keys: ["P"],
    help: "Resume policy at usage limits (off, ask, auto) of the selected session or its group",
    scope: "navigation",
  },
  {
    action: "answer",
    keys: ["o"],
    help: "Answer the selected blocked session: its options, y approve, n deny",
    scope: "navigation",
    hint: "answer",
  },
  {
    action: "inbox",
    keys: ["I"],
    help: "Inbox: every blocked session with what it asks",
    scope: "navigation",
  },
  {
    action: "tiles",
    keys: ["t"],
    help: "Tiled view: the selected session beside the pinned ones (again: one pane)",
    scope: "navigation",
    hint: "tiles",
  },
  {
    action: "pin",
    keys: ["p"],
    help: "Pin or unpin the selected session to the tiled view (up to 4 tiles)",
    scope: "navigation",
  },
  {
    action: "tile-blocked",
    keys: ["T"],
    help: "Tile every blocked or failed session (again: one pane)",
    scope: "navigation",
  },
  {
    action: "zoom",
    keys: ["z"],
    help: "Zoom the focused tile to the whole pane, and back",
    scope: "navigation",
  },
  {
    action: "watch",
    keys: ["v"],
    help: "Arm or disarm a watcher pattern on the selected session",
    scope: "navigation",
  },
  {
    action: "restore",
    keys: ["R"],
    help: "Restore sessions an earlier server saved (all, none, or pick)",
    scope: "navigation",
  },
  {
    action: "scroll-up",
    keys: ["pgup"],
    help: "Scroll the session's scrollback up",
    scope: "navigation",
  },
  {
    action: "scroll-down",
    keys: ["pgdown"],
    help: "Scroll the session's scrollback down",
    scope: "navigation",
  },
  {
    action: "search",
    keys: ["/"],
    help: "Search the selected session's scrollback (then copy mode: n/N, y)",
    scope: "navigation",
  },
  {
    action: "copy-mode",
    keys: ["c"],
    help: "Copy mode: select lines of the scrollback for the clipboard",
    scope: "navigation",
  },
  { action: "help", keys: ["?"], help: "Show all keys", scope: "navigation", hint: "help" },
  { action: "palette", keys: [":"], help: "Command palette", scope: "navigation", hint: "cmd" },
  { action: "next-tab", keys: ["tab"], help: "Next tab", scope: "navigation" },
  { action: "prev-tab", keys: ["shift+tab"], help: "Previous tab", scope: "navigation" },
  {
    action: "goto-tab",
    keys: ["1", "2", "3", "4", "5", "6", "7", "8", "9"],
    help: "Go to tab 1–9",
    scope: "navigation",
  },
  {
    action: "detach",
    keys: ["d"],
    help: "Detach: leave, the sessions keep running (`lazyshell` attaches again)",
    scope: "navigation",
    hint: "detach",
  },
  {
    action: "quit",
    keys: ["q"],
    help: "Quit: end the sessions and the server (asks while sessions run; d detaches)",
    scope: "navigation",
    hint: "quit",
  },
  {
    action: "unfocus",
    keys: ["ctrl+]"],
    help: "Leave terminal mode (every other key goes to the session)",
    scope: "terminal",
    hint: "back",
  },
  { action: "copy-down", keys: ["j", "down"], help: "Move the line cursor down", scope: "copy" },
  { action: "copy-up", keys: ["k", "up"], help: "Move the line cursor up", scope: "copy" },
  { action: "copy-page-up", keys: ["pgup", "ctrl+b"], help: "Up a page", scope: "copy" },
  { action: "copy-page-down", keys: ["pgdown", "ctrl+f"], help: "Down a page", scope: "copy" },
  { action: "copy-top", keys: ["g", "home"], help: "To the oldest line", scope: "copy" },
  { action: "copy-bottom", keys: ["G", "end"], help: "To the last line", scope: "copy" },
  {
    action: "copy-mark",
    keys: ["space", "v"],
    help: "Start the selection at the cursor (again: drop it)",
    scope: "copy",
    hint: "select",
  },
  {
    action: "copy-yank",
    keys: ["y", "enter"],
    help: "Copy the selected lines (or the cursor's) to the clipboard (OSC 52)",
    scope: "copy",
    hint: "copy",
  },
  { action: "copy-search", keys: ["/"], help: "Search again", scope: "copy", hint: "search" },
  { action: "search-older", keys: ["n"], help: "Next match (older)", scope: "copy", hint: "next" },
  {
    action: "search-newer",
    keys: ["N"],
    help: "Previous match (newer)",
    scope: "copy",
    hint: "prev",
  },
  { action: "copy-exit", keys: ["esc", "q"], help: "Leave copy mode", scope: "copy", hint: "back" },
  // The restore offer (a list of saved sessions; up/down move as in the sessions list).
  {
    action: "restore-toggle",
    keys: ["space"],
    help: "Restore offer: check or uncheck the selected saved session",
    scope: "restore",
    hint: "pick",
  },
  {
    action: "restore-picked",
    keys: ["enter"],
    help: "Restore offer: restore the checked sessions, forget the others",
    scope: "restore",
    hint: "restore",
  },
  {
    action: "restore-all",
    keys: ["a"],
    help: "Restore offer: restore every saved session",
    scope: "restore",
    hint: "all",
  },
  {
    action: "restore-none",
    keys: ["N"],
    help: "Restore offer: restore none, forget them all",
    scope: "restore",
    hint: "none",
  },
  {
    action: "restore-later",
    keys: ["esc"],
    help: "Restore offer: close it, keep them saved (R opens it again)",
    scope: "restore",
    hint: "later",
  },
];

/** Keys the escape chord may never be: agents need them (T2). */
const RESERVED_TERMINAL_KEYS = new Set(["esc", "ctrl+c"]);

export interface Keymap {
  readonly bindings: readonly Binding[];
  /** key name → action, per scope. */
  readonly navigation: ReadonlyMap<string, string>;
  readonly terminal: ReadonlyMap<string, string>;
  readonly copy: ReadonlyMap<string, string>;
  readonly restore: ReadonlyMap<string, string>;
}

/** An override that was not applied, and why (`action`: the config key it is about). */
export interface KeymapWarning {
  readonly action: string;
  /** One line, naming `keys.<action>`. */
  readonly text: string;
}

export interface ResolvedKeymap {
  readonly keymap: Keymap;
  readonly warnings: readonly KeymapWarning[];
}

/** Applies config `keys:` overrides (action → key or keys) to the table. */
export function resolveKeymap(
  overrides: Readonly<Record<string, string | readonly string[]>> = {},
  table: readonly Binding[] = BINDINGS,
): ResolvedKeymap {
  const warnings: KeymapWarning[] = [];
  const warn = (action: string, text: string) =>
    warnings.push({ action, text: `keys.${action}: ${text}` });
  const known = table.map((b) => b.action);
  for (const action of Object.keys(overrides)) {
    if (!known.includes(action)) {
      warn(action, `Unknown key action (ignored)${didYouMean(action, known)}`);
    }
  }
  const bindings = table.map((b) => {
    const o = overrides[b.action];
    if (o === undefined) return b;
    const given = (typeof o === "string" ? [o] : [...o]).map((k) => k.trim()).filter(Boolean);
    // A name no terminal key decodes to would never fire: said, one line each, and left out.
    const bad = given.map((k) => [k, keyNameProblem(k)] as const).filter(([, p]) => p !== null);
    const keys = given.filter((k) => !bad.some(([b]) => b === k));
    const kept = `default ${b.keys.join(", ")} kept`;
    for (const [k, problem] of bad) {
      const write = problem!.includes(": write ");
      const hint = write ? "" : didYouMean(k, KEY_NAMES) || " (key names: docs/tui.md, Input)";
      warn(b.action, `${problem}${hint} (${keys.length === 0 ? kept : "ignored"})`);
    }
    if (keys.length === 0) {
      if (bad.length === 0) warn(b.action, `No key given (${kept})`);
      return b;
    }
    const reserved = keys.find((k) => RESERVED_TERMINAL_KEYS.has(k));
    if (b.scope === "terminal" && reserved !== undefined) {
      warn(
        b.action,
        `${reserved} cannot be a terminal-mode key: agents need esc and ctrl+c (default ${
          b.keys.join(", ")
        } kept)`,
      );
      return b;
    }
    return { ...b, keys };
  });
  const maps = {
    navigation: new Map<string, string>(),
    terminal: new Map<string, string>(),
    copy: new Map<string, string>(),
    restore: new Map<string, string>(),
  };
  for (const b of bindings) {
    const map = maps[b.scope];
    for (const key of b.keys) {
      const taken = map.get(key);
      if (taken !== undefined) {
        // About the binding the user wrote (the later one, when both are theirs).
        const culprit = overrides[b.action] !== undefined ? b.action : taken;
        warn(culprit, `Key ${key} is bound to both ${taken} and ${b.action} (${taken} wins)`);
      } else {
        map.set(key, b.action);
      }
    }
  }
  return { keymap: { bindings, ...maps }, warnings };
}

export function bindingOf(keymap: Keymap, action: string): Binding | undefined {
  return keymap.bindings.find((b) => b.action === action);
}

/** How a binding's keys read in help text: `j/down`, `1–9`. */
export function keyLabel(b: Binding): string {
  if (b.action === "goto-tab" && b.keys.length === 9 && b.keys[0] === "1") return "1–9";
  return b.keys.join("/");
}

/** The hint bar's entries for a scope: `key label` pairs. */
export function hints(
  keymap: Keymap,
  scope: KeyScope,
): { key: string; label: string; action: string }[] {
  return keymap.bindings
    .filter((b) => b.scope === scope && b.hint !== undefined)
    .map((b) => ({ key: b.keys[0]!, label: b.hint!, action: b.action }));
}

/** Help overlay rows: [keys, help] per binding, navigation first. */
export function helpRows(keymap: Keymap): [string, string][] {
  return keymap.bindings.map((b) => [keyLabel(b), b.help]);
}

export const README_KEYS_BEGIN = "<!-- keys:begin (generated from src/tui/core/keymap.ts) -->";
export const README_KEYS_END = "<!-- keys:end -->";

/** The README's Keys table, generated from the default table (laid out as `deno fmt` does). */
export function keysMarkdown(table: readonly Binding[] = BINDINGS): string {
  const rows = [
    ["key", "action", "config name", "mode"],
    ...table.map((b) => [
      b.keys.map((k) => "`" + k.replace("|", "\\|") + "`").join(" "),
      b.help,
      "`" + b.action + "`",
      b.scope,
    ]),
  ];
  const widths = rows[0]!.map((_, c) => Math.max(...rows.map((r) => stringWidth(r[c]!))));
  const line = (cells: string[]) =>
    "| " + cells.map((cell, c) => cell + " ".repeat(widths[c]! - stringWidth(cell))).join(" | ") +
    " |";
  return [line(rows[0]!), line(widths.map((w) => "-".repeat(w))), ...rows.slice(1).map(line)]
    .join("\n");
}

/** README text with its Keys section replaced by the generated one. */
export function withKeysSection(readme: string, table: readonly Binding[] = BINDINGS): string {
  const start = readme.indexOf(README_KEYS_BEGIN);
  const end = readme.indexOf(README_KEYS_END);
  if (start < 0 || end < start) return readme;
  return readme.slice(0, start + README_KEYS_BEGIN.length) + "\n\n" + keysMarkdown(table) +
    "\n\n" + readme.slice(end);
}
