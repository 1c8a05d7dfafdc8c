/**
 * The plugin tab wire, JSON Lines protocol v1 (docs/plugin-protocol.md): every
 * message both ways, zod-validated, plus the opt-in extensions.
 *
 * Pure: imports no runtime. One JSON object per line (UTF-8, at most
 * MAX_LINE_BYTES), `type` names it. Parse functions throw a ProtocolError
 * naming the bad field; the host isolates the sender (P6).
 *
 * Invariant: a plugin whose manifest has no `subscribe` receives only the v1
 * host messages (HOST_V1_TYPES); extension messages go only to subscribers.
 */

import { z } from "zod";
import { ProtocolError } from "../errors.ts";
import { TERM_MS } from "../model/teardown.ts";

export const PROTOCOL_VERSION = 1;
/** One line, newline excluded (P3). */
export const MAX_LINE_BYTES = 1024 * 1024;
/** The manifest must arrive within this many ms of `init` (P3). */
export const MANIFEST_TIMEOUT_MS = 3000;
/** Messages queued to a plugin that does not read before it is killed (P6). */
export const MAX_QUEUED_MESSAGES = 256;
/** SIGKILL this long after SIGTERM (P5): the shared escalation's (model/teardown.ts). */
export const KILL_AFTER_MS = TERM_MS;
/** Output kept per stream of a non-interactive exec (P3). */
export const MAX_EXEC_OUTPUT_BYTES = 1024 * 1024;
/** stderr kept for the tab's error view (P6). */
export const STDERR_TAIL_BYTES = 4096;
/** A plugin's own `doctor` is killed with its tree after this long (P2). */
export const DOCTOR_TIMEOUT_MS = 30_000;

export const PLUGIN_ID = /^[a-z0-9][a-z0-9_-]{0,31}$/;
export const COMMAND_NAME = /^[a-z0-9][a-z0-9_-]*$/;

/** Keys a plugin sees only while its last frame says `capturing: true` (P3). */
export const GLOBAL_KEYS: ReadonlySet<string> = new Set([
  "q",
  "?",
  ":",
  "tab",
  "shift+tab",
  ..."123456789",
]);

const int = z.number().int();
const size = int.min(0).max(100_000);
/** Exec ids are the plugin's: a string or a number, echoed back as given. */
const execId = z.union([z.string().min(1).max(200), int]);

// ---------------------------------------------------------------- host → plugin (v1)

export const themeSchema = z.object({
  id: z.string(),
  /** role → "#rrggbb" (e.g. `ui.accent`, `ansi.red`, `Primary`, `Bg`, `Info`). */
  colors: z.record(z.string(), z.string()),
});
export type Theme = z.infer<typeof themeSchema>;

export const agentEntrySchema = z.object({
  id: z.string(),
  name: z.string(),
  installed: z.boolean(),
  version: z.string().nullable(),
  /** Where the agent keeps managed files (settings, hooks), or null. */
  managedDir: z.string().nullable(),
  /** Directories the agent reads (config, skills), for plugins that browse them. */
  readDirs: z.array(z.string()),
  /** Extension (optional, ignored by v1 plugins): where its manifest came from. */
  source: z.enum(["builtin", "user"]).optional(),
  /** Extension: hook integration, e.g. "installed", "not installed", "disabled by managed settings". */
  hooks: z.string().optional(),
});
export type AgentEntry = z.infer<typeof agentEntrySchema>;

export const mouseSchema = z.object({
  kind: z.enum(["wheel", "click"]),
  /** Tab-relative, 0-based. */
  x: int.min(0),
  y: int.min(0),
  /** click: "left" | "middle" | "right"; wheel: "up" | "down". */
  button: z.string(),
});
export type Mouse = z.infer<typeof mouseSchema>;

const initSchema = z.object({
  type: z.literal("init"),
  protocol: z.literal(PROTOCOL_VERSION),
  id: z.string().regex(PLUGIN_ID),
  home: z.string(),
  configDir: z.string(),
  dataDir: z.string(),
  libraryDir: z.string(),
  theme: themeSchema,
  /** The `<id>:` section of config.yml, omitted when absent. */
  config: z.unknown().optional(),
  width: size,
  height: size,
});
const resizeSchema = z.object({ type: z.literal("resize"), width: size, height: size });
const keySchema = z.object({ type: z.literal("key"), key: z.string().min(1), text: z.string() });
const pasteSchema = z.object({ type: z.literal("paste"), text: z.string() });
const mouseMessageSchema = z.object({ type: z.literal("mouse"), mouse: mouseSchema });
const commandSchema = z.object({
  type: z.literal("command"),
  name: z.string().regex(COMMAND_NAME),
});
const reloadSchema = z.object({ type: z.literal("reload") });
const agentsSchema = z.object({ type: z.literal("agents"), agents: z.array(agentEntrySchema) });
const execResultSchema = z.object({
  type: z.literal("exec_result"),
  execId,
  /** Exit code, or null when it could not run or was killed by a signal. */
  code: int.nullable(),
  stdout: z.string(),
  stderr: z.string(),
  /** Why it did not run or finish (not found, timed out, cancelled), else null. */
  error: z.string().nullable(),
});

