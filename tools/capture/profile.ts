/**
 * What the driver needs to know about one agent CLI: how to start it offline
 * against the mock (setup), what its screens look like (for the driver's
 * own waits and the `screen` truth labels), and which keys a user presses.
 */

export const SCENARIOS = [
  "tool",
  "question",
  "interrupt",
  "deny",
  "ask",
  "trust",
  "startup",
  "firststart",
  "fail-rate",
  "fail-overload",
  "fail-auth",
  "fail-quota",
  "fail-cut",
  "fail-flaky",
  "fail-rate-long",
  "fail-limit",
  "ask-multi",
  "agent",
  "background",
  "mcp",
  "resize",
  "always",
  "limit-auto",
  "limit-dialog",
  "limit-retry",
  "limit-week",
] as const;
export type ScenarioName = typeof SCENARIOS[number];

/** Scenarios only the CLIs whose profiles list them play (their UI or setup is their own). */
const OWN: readonly ScenarioName[] = [
  "firststart",
  "agent",
  "background",
  "mcp",
  "resize",
  "always",
  "limit-auto",
  "limit-dialog",
  "limit-retry",
  "limit-week",
];

/** What a CLI plays unless its profile says otherwise. */
export const DEFAULT_SCENARIOS: readonly ScenarioName[] = SCENARIOS.filter((s) => !OWN.includes(s));

export interface SetupContext {
  /** Where the CLIs are npm-installed (`<lab>/node_modules/.bin/<cli>`). */
  readonly lab: string;
  /** The mock model server, `http://127.0.0.1:<port>`. */
  readonly mockUrl: string;
  readonly mockPort: number;
  readonly scenario: ScenarioName;
  /** The capture's name, e.g. `claude-tool-osc7501`. */
  readonly name: string;
  /** tools/capture/scripts (hook-log.sh, notify-log.sh). */
  readonly scriptsDir: string;
}

export interface LaunchSpec {
  readonly file: string;
  readonly args: readonly string[];
  readonly env: Record<string, string>;
  readonly cwd: string;
  readonly version: string;
  /** A JSONL log the CLI's hooks append to (copied as hooks.jsonl or plugin-events.jsonl). */
  readonly hookLog?: string;
  readonly hookKind?: "hook" | "plugin";
  /** Codex `notify` log (copied as notify.jsonl). */
  readonly notifyLog?: string;
  /** opencode's server event stream (loopback), recorded as server-events.jsonl. */
  readonly sseUrl?: string;
  /** Config files written for the CLI, copied into the capture for the record. */
  readonly configFiles?: Readonly<Record<string, string>>;
}

/** One screen of a dialog the user goes through, and the keys pressed on it. */
export interface DialogStep {
  readonly screen: RegExp;
  readonly note: string;
  readonly keys: readonly string[];
}

export interface AgentProfile {
  readonly id: string;
  /** The main prompt is up and the agent waits for a task. */
  readonly idleRe: RegExp;
  /** A permission prompt is on screen. */
  readonly blockedRe: RegExp;
  readonly trustRe: RegExp;
  /**
   * The CLI shows it is working (screen or window title); the `done` label
   * waits until this has gone after the model's final response.
   */
  readonly busyRe?: RegExp;
  /**
   * The failed-turn screen (the CLI gave up on the model and waits), when
   * "the working indicator is gone" is not enough: opencode's retry line can
   * push its indicator off the footer while it still retries.
   */
  readonly failedRe?: RegExp;
  /**
   * How long a failing turn may retry before the user gives up and
   * interrupts it (default 240 s: Claude Code retries a rate limit for ~3
   * minutes; opencode retries five times, backing off up to 30 s).
   */
  readonly giveUpMs?: number;
  /**
   * The retry screen of a failing turn (a point labelled working in the
   * `fail-*` scenarios), when the CLI shows one.
   */
  readonly retryRe?: RegExp;
  /** A usage limit on screen (`limit-auto`, `limit-dialog`: scenarios_limit.ts). */
  readonly limitRe?: RegExp;
  /** The dialog beside a usage limit (`limit-dialog`). */
  readonly limitDialogRe?: RegExp;
  /** Keys that answer the limit's dialog with "stop" (`limit-dialog`). */
  readonly limitStopKeys?: readonly string[];
  /** The agent's own multiple-choice question UI. */
  readonly questionRe: RegExp;
  /**
   * How a user goes through the several-question dialog (`ask-multi`): each
   * step is labelled blocked where `screen` first matches, then its keys are
   * pressed; after the last step the dialog leaves the screen.
   */
  readonly multiQuestion?: readonly DialogStep[];
  readonly approveKey: string;
  /** Keys that accept the folder-trust dialog. */
  readonly trustKeys: readonly string[];
  /** Keys that interrupt a turn (opencode needs Esc twice). */
  readonly interruptKeys: readonly string[];
  /** Idle time after a prose-question turn (Claude's idle notification comes after ~60 s). */
  readonly idleWaitMs: number;
  readonly quitKeys: readonly string[];
  /** Scenarios this CLI supports (default: DEFAULT_SCENARIOS). */
  readonly scenarios?: readonly ScenarioName[];
  setup(ctx: SetupContext): Promise<LaunchSpec>;
}
