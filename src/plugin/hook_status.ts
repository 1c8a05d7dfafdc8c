/**
 * Whether an agent's hooks reach lazyshell (docs/hooks.md; the agents tab,
 * doctor). Claude Code: a `lazyshell hook` command in its settings and
 * no managed setting that turns hooks off (`disableAllHooks`,
 * `allowManagedHooksOnly`). Codex: `notify` in config.toml runs lazyshell.
 *
 * Reading files is injected (`read`) so the decision is testable.
 */

export type HookState = "installed" | "injected" | "missing" | "disabled" | "unsupported";

export interface HookStatus {
  readonly state: HookState;
  /** One line: what was found, and the fix when something is wrong. */
  readonly detail: string;
}

export type ReadText = (path: string) => string | null;

/** Managed settings locations of Claude Code per OS (enterprise policy files). */
export function claudeManagedSettings(os: string): string[] {
  if (os === "darwin") return ["/Library/Application Support/ClaudeCode/managed-settings.json"];
  if (os === "windows") return ["C:\\ProgramData\\ClaudeCode\\managed-settings.json"];
  return ["/etc/claude-code/managed-settings.json"];
}

function parseJson(text: string | null): Record<string, unknown> | null {
  if (text === null) return null;
  try {
    const value = JSON.parse(text);
    return typeof value === "object" && value !== null ? value as Record<string, unknown> : null;
  } catch {
    return null;
  }
}

function mentionsLazyshellHook(settings: Record<string, unknown> | null): boolean {
  return settings !== null && /lazyshell[^"]*\bhook\b/.test(JSON.stringify(settings.hooks ?? {}));
}

export interface HookCheckOptions {
  readonly home: string;
  readonly os: string;
  /** config.yml agents.claude.inject_hooks (H3). */
  readonly injectClaude: boolean;
  readonly read: ReadText;
}

export function claudeHookStatus(o: HookCheckOptions): HookStatus {
  const userFile = `${o.home}/.claude/settings.json`;
  const user = parseJson(o.read(userFile));
  const managedFile = claudeManagedSettings(o.os).find((f) => o.read(f) !== null);
  const managed = managedFile ? parseJson(o.read(managedFile)) : null;
  if (managed?.disableAllHooks === true || user?.disableAllHooks === true) {
    const where = managed?.disableAllHooks === true ? managedFile : userFile;
    return {
      state: "disabled",
      detail:
        `disableAllHooks is set in ${where}: hooks never run (remove it, or rely on screen detection)`,
    };
  }
  if (managed?.allowManagedHooksOnly === true && !mentionsLazyshellHook(managed)) {
    return {
      state: "disabled",
      detail:
        `allowManagedHooksOnly is set in ${managedFile}: only managed hooks run (ask your admin to add lazyshell's, see lazyshell init --agents)`,
    };
  }
  if (mentionsLazyshellHook(user) || mentionsLazyshellHook(managed)) {
    return {
      state: "installed",
      detail: `lazyshell hooks found in ${user ? userFile : managedFile}`,
    };
  }
  if (o.injectClaude) {
    return {
      state: "injected",
      detail: "added per launch with --settings (agents.claude.inject_hooks)",
    };
  }
  return {
    state: "missing",
    detail:
      `no lazyshell hook in ${userFile}: run lazyshell init --agents, or set agents.claude.inject_hooks: true`,
  };
}

export function codexHookStatus(o: HookCheckOptions): HookStatus {
  const file = `${o.home}/.codex/config.toml`;
  const text = o.read(file);
  if (text !== null && /^\s*notify\s*=.*lazyshell/m.test(text)) {
    return { state: "installed", detail: `notify runs lazyshell in ${file}` };
  }
  return {
    state: "missing",
    detail: `no lazyshell notify in ${file}: run lazyshell init --agents`,
  };
}

/** Agents with a hook integration (H2); every other agent relies on screen and OSC 7501. */
export const HOOK_CHECKS: Readonly<Record<string, (o: HookCheckOptions) => HookStatus>> = {
  claude: claudeHookStatus,
  codex: codexHookStatus,
};

export function hookStatus(agent: string, o: HookCheckOptions): HookStatus {
  const check = HOOK_CHECKS[agent];
  return check
    ? check(o)
    : { state: "unsupported", detail: "no hook integration (screen detection)" };
}