// ---------------------------------------------------------------- host → plugin (extensions)

export const SUBSCRIPTIONS = ["sessions", "visible", "env", "watchers"] as const;
export type Subscription = typeof SUBSCRIPTIONS[number];

export const sessionEntrySchema = z.object({
  id: z.string(),
  name: z.string(),
  group: z.string().nullable(),
  status: z.enum(["running", "exited"]),
  /** Catalog agent id, or null for a plain session. */
  agent: z.string().nullable(),
  /** Agent state (idle, working, blocked, done, error), or null. */
  state: z.string().nullable(),
  /** Epoch ms when that state began, or null. */
  since: int.nullable(),
  /** First line of `agent_stats_command` for this session, or null. */
  stats: z.string().nullable(),
  /** Completed turns (working → not working) seen since the session started. */
  turns: int.min(0),
  /** Epoch ms the current turn began, null when not working. */
  turnStartedAt: int.nullable(),
  /** Duration of the last completed turn in ms, or null. */
  lastTurnMs: int.nullable(),
  /** True for the session the user has selected. */
  selected: z.boolean(),
  /** The folder the session started in (the Changes tab reads its worktree). */
  cwd: z.string(),
  /** Why the agent's turn failed (`limit`: a usage limit, docs/limits.md), or null. */
  kind: z.string().nullable().default(null),
  /** A usage limit's reset, epoch ms, or null. */
  resetsAt: int.nullable().default(null),
  /** Its resume at usage limits, null when it never met one (docs/limits.md). */
  limitResume: z.object({
    /** `waiting`, `asked`, `typing`, `resumed`, `watching`, `stopped`, `none`. */
    phase: z.string(),
    /** Why it stopped, or null. */
    reason: z.string().nullable(),
    /** The policy in force (`off`, `ask`, `auto`) and where it comes from. */
    policy: z.string(),
    policyFrom: z.string(),
    /** Resumes typed, and resumes that typed nothing or did not hold, in this session. */
    resumed: int.min(0),
    failed: int.min(0),
  }).nullable().default(null),
});
export type SessionEntry = z.infer<typeof sessionEntrySchema>;

export const watcherEntrySchema = z.object({
  session: z.string(),
  pattern: z.string(),
  /** "file" (project file) or "live" (armed with `v` or a request). */
  source: z.enum(["file", "live"]),
  notify: z.boolean(),
  /** Lines it matched so far (a `notify: false` watcher shows its effect here). */
  matches: z.number().int().nonnegative().optional(),
});
export type WatcherEntry = z.infer<typeof watcherEntrySchema>;

const sessionsSchema = z.object({
  type: z.literal("sessions"),
  sessions: z.array(sessionEntrySchema),
});
const visibleSchema = z.object({ type: z.literal("visible"), visible: z.boolean() });
const envSchema = z.object({
  type: z.literal("env"),
  /** The selected session, or null when none is selected. */
  session: z.string().nullable(),
  vars: z.record(z.string(), z.string()),
});
const watchersSchema = z.object({
  type: z.literal("watchers"),
  watchers: z.array(watcherEntrySchema),
});
const resultSchema = z.object({
  type: z.literal("result"),
  requestId: execId,
  ok: z.boolean(),
  error: z.string().nullable(),
});

export const hostMessageSchema = z.discriminatedUnion("type", [
  initSchema,
  resizeSchema,
  keySchema,
  pasteSchema,
  mouseMessageSchema,
  commandSchema,
  reloadSchema,
  agentsSchema,
  execResultSchema,
  sessionsSchema,
  visibleSchema,
  envSchema,
  watchersSchema,
  resultSchema,
]);
export type HostMessage = z.infer<typeof hostMessageSchema>;
export type InitMessage = z.infer<typeof initSchema>;
export type ExecResult = z.infer<typeof execResultSchema>;

export const HOST_V1_TYPES: ReadonlySet<HostMessage["type"]> = new Set([
  "init",
  "resize",
  "key",
  "paste",
  "mouse",
  "command",
  "reload",
  "agents",
  "exec_result",
]);

/** Which subscription a host extension message needs; v1 messages need none. */
export function subscriptionFor(type: HostMessage["type"]): Subscription | "request" | null {
  switch (type) {
    case "sessions":
    case "visible":
    case "env":
    case "watchers":
      return type;
    case "result":
      return "request";
    default:
      return null;
  }
}

// ---------------------------------------------------------------- plugin → host

const helpSectionSchema = z.object({
  title: z.string(),
  keys: z.array(z.tuple([z.string(), z.string()])),
});
export const REQUESTS = ["arm_watcher", "disarm_watcher", "select_session", "copy"] as const;
/** The most text one `copy` request puts on the clipboard (terminals cap OSC 52 near 100 KB). */
export const MAX_COPY_BYTES = 64 * 1024;
export type RequestName = typeof REQUESTS[number];

