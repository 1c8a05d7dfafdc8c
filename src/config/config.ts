/**
 * config.yml schema (README: Configuration): `$XDG_CONFIG_HOME/lazyshell/config.yml`.
 * Unknown keys are warned (a top-level key may be a plugin's section,
 * P1); bad values are rejected with path and reason. Pure.
 *
 * Add a section additively: one field here, its default, a line in the
 * README's config reference.
 */

import { DEFAULT_UPDATE_ENVIRONMENT, ENV_NAME } from "../model/update_env.ts";
import { z } from "zod";
import { ConfigError } from "../errors.ts";
import { didYouMean } from "../util/nearest.ts";
import { parseYaml } from "./yaml_file.ts";

const positiveInt = (max: number) => z.number().int().min(1).max(max);

/** `window_size`: how clients of different sizes size a session (src/runtime/window_size.ts). */
export const WINDOW_SIZES = ["latest", "smallest", "largest", "manual"] as const;
export type WindowSize = typeof WINDOW_SIZES[number];

/**
 * What to do when an agent's usage limit resets (docs/limits.md): `off`, `ask`
 * (a notification and a one-key resume), `auto` (type `continue` after re-reading
 * the screen). Every agent id takes these keys under `agents.<id>`.
 */
const limitSettings = {
  resume_after_limit: z.enum(["off", "ask", "auto"]).default("off"),
  /** What `auto` (and the `ask` key) types into the agent. */
  continue: z.string().min(1).max(200).refine(
    (t) => ![...t].some((c) => c.charCodeAt(0) < 0x20),
    "one line of text, no control characters",
  )
    .default("continue"),
};

export const configSchema = z.object({
  /** Scrollback lines kept per session (S2). */
  scrollback: z.number().int().min(0).max(1_000_000).default(5000),
  /** Shell for new sessions and for command strings (default: $SHELL). */
  shell: z.string().min(1).nullable().default(null),
  control: z.object({
    /** The control socket (C1) is off unless this is true. */
    enabled: z.boolean().default(false),
  }).prefault({}),
  notify: z.object({
    /** Run with the notification text on stdin instead of OSC 9/777 (N1). */
    fallback_command: z.string().min(1).nullable().default(null),
    /** Minimum seconds between two notifications of one session and state (N2). */
    rate_limit_seconds: z.number().min(0).max(3600).default(30),
  }).prefault({}),
  /** Draw spinners static (T3). */
  reduce_motion: z.boolean().default(false),
  /** Key overrides by action name: `action: "key"` or a list of keys (T2). */
  keys: z.record(z.string(), z.union([z.string().min(1), z.array(z.string().min(1))])).default({}),
  agents: z.object({
    claude: z.object({
      /** Add lazyshell's hooks with --settings when a session launches Claude Code (H3). */
      inject_hooks: z.boolean().default(false),
      ...limitSettings,
    }).prefault({}),
  }).catchall(z.object(limitSettings).prefault({})).prefault({}),
  /** Run for the selected session at most every 5 s; first line shown (W3). */
  agent_stats_command: z.string().min(1).nullable().default(null),
  /** New agent sessions in their own git worktree (`N`, `ctl new --agent … --worktree`). */
  worktrees: z.object({
    /**
     * Where new worktrees go: `{repo}` is the main checkout's folder name,
     * `~/` the home folder; a relative path starts at the main checkout.
     */
    dir: z.string().min(1).refine((d) => !/[\0\n\r]/.test(d), "no NUL or line breaks")
      .default("../{repo}.worktrees"),
    /** Run in the new worktree before the agent starts (sh -c), its output on screen. */
    setup: z.string().min(1).nullable().default(null),
    /** Put before the branch name made from the session's name. */
    branch_prefix: z.string().regex(/^[A-Za-z0-9._/-]*$/, "letters, digits, . _ / - only")
      .default(""),
  }).prefault({}),
  /**
   * The size of a session that clients of different sizes show (tmux's
   * `window-size`; src/runtime/window_size.ts).
   */
  window_size: z.enum(WINDOW_SIZES).default("latest"),
  /**
   * tmux's update-environment: variables new sessions take from the client
   * that attached last (absent there: removed), not from the server's start.
   */
  update_environment: z.array(z.string().regex(ENV_NAME, "a variable name")).max(256)
    .default([...DEFAULT_UPDATE_ENVIRONMENT]),
  /** The web view (docs/web.md): off unless enabled here or by `lazyshell web`. */
  web: z.object({
    enabled: z.boolean().default(false),
    /** The address to listen on: loopback unless it says otherwise (then put it behind TLS). */
    listen: z.string().min(1).default("127.0.0.1"),
    port: z.number().int().min(0).max(65535).default(7690),
    /** Shows, never answers or types. */
    read_only: z.boolean().default(false),
    /** Host names the page may be reached by besides loopback and `listen` (a tailnet name). */
    hosts: z.array(
      z.string().max(253).regex(/^[A-Za-z0-9.-]+$/, "a host name, without scheme or port"),
    ).default([]),
  }).prefault({}),
  /** `lazyshell -H DEST …` (docs/remote.md): the ssh command, split into words as sh would. */
  ssh: z.object({
    command: z.string().min(1).nullable().default(null),
  }).prefault({}),
  /** Other hosts by name, for `-H NAME` and `ctl list --all-hosts` (docs/remote.md). */
  hosts: z.array(z.object({
    name: z.string().regex(/^[A-Za-z0-9][A-Za-z0-9_.-]{0,63}$/, "letters, digits, . _ -"),
    /** As ssh takes it: `dev`, `me@box`, `ssh://me@box:2222`. */
    destination: z.string().min(1),
    /** The remote lazyshell, as the remote shell reads it (default `lazyshell`). */
    command: z.string().min(1).nullable().default(null),
  })).max(64).default([]),
  /** Session size used when no terminal size is known (serve). */
  default_size: z.object({ cols: positiveInt(1000), rows: positiveInt(500) }).prefault({
    cols: 120,
    rows: 32,
  }),
});

