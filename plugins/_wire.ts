/**
 * Protocol v1 as the built-in tabs speak it (docs/plugin-protocol.md): the
 * messages they read and write as plain types, one JSON object a line.
 * Like a third-party plugin in any language, a built-in reads what the host
 * sends without a schema library: the host is lazyshell itself and already
 * validates every line it sends to a plugin; a message of a type unknown
 * here is skipped (a newer host). No npm import: each built-in is its own
 * process, started when its tab is shown, and costs about a bare Deno
 * start-up (tests/hook_graph_test.ts checks the graph; builtins_test.ts that
 * these types match src/plugin/protocol.ts).
 */

export const MAX_LINE_BYTES = 1024 * 1024;

export interface Theme {
  readonly id: string;
  readonly colors: Readonly<Record<string, string>>;
}

export interface AgentEntry {
  readonly id: string;
  readonly name: string;
  readonly installed: boolean;
  readonly version: string | null;
  readonly managedDir: string | null;
  readonly readDirs: string[];
  readonly source?: "builtin" | "user" | undefined;
  readonly hooks?: string | undefined;
}

export interface SessionEntry {
  readonly id: string;
  readonly name: string;
  readonly group: string | null;
  readonly status: "running" | "exited";
  readonly agent: string | null;
  readonly state: string | null;
  readonly since: number | null;
  readonly stats: string | null;
  readonly turns: number;
  readonly turnStartedAt: number | null;
  readonly lastTurnMs: number | null;
  readonly selected: boolean;
  /** The folder the session started in. */
  readonly cwd: string;
  /** Why the agent's turn failed (`limit`: a usage limit), or null. */
  readonly kind?: string | null;
  /** A usage limit's reset (epoch ms), or null. */
  readonly resetsAt?: number | null;
  /** Its resume at usage limits, null when it never met one. */
  readonly limitResume?: LimitResumeEntry | null;
}

export interface LimitResumeEntry {
  readonly phase: string;
  readonly reason: string | null;
  readonly policy: string;
  readonly policyFrom: string;
  readonly resumed: number;
  readonly failed: number;
}

export interface WatcherEntry {
  readonly session: string;
  readonly pattern: string;
  readonly source: "file" | "live";
  readonly notify: boolean;
  /** Lines it matched so far (a `notify: false` watcher shows its effect here). */
  readonly matches?: number | undefined;
}

export interface Mouse {
  readonly kind: "wheel" | "click";
  readonly x: number;
  readonly y: number;
  readonly button: string;
}

type Id = string | number;

/** Every host → plugin message (v1 and the extensions). */
export type HostMessage =
  | {
    readonly type: "init";
    readonly protocol: 1;
    readonly id: string;
    readonly home: string;
    readonly configDir: string;
    readonly dataDir: string;
    readonly libraryDir: string;
    readonly theme: Theme;
    readonly config?: unknown;
    readonly width: number;
    readonly height: number;
  }
  | { readonly type: "resize"; readonly width: number; readonly height: number }
  | { readonly type: "key"; readonly key: string; readonly text: string }
  | { readonly type: "paste"; readonly text: string }
  | { readonly type: "mouse"; readonly mouse: Mouse }
  | { readonly type: "command"; readonly name: string }
  | { readonly type: "reload" }
  | { readonly type: "agents"; readonly agents: AgentEntry[] }
  | {
    readonly type: "exec_result";
    readonly execId: Id;
    readonly code: number | null;
    readonly stdout: string;
    readonly stderr: string;
    readonly error: string | null;
  }
  | { readonly type: "sessions"; readonly sessions: SessionEntry[] }
  | { readonly type: "visible"; readonly visible: boolean }
  | {
    readonly type: "env";
    readonly session: string | null;
    readonly vars: Readonly<Record<string, string>>;
  }
  | { readonly type: "watchers"; readonly watchers: WatcherEntry[] }
  | {
    readonly type: "result";
    readonly requestId: Id;
    readonly ok: boolean;
    readonly error: string | null;
  };

export interface ManifestMessage {
  readonly type: "manifest";
  readonly title: string;
  readonly help?: { readonly title: string; readonly keys: [string, string][] }[];
  readonly commands?: { readonly name: string; readonly desc?: string }[];
  readonly doctor?: boolean;
  readonly subscribe?: string[];
  readonly onDemand?: boolean;
}

/** Every plugin → host message a built-in writes. */
export type PluginMessage =
  | ManifestMessage
  | {
    readonly type: "frame";
    readonly view: string;
    readonly count?: number | null;
    readonly capturing?: boolean;
  }
  | {
    readonly type: "exec";
    readonly execId: Id;
    readonly argv: string[];
    readonly dir?: string;
    readonly interactive?: boolean;
  }
  | {
    readonly type: "arm_watcher";
    readonly requestId?: Id;
    readonly session: string;
    readonly pattern: string;
  }
  | { readonly type: "disarm_watcher"; readonly requestId?: Id; readonly session: string }
  | { readonly type: "select_session"; readonly requestId?: Id; readonly session: string }
  | { readonly type: "copy"; readonly requestId?: Id; readonly text: string };

const HOST_TYPES: ReadonlySet<string> = new Set([
  "init",
  "resize",
  "key",
  "paste",
  "mouse",
  "command",
  "reload",
  "agents",
  "exec_result",
  "sessions",
  "visible",
  "env",
  "watchers",
  "result",
]);

/** One host line → its message; null for a line that is not one (or of a type unknown here). */
export function readHostLine(line: string): HostMessage | null {
  let value: unknown;
  try {
    value = JSON.parse(line);
  } catch {
    return null;
  }
  if (typeof value !== "object" || value === null) return null;
  const type = (value as { type?: unknown }).type;
  return typeof type === "string" && HOST_TYPES.has(type) ? value as HostMessage : null;
}

/** One message as its line, newline excluded. */
export function encodeMessage(message: PluginMessage): string {
  return JSON.stringify(message);
}
