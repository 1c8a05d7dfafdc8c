/**
 * Whether the lazyshell hooks written into agents' settings still run
 * (`lazyshell doctor`): after an upgrade, a move or a cleared cache, a hook
 * command may name a file that is gone, and the agent then fails silently.
 * Every absolute path before a command's `hook` word (the launcher, or
 * deno and main.ts) must exist and must not sit in a package-manager cache;
 * an opencode plugin file must be the one this lazyshell prints.
 *
 * Files are read through `read` and paths checked through `exists`, so the
 * decisions are testable without a home folder.
 */

import { HOOK_STATES } from "../ipc/hook_client.ts";
import type { Finding } from "./doctor.ts";
import type { ReadText } from "./hook_status.ts";
import { inPackageCache } from "./self.ts";

/** The words of a POSIX sh command line: quotes and backslashes, no expansion. */
export function shellWords(line: string): string[] {
  const words: string[] = [];
  let word: string | null = null;
  for (let i = 0; i < line.length; i++) {
    const c = line[i]!;
    if (c === "'") {
      const end = line.indexOf("'", i + 1);
      word = (word ?? "") + line.slice(i + 1, end < 0 ? line.length : end);
      i = end < 0 ? line.length : end;
    } else if (c === '"') {
      word ??= "";
      for (i++; i < line.length && line[i] !== '"'; i++) {
        if (line[i] === "\\" && /["\\$`]/.test(line[i + 1] ?? "")) i++;
        word += line[i];
      }
    } else if (c === "\\") {
      word = (word ?? "") + (line[++i] ?? "");
    } else if (/\s/.test(c)) {
      if (word !== null) words.push(word);
      word = null;
    } else {
      word = (word ?? "") + c;
    }
  }
  if (word !== null) words.push(word);
  return words;
}

/** The words before `hook <state>` when this argv runs `lazyshell hook`, else null. */
export function hookRunner(argv: readonly string[]): string[] | null {
  const i = argv.findIndex((w, k) =>
    w === "hook" && (HOOK_STATES as readonly string[]).includes(argv[k + 1] ?? "")
  );
  return i > 0 ? argv.slice(0, i) : null;
}

/** Every lazyshell hook command in a Claude Code settings.json, as runner words. */
export function claudeHookRunners(text: string): string[][] {
  let settings: unknown;
  try {
    settings = JSON.parse(text);
  } catch {
    return [];
  }
  const hooks = (settings as { hooks?: unknown })?.hooks;
  const out: string[][] = [];
  const visit = (value: unknown) => {
    if (Array.isArray(value)) return value.forEach(visit);
    if (typeof value !== "object" || value === null) return;
    const command = (value as { command?: unknown }).command;
    if (typeof command === "string") {
      const runner = hookRunner(shellWords(command));
      if (runner) out.push(runner);
    }
    Object.values(value).forEach(visit);
  };
  visit(hooks);
  return out;
}

/** The runner of a lazyshell `notify = [...]` line in Codex's config.toml, else null. */
export function codexNotifyRunner(text: string): string[] | null {
  const line = /^\s*notify\s*=\s*(\[.*\])\s*(#.*)?$/m.exec(text)?.[1];
  if (line === undefined) return null;
  // TOML basic strings are JSON strings; literal ones ('...') are taken verbatim.
  const strings = [...line.matchAll(/"((?:[^"\\]|\\.)*)"|'([^']*)'/g)].map((m) =>
    m[1] !== undefined ? JSON.parse(`"${m[1]}"`) as string : m[2]!
  );
  return hookRunner(strings);
}

export interface HookPathOptions {
  readonly home: string;
  readonly read: ReadText;
  readonly exists: (path: string) => boolean;
  /** What `lazyshell init --agents opencode` prints now. */
  readonly opencodePlugin: string;
}

/** One finding per configured integration; nothing for an agent without lazyshell hooks. */
export function hookPathFindings(o: HookPathOptions): Finding[] {
  const findings: Finding[] = [];
  const claudeFile = `${o.home}/.claude/settings.json`;
  const claude = claudeHookRunners(o.read(claudeFile) ?? "");
  const claudeFix =
    `replace lazyshell's hooks in ${claudeFile} with the output of lazyshell init --agents claude`;
  const seen = new Set<string>();
  for (const runner of claude) {
    if (seen.has(runner.join(" "))) continue;
    seen.add(runner.join(" "));
    findings.push(runnerFinding(`Claude Code hooks in ${claudeFile}`, runner, claudeFix, o));
  }
  const codexFile = `${o.home}/.codex/config.toml`;
  const codex = codexNotifyRunner(o.read(codexFile) ?? "");
  if (codex) {
    const fix = `replace the notify line in ${codexFile} with lazyshell init --agents codex`;
    findings.push(runnerFinding(`Codex notify in ${codexFile}`, codex, fix, o));
  }
  const opencodeFile = `${o.home}/.config/opencode/plugin/lazyshell.js`;
  const plugin = o.read(opencodeFile);
  if (plugin !== null) {
    findings.push(
      plugin.trimEnd() === o.opencodePlugin.trimEnd()
        ? { ok: true, text: `opencode plugin ${opencodeFile} is current` }
        : {
          ok: false,
          text:
            `opencode plugin ${opencodeFile} differs from this lazyshell's: lazyshell init --agents opencode > ${opencodeFile}`,
        },
    );
  }
  return findings;
}

function runnerFinding(
  what: string,
  runner: readonly string[],
  fix: string,
  o: HookPathOptions,
): Finding {
  const paths = runner.filter((w) => w.startsWith("/"));
  const missing = paths.find((p) => !o.exists(p));
  if (missing !== undefined) {
    return { ok: false, text: `${what} run ${missing}, which no longer exists: ${fix}` };
  }
  const cached = paths.find(inPackageCache);
  if (cached !== undefined) {
    return {
      ok: false,
      text:
        `${what} run ${cached}, inside a package-manager cache that may be emptied: install the lazyshell command (README: Install), then ${fix}`,
    };
  }
  return { ok: true, text: `${what} run ${runner.join(" ")}` };
}