const manifestSchema = z.object({
  type: z.literal("manifest"),
  title: z.string().min(1).max(40),
  help: z.array(helpSectionSchema).default([]),
  commands: z.array(
    z.object({ name: z.string().regex(COMMAND_NAME), desc: z.string().default("") }),
  )
    .default([]),
  doctor: z.boolean().default(false),
  /** Extension: opt-in host messages. Unknown names are ignored (forward compatible). */
  subscribe: z.array(z.string()).default([]),
  /**
   * Opt-in: the host may stop the plugin while its tab is hidden and it has
   * nothing in flight, and starts it again (a fresh init) when it is needed.
   */
  onDemand: z.boolean().default(false),
});
const frameSchema = z.object({
  type: z.literal("frame"),
  view: z.string(),
  /** The tab's counter; omitted or null hides it. */
  count: int.nullable().optional(),
  capturing: z.boolean().default(false),
});
const execSchema = z.object({
  type: z.literal("exec"),
  execId,
  argv: z.array(z.string()).min(1),
  /** Working directory (default: the plugin's). */
  dir: z.string().optional(),
  interactive: z.boolean().default(false),
});
const armSchema = z.object({
  type: z.literal("arm_watcher"),
  requestId: execId.optional(),
  session: z.string().min(1),
  pattern: z.string().min(1),
});
const disarmSchema = z.object({
  type: z.literal("disarm_watcher"),
  requestId: execId.optional(),
  session: z.string().min(1),
});
const selectSchema = z.object({
  type: z.literal("select_session"),
  requestId: execId.optional(),
  session: z.string().min(1),
});

const copySchema = z.object({
  type: z.literal("copy"),
  requestId: execId.optional(),
  text: z.string().refine((t) => new TextEncoder().encode(t).length <= MAX_COPY_BYTES, {
    message: `over ${MAX_COPY_BYTES} bytes`,
  }),
});

export const pluginMessageSchema = z.discriminatedUnion("type", [
  manifestSchema,
  frameSchema,
  execSchema,
  armSchema,
  disarmSchema,
  selectSchema,
  copySchema,
]);
export type PluginMessage = z.output<typeof pluginMessageSchema>;
export type PluginMessageInput = z.input<typeof pluginMessageSchema>;
export type Manifest = z.output<typeof manifestSchema>;
export type Frame = z.output<typeof frameSchema>;
export type ExecRequest = z.output<typeof execSchema>;
export type HostRequest = Extract<PluginMessage, { type: RequestName }>;

export function isRequest(message: PluginMessage): message is HostRequest {
  return (REQUESTS as readonly string[]).includes(message.type);
}

/** The known subscriptions a manifest asked for. */
export function subscriptionsOf(manifest: Manifest): Set<Subscription> {
  return new Set(
    manifest.subscribe.filter((s): s is Subscription =>
      (SUBSCRIPTIONS as readonly string[]).includes(s)
    ),
  );
}

// ---------------------------------------------------------------- parsing

function fieldOf(path: readonly PropertyKey[]): string {
  return path.map((p) => (typeof p === "number" ? `[${p}]` : String(p))).join(".").replace(
    /\.\[/g,
    "[",
  ) || "(message)";
}

function parseWith<S extends z.ZodType>(
  schema: S,
  known: readonly string[],
  line: string,
): z.output<S> {
  let value: unknown;
  try {
    value = JSON.parse(line);
  } catch {
    throw new ProtocolError(`Not a JSON line: ${preview(line)}`, null);
  }
  if (typeof value !== "object" || value === null || Array.isArray(value)) {
    throw new ProtocolError("Not a JSON object", null);
  }
  const type = (value as { type?: unknown }).type;
  if (typeof type !== "string" || type === "") {
    throw new ProtocolError("Missing or empty type", "type");
  }
  if (!known.includes(type)) throw new UnknownTypeError(type);
  const parsed = schema.safeParse(value);
  if (parsed.success) return parsed.data;
  const issue = parsed.error.issues[0];
  const field = fieldOf(issue?.path ?? []);
  throw new ProtocolError(`Bad ${type} message: ${field}: ${issue?.message ?? "invalid"}`, field);
}

/** A well-formed message of a type this side does not know (newer peer): skip it. */
export class UnknownTypeError extends ProtocolError {
  constructor(readonly type: string) {
    super(`Unknown message type ${JSON.stringify(type)}`, "type");
  }
}

const PLUGIN_TYPES = pluginMessageSchema.options.map((o) => o.shape.type.value);
const HOST_TYPES = hostMessageSchema.options.map((o) => o.shape.type.value);

/** A plugin's stdout line → message. Throws ProtocolError (UnknownTypeError for unknown types). */
export function parsePluginMessage(line: string): PluginMessage {
  return parseWith(pluginMessageSchema, PLUGIN_TYPES, line);
}

/** A host line as a plugin reads it (the built-in plugins use this). */
export function parseHostMessage(line: string): HostMessage {
  return parseWith(hostMessageSchema, HOST_TYPES, line);
}

/** One message as its line, newline excluded. */
export function encodeMessage(message: HostMessage | PluginMessageInput): string {
  return JSON.stringify(message);
}

function preview(line: string): string {
  return JSON.stringify(line.length > 60 ? `${line.slice(0, 60)}…` : line);
}
