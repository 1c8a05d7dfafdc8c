/**
 * Where lazyshell keeps things (XDG base directories; docs/architecture.md, Sockets).
 * Takes the environment as an argument so tests can pass their own.
 */

export type Env = Readonly<Record<string, string | undefined>>;

function home(env: Env): string {
  return env.HOME ?? env.USERPROFILE ?? "/";
}

/** `$XDG_CONFIG_HOME/lazyshell` (default `~/.config/lazyshell`). */
export function configDir(env: Env): string {
  return `${env.XDG_CONFIG_HOME || `${home(env)}/.config`}/lazyshell`;
}

/** `$XDG_DATA_HOME/lazyshell` (default `~/.local/share/lazyshell`): logs, plugin data. */
export function dataDir(env: Env): string {
  return `${env.XDG_DATA_HOME || `${home(env)}/.local/share`}/lazyshell`;
}

/**
 * `$XDG_STATE_HOME/lazyshell` (default `~/.local/state/lazyshell`): trusted project files, and
 * the sessions a server leaves for the next (docs/restore.md).
 */
export function stateDir(env: Env): string {
  return `${env.XDG_STATE_HOME || `${home(env)}/.local/state`}/lazyshell`;
}

/**
 * `$XDG_RUNTIME_DIR/lazyshell`, else `$TMPDIR/lazyshell-$UID` (mode 0700,
 * one sub-directory per running instance).
 */
/** This process's user id; null where the platform has none. */
export function currentUid(): number | null {
  try {
    return Deno.uid();
  } catch {
    return null;
  }
}

export function runtimeRoot(env: Env, uid: number | null): string {
  if (env.XDG_RUNTIME_DIR) return `${env.XDG_RUNTIME_DIR}/lazyshell`;
  return `${env.TMPDIR || "/tmp"}/lazyshell-${uid ?? "user"}`;
}

export function configFile(env: Env): string {
  return `${configDir(env)}/config.yml`;
}

export function userManifestDir(env: Env): string {
  return `${configDir(env)}/agents`;
}

export function pluginDir(env: Env): string {
  return `${configDir(env)}/plugins`;
}
