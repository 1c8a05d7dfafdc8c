/**
 * The manifests of the built-in tabs (docs/plugin-protocol.md §11): what
 * each sends first when it starts (plugins/<id>/), and what the host shows
 * for its tab — title, help, palette commands — before it has ever started:
 * a built-in starts only when its tab is shown or one of its commands runs
 * (on demand, src/plugin/tabs.ts). Plain data, no import: the plugin
 * processes load it too and must stay small.
 */

export interface BuiltinManifest {
  readonly type: "manifest";
  readonly title: string;
  readonly help: { readonly title: string; readonly keys: [string, string][] }[];
  readonly commands: { readonly name: string; readonly desc: string }[];
  readonly doctor: false;
  readonly subscribe: string[];
  /** May be stopped while its tab is hidden, and started again when needed. */
  readonly onDemand: true;
}

function manifest(
  title: string,
  keys: [string, string][],
  subscribe: string[],
  commands: { name: string; desc: string }[] = [],
): BuiltinManifest {
  return {
    type: "manifest",
    title,
    help: [{ title, keys }],
    commands,
    doctor: false,
    subscribe,
    onDemand: true,
  };
}

export const BUILTIN_MANIFESTS = {
  agents: manifest("Agents", [["j/k", "move"], ["g/G", "first/last"]], ["sessions"]),
  watchers: manifest(
    "Watchers",
    [["j/k", "move"], ["a", "arm a pattern on the session"], ["d", "disarm its live pattern"], [
      "esc",
      "cancel typing",
    ]],
    ["sessions", "watchers"],
    [{ name: "disarm-all", desc: "Disarm every live watcher" }],
  ),
  stats: manifest(
    "Stats",
    [["j/k", "move"], ["enter", "select the session in the sidebar"]],
    ["sessions"],
  ),
  env: manifest(
    "Env",
    [["j/k", "move"], ["enter", "reveal/hide the selected value"], ["R R", "reveal every value"], [
      "h",
      "hide every value",
    ]],
    ["env"],
    [{ name: "hide", desc: "Mask every secret again" }],
  ),
  changes: manifest(
    "Changes",
    [
      ["j/k", "select a file (the diff jumps to it)"],
      ["J/K", "scroll the diff a line"],
      ["space/pgdown, b/pgup", "scroll the diff a page"],
      ["e/enter", "open the file in $EDITOR"],
      ["y", "copy the branch name (OSC 52)"],
      ["D", "remove the worktree (asks first)"],
      ["r", "read git again"],
    ],
    ["sessions", "visible"],
    [
      { name: "refresh", desc: "Read git again" },
      { name: "remove-worktree", desc: "Remove the selected session's worktree (asks first)" },
    ],
  ),
} as const;
