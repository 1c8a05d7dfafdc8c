/**
 * tmux's `update-environment` (docs/architecture.md, "Server and clients"):
 * the variables a new session takes from the client that attached last, not
 * from the server's environment of when it started — an SSH agent socket,
 * a display, an agent's API key exported after the server started. Pure.
 *
 * A listed variable the attaching client has is set for new sessions; one it
 * does not have is removed from them (as tmux does: a stale SSH_AUTH_SOCK
 * would point at a dead agent). Sessions already running keep their
 * environment.
 */

/** A variable name a client may send and config may list. */
export const ENV_NAME = /^[A-Za-z_][A-Za-z0-9_]{0,255}$/;

/** tmux's default list, and the agents' credentials and endpoints. */
export const DEFAULT_UPDATE_ENVIRONMENT: readonly string[] = [
  "DISPLAY",
  "KRB5CCNAME",
  "SSH_ASKPASS",
  "SSH_AUTH_SOCK",
  "SSH_AGENT_PID",
  "SSH_CONNECTION",
  "WINDOWID",
  "XAUTHORITY",
  "WAYLAND_DISPLAY",
  "ANTHROPIC_API_KEY",
  "ANTHROPIC_AUTH_TOKEN",
  "ANTHROPIC_BASE_URL",
  "CLAUDE_CODE_OAUTH_TOKEN",
  "OPENAI_API_KEY",
  "OPENAI_BASE_URL",
  "CODEX_API_KEY",
  "GEMINI_API_KEY",
  "GOOGLE_API_KEY",
  "OPENROUTER_API_KEY",
  "AWS_PROFILE",
  "AWS_REGION",
];

/** What a client sends at most: its variables up to this many bytes, the default list's first. */
export const MAX_CLIENT_ENV_BYTES = 32 * 1024;
const MAX_VALUE_BYTES = 8 * 1024;

/**
 * The client's environment as it goes in its hello: the default list's
 * variables first, then the others while they fit (the server keeps only
 * those its config lists).
 */
export function clientEnvironment(
  env: Readonly<Record<string, string | undefined>>,
): Record<string, string> {
  const out: Record<string, string> = {};
  let bytes = 0;
  const names = [
    ...DEFAULT_UPDATE_ENVIRONMENT.filter((n) => env[n] !== undefined),
    ...Object.keys(env).filter((n) => !DEFAULT_UPDATE_ENVIRONMENT.includes(n)).sort(),
  ];
  for (const name of names) {
    const value = env[name];
    if (value === undefined || !ENV_NAME.test(name) || value.length > MAX_VALUE_BYTES) continue;
    const size = name.length + value.length + 8;
    if (bytes + size > MAX_CLIENT_ENV_BYTES) continue;
    bytes += size;
    out[name] = value;
  }
  return out;
}

/** For each listed name: the client's value, or null (removed for new sessions). */
export function environmentUpdate(
  listed: readonly string[],
  client: Readonly<Record<string, string>>,
): Record<string, string | null> {
  const out: Record<string, string | null> = {};
  for (const name of listed) out[name] = Object.hasOwn(client, name) ? client[name]! : null;
  return out;
}
