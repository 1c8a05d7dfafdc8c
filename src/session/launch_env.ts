/**
 * A session child's environment (docs/architecture.md, Sessions): what children inherit (the
 * store's base with the attaching client's updates), what lazyshell sets in each, and what a
 * spec's own env adds to it (kept in the session's facts).
 */

/** Variables a child must not inherit: they describe the host terminal, not ours. */
const HOST_ONLY_ENV = ["TMUX", "TMUX_PANE", "TERM_PROGRAM", "TERM_PROGRAM_VERSION", "STY"];

/** Variables lazyshell sets in every session itself: never a session's own addition. */
const OWN_ENV = /^(LAZYSHELL_\w+|TERM|COLORTERM)$/;

/**
 * `base` with the variables of the client that attached last (src/model/update_env.ts): a
 * value sets one, null removes it.
 */
export function withUpdates(
  base: Readonly<Record<string, string>>,
  updates: Readonly<Record<string, string | null>>,
): Record<string, string> {
  const env = { ...base };
  for (const [name, value] of Object.entries(updates)) {
    if (value === null) delete env[name];
    else env[name] = value;
  }
  return env;
}

/**
 * The environment session `id`'s child starts with: `base` without the host terminal's
 * variables, the spec's `extra` over it, then lazyshell's own (TERM, the session id, its hook
 * socket `socket`).
 */
export function childEnv(
  base: Readonly<Record<string, string>>,
  id: string,
  extra: Readonly<Record<string, string>> | undefined,
  socket: string,
): Record<string, string> {
  const env = { ...base };
  for (const key of HOST_ONLY_ENV) delete env[key];
  Object.assign(env, extra ?? {});
  env.TERM = "xterm-256color";
  env.COLORTERM ??= "truecolor";
  env.LAZYSHELL_SESSION_ID = id;
  env.LAZYSHELL_SOCK = socket;
  return env;
}

/**
 * What a spec's env adds to the environment children inherit (a `W`
 * restart passes a session's whole env back: only its differences count).
 */
export function envAdded(
  extra: Readonly<Record<string, string>> | undefined,
  base: Readonly<Record<string, string>>,
): Readonly<Record<string, string>> {
  const out: Record<string, string> = {};
  for (const [key, value] of Object.entries(extra ?? {})) {
    if (!OWN_ENV.test(key) && base[key] !== value) out[key] = value;
  }
  return out;
}
