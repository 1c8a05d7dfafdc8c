/**
 * The agent catalog (docs/manifests.md): built-in manifests from `manifests/`
 * (embedded by `deno compile --include manifests`) plus user manifests in
 * `$XDG_CONFIG_HOME/lazyshell/agents/<name>.yml`. A user file with the name
 * of a built-in replaces it wholesale; a new name adds an agent. A broken
 * file becomes a ManifestError (file, line, reason) and the rest keep working.
 */

import { ManifestError, messageOf } from "../errors.ts";
import { type Env, userManifestDir } from "../config/paths.ts";
import { FileRefused, readSettingsFile } from "../config/read_file.ts";
import { type Manifest, parseManifest } from "../detect/manifest.ts";
import type { AgentIdentity } from "../session/identity.ts";
import type { CatalogAgent } from "../plugin/agents.ts";

export const BUILTIN_MANIFESTS = new URL("../../manifests/", import.meta.url);

export class Catalog {
  readonly #byId: Map<string, Manifest>;

  constructor(
    readonly manifests: readonly Manifest[],
    readonly errors: readonly ManifestError[] = [],
  ) {
    this.#byId = new Map(manifests.map((m) => [m.id, m]));
  }

  get(id: string | null): Manifest | null {
    return id === null ? null : this.#byId.get(id) ?? null;
  }

  get ids(): string[] {
    return this.manifests.map((m) => m.id);
  }

  /** The agents as src/plugin/agents.ts detects them: executables, and whether built in. */
  detectable(env: Env): CatalogAgent[] {
    const userDir = userManifestDir(env);
    return this.manifests.map((m) => ({
      id: m.id,
      name: m.name,
      processes: m.identity.processes,
      builtin: !m.source.startsWith(userDir),
    }));
  }

  /** Identity data for session/identity.ts `identify()`. */
  identities(): AgentIdentity[] {
    return this.manifests.map((m) => ({
      id: m.id,
      processes: m.identity.processes,
      scripts: m.identity.scripts,
      packages: m.identity.packages,
    }));
  }
}

export interface CatalogOptions {
  readonly env?: Env;
  /** Default: the built-in manifests beside the program. */
  readonly builtinDir?: URL | string;
  /** Default: `$XDG_CONFIG_HOME/lazyshell/agents`; null skips user manifests. */
  readonly userDir?: string | null;
}

/** Loads built-in then user manifests; never throws for a bad or missing file. */
export function loadCatalog(options: CatalogOptions = {}): Promise<Catalog> {
  return Promise.resolve(loadCatalogSync(options));
}

/** The same, synchronously (the runtime is built synchronously; a few small files). */
export function loadCatalogSync(options: CatalogOptions = {}): Catalog {
  const errors: ManifestError[] = [];
  const builtin = readDir(options.builtinDir ?? BUILTIN_MANIFESTS, errors);
  const env = options.env ?? Deno.env.toObject();
  const userDir = options.userDir === undefined ? userManifestDir(env) : options.userDir;
  const user = userDir === null ? [] : readDir(userDir, errors);
  const list = [...builtin];
  for (const m of user) {
    const i = list.findIndex((b) => b.id === m.id);
    if (i >= 0) list[i] = m;
    else list.push(m);
  }
  return new Catalog(list, errors);
}

function readDir(dir: URL | string, errors: ManifestError[]): Manifest[] {
  const base = typeof dir === "string" ? dir.replace(/\/?$/, "/") : dir;
  const names: string[] = [];
  try {
    for (const entry of Deno.readDirSync(base)) {
      if ((entry.isFile || entry.isSymlink) && /\.ya?ml$/.test(entry.name)) names.push(entry.name);
    }
  } catch (error) {
    if (!(error instanceof Deno.errors.NotFound)) {
      errors.push(new ManifestError(displayPath(base), null, `Cannot read: ${messageOf(error)}`));
    }
    return [];
  }
  names.sort();
  const out: Manifest[] = [];
  for (const name of names) {
    const path = typeof base === "string" ? `${base}${name}` : new URL(name, base);
    const file = displayPath(path);
    try {
      const text = readSettingsFile(path);
      out.push(parseManifest(text, file, name.replace(/\.ya?ml$/, "")));
    } catch (error) {
      errors.push(
        error instanceof ManifestError
          ? error
          : error instanceof FileRefused
          ? new ManifestError(file, null, error.message)
          : new ManifestError(file, null, `Cannot read: ${messageOf(error)}`),
      );
    }
  }
  return out;
}

function displayPath(path: URL | string): string {
  if (typeof path === "string") return path;
  return path.protocol === "file:" ? decodeURIComponent(path.pathname) : path.href;
}