export type Config = z.output<typeof configSchema>;

export const DEFAULT_CONFIG: Config = configSchema.parse({});

export interface LoadedConfig {
  readonly config: Config;
  /**
   * Top-level keys the schema does not know, raw: plugin sections (P1) if
   * a plugin has that id, else a mistake (src/server/problems.ts says which).
   */
  readonly sections: Readonly<Record<string, unknown>>;
  /** One line each: unknown keys that are not a top-level (plugin) section. */
  readonly warnings: readonly string[];
  /** The file, as given to parseConfig. */
  readonly file: string;
  /** The line of every key in the file, by dotted path (`keys.unfocus` → 3). */
  readonly keyLines: Readonly<Record<string, number>>;
}

/** The settings config.yml knows at its top level (anything else is a plugin's section). */
export const CONFIG_KEYS: readonly string[] = Object.keys(configSchema.shape);

/** Parses config.yml text; throws ConfigError (file:line: reason). */
export function parseConfig(text: string, file: string): LoadedConfig {
  if (text.trim() === "") {
    return { config: DEFAULT_CONFIG, sections: {}, warnings: [], file, keyLines: {} };
  }
  const { value, unknownKeys, keyLines } = parseYaml(text, file, configSchema, ConfigError);
  const sections: Record<string, unknown> = {};
  const warnings: string[] = [];
  const raw = rawTopLevel(text);
  for (const key of unknownKeys) {
    if (!key.path.includes(".") && /^[a-z0-9][a-z0-9_-]{0,31}$/.test(key.path)) {
      sections[key.path] = raw[key.path];
    } else {
      const last = key.path.slice(key.path.lastIndexOf(".") + 1);
      warnings.push(
        `${file}${key.line === null ? "" : `:${key.line}`}: Unknown key ${key.path} (ignored)${
          didYouMean(last, key.known)
        }`,
      );
    }
  }
  return { config: value, sections, warnings, file, keyLines };
}

function rawTopLevel(text: string): Record<string, unknown> {
  const doc = parseYaml(text, "", z.record(z.string(), z.unknown()), ConfigError);
  return doc.value;
}
