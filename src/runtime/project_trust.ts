/**
 * The question before a project file starts anything (README "Project file"): an
 * implicit `./lazyshell.yml` (a cloned repository's) runs only once the
 * user trusted that file with that content (config/trust.ts). `--project
 * FILE` names the file on purpose and counts as trusted; `--yes` answers
 * yes (and remembers it, as `lazyshell trust FILE` does). With nobody to
 * ask (`serve`) an untrusted file is refused in one line that says how to
 * trust it. The TUI asks on the plain terminal before anything starts.
 */

import { UserError } from "../errors.ts";
import type { Env } from "../config/paths.ts";
import type { Project } from "../config/project.ts";
import { type ProjectOptions, readProject } from "../config/project_load.ts";
import { TrustStore } from "../config/trust.ts";

export interface ApprovalOptions extends ProjectOptions {
  readonly env: Env;
  /** `--yes`: trust the file as it is now. */
  readonly yes?: boolean | undefined;
  /** Shows `summary` and returns the user's answer; null: nobody to ask. */
  readonly ask: ((summary: string) => boolean) | null;
}

export interface Approval {
  /** What to start; null: no project file, or not trusted. */
  readonly project: Project | null;
  /** Why a project file found was not started (for the TUI's message line), else null. */
  readonly note: string | null;
}

/** Loads and validates the project file, then decides whether it may start (see above). */
export function approveProject(options: ApprovalOptions): Approval {
  const loaded = readProject(options);
  if (loaded === null) return { project: null, note: null };
  const { project, text } = loaded;
  if (options.file !== undefined) return { project, note: null };
  const store = new TrustStore(options.env);
  const previous = store.answer(project.file, text);
  if (previous === "allow") return { project, note: null };
  if (options.yes) {
    store.remember(project.file, text, "allow");
    return { project, note: null };
  }
  const how = `review it, then \`lazyshell trust ${project.file}\` or start with --yes`;
  if (previous === "deny") {
    if (options.ask === null) {
      throw new UserError(`Not trusted (you said no): ${project.file}: ${how}`);
    }
    return { project: null, note: `Not started, you said no: ${project.file} (${how})` };
  }
  if (options.ask === null) {
    throw new UserError(`New or changed project file, not trusted yet: ${project.file}: ${how}`);
  }
  const yes = options.ask(describeProject(project));
  store.remember(project.file, text, yes ? "allow" : "deny");
  return yes
    ? { project, note: null }
    : { project: null, note: `Not started: ${project.file} (${how})` };
}

/** What a project file will run: one line per session, its command and where. */
export function describeProject(project: Project): string {
  const width = Math.max(...project.sessions.map((s) => s.name.length));
  const lines = project.sessions.map((s) => {
    const env = Object.keys(s.env);
    return `  ${s.name.padEnd(width)}  ${s.command ?? "(a shell)"}  in ${s.cwd}` +
      (env.length > 0 ? `  with ${env.join(", ")}` : "");
  });
  return [`${project.file} is new or changed here. It starts:`, ...lines].join("\n");
}
