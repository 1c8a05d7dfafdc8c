/**
 * `lazyshell reload` and SIGHUP (docs/architecture.md, "Reload"): the server
 * reads again config.yml, the agent manifests, the plugin directory and the
 * project file it started with, checks them all, and only when nothing is
 * wrong puts them in force through the one path, `Runtime.reconfigure()`.
 * Sessions, screens and clients are untouched; nothing restarts.
 *
 * Refused (the running config stays; every problem one line, file:line): a
 * config.yml that cannot be read or is invalid, a `keys:` override that
 * cannot be applied, a broken agent manifest, a project file that is
 * invalid, or changed and not trusted again (`lazyshell trust FILE`).
 * Applied, and reported like at start (src/server/problems.ts): unknown
 * keys, a top-level key no plugin owns, a `shell` that is not executable,
 * plugin directory problems.
 */

import type { WatchSpec } from "../notify/watch_rules.ts";
import { loadConfig } from "../config/load.ts";
import type { LoadedConfig } from "../config/config.ts";
import { readProject } from "../config/project_load.ts";
import { TrustStore } from "../config/trust.ts";
import { ConfigError, messageOf, UserError } from "../errors.ts";
import { discoverPlugins } from "../plugin/discovery.ts";
import { loadCatalogSync } from "../runtime/catalog.ts";
import type { Runtime, Setup } from "../runtime/runtime.ts";
import { problemsMessage } from "../tui/core/problems_message.ts";
import { keymapProblems, setupProblems } from "./problems.ts";

/** The project file a server started, read again for its watchers (W2). */
export interface ProjectSource {
  /** Absolute. */
  readonly file: string;
  /** `--project FILE` names it on purpose (trusted as named); else its content must be trusted. */
  readonly named: boolean;
}

export interface ReloadReport {
  readonly ok: boolean;
  /** One line each: what was reloaded and its warnings, or why it was refused. */
  readonly lines: readonly string[];
  /** The status-line message every attached client shows. */
  readonly message: { readonly text: string; readonly error: boolean };
}

/** Everything read and checked, ready to apply. */
interface ReadSetup {
  readonly setup: Setup;
  /** The project file's watchers by session name; null: no project file to follow. */
  readonly watches: ReadonlyMap<string, readonly WatchSpec[]> | null;
  /** What the report says besides the problems (a project file gone). */
  readonly notes: readonly string[];
}

/** Reads and checks everything a reload puts in force; `errors` when it must be refused. */
export function readSetup(
  runtime: Runtime,
  project: ProjectSource | null,
): ReadSetup | { readonly errors: readonly string[] } {
  const env = runtime.env;
  const errors: string[] = [];
  let loaded: LoadedConfig | null = null;
  try {
    loaded = loadConfig(env);
    errors.push(...keymapProblems(loaded));
  } catch (error) {
    if (!(error instanceof ConfigError)) throw error;
    errors.push(error.message);
  }
  const catalog = loadCatalogSync({ env });
  errors.push(...catalog.errors.map((e) => `${e.message}: fix or remove that file`));
  const notes: string[] = [];
  let watches: Map<string, readonly WatchSpec[]> | null = null;
  if (project) {
    try {
      const read = readProject({ cwd: "/", file: project.file });
      if (read === null) throw new UserError(`Project file not found: ${project.file}`);
      if (!project.named && new TrustStore(env).answer(project.file, read.text) !== "allow") {
        errors.push(
          `Changed project file, not trusted yet: ${project.file}: review it, then ` +
            `\`lazyshell trust ${project.file}\` and reload again`,
        );
      }
      watches = new Map(read.project.sessions.map((s) => [s.name, s.watch]));
    } catch (error) {
      if (error instanceof ConfigError) errors.push(error.message);
      else if (error instanceof UserError) {
        // Removed on purpose, most likely: its watchers go with it.
        notes.push(`${messageOf(error)}: its watchers are removed`);
        watches = new Map();
      } else throw error;
    }
  }
  if (errors.length > 0 || loaded === null) return { errors };
  return { setup: { loaded, catalog }, watches, notes };
}

/**
 * Reads, checks and applies (see above). Never throws for the user's files:
 * what is wrong with them is in the report.
 */
export async function reload(
  runtime: Runtime,
  project: ProjectSource | null,
): Promise<ReloadReport> {
  const read = readSetup(runtime, project);
  if ("errors" in read) {
    const n = read.errors.length;
    const first = read.errors[0]!;
    return {
      ok: false,
      lines: [
        ...read.errors,
        `Reload refused (${n} problem${n === 1 ? "" : "s"}): the running config stays`,
      ],
      message: {
        text: `Config not reloaded: ${first}${n > 1 ? ` (and ${n - 1} more)` : ""}`,
        error: true,
      },
    };
  }
  const { setup, watches, notes } = read;
  // The set-up's problems as doctor lists them (warnings now: the errors were refused above).
  const problems = setupProblems({
    env: runtime.env,
    config: setup.loaded,
    catalog: setup.catalog,
    plugins: discoverPlugins({ env: runtime.env }),
  });
  runtime.setProblems(problems);
  const failed = (await runtime.reconfigure(setup)).map((f) => `Not applied: ${f}`);
  if (watches) runtime.redeclareWatches(watches);
  const manifests = setup.catalog.manifests.length;
  const from = [
    setup.loaded.file,
    `${manifests} agent manifest${manifests === 1 ? "" : "s"}`,
    ...(project && watches?.size ? [project.file] : []),
  ];
  const warnings = [...notes, ...problems, ...failed];
  const summary = problemsMessage(warnings);
  return {
    ok: true,
    lines: [`Reloaded ${from.join(", ")}`, ...warnings],
    message: {
      text: summary ? `Config reloaded · ${summary}` : "Config reloaded",
      error: failed.length > 0,
    },
  };
}

/** Runs one reload at a time: a second request waits for the first, then reads the files again. */
export function serialized(
  run: () => Promise<ReloadReport>,
): () => Promise<ReloadReport> {
  let last: Promise<unknown> = Promise.resolve();
  return () => {
    const next = last.then(run, run);
    last = next.catch(() => {});
    return next;
  };
}
