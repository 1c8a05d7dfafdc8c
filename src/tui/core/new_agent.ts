/**
 * The new agent session form (`N`, the palette's `new-agent`) as state
 * changes (pure, called by the reducer): the catalog's agents (installed
 * ones first, with versions, arriving once detected), the folder (the
 * client's current one), a first prompt, the session's name (the prompt's
 * first words unless typed) and "in a new worktree". Enter asks the
 * runner to launch it (src/runtime/launch.ts).
 */

import type { AgentChoice } from "../../model/agent.ts";
import { taskName } from "../../model/names.ts";
import { NEW_AGENT_FIELDS, type NewAgentForm, type TuiState } from "../../model/tui.ts";
import type { UserInput } from "./keys.ts";
import type { TuiEffect } from "./events.ts";
import { edit } from "./line_edit.ts";

/** Opens the form (the runner knows the folder and the agents found so far). */
export function openNewAgent(
  s: TuiState,
  folder: string,
  agents: readonly AgentChoice[] | null,
  branchPrefix = "",
): TuiState {
  const form: NewAgentForm = {
    type: "new-agent",
    agents,
    branchPrefix,
    agent: firstInstalled(agents),
    folder,
    prompt: "",
    name: "",
    worktree: false,
    field: "agent",
  };
  return { ...s, overlay: form, tab: 0 };
}

/** Agents detected (again): the choice stays, or goes to the first installed one. */
export function agentsFound(s: TuiState, agents: readonly AgentChoice[]): TuiState {
  const o = s.overlay;
  if (o?.type !== "new-agent") return s;
  const keep = o.agent !== null && agents.some((a) => a.id === o.agent);
  return { ...s, overlay: { ...o, agents, agent: keep ? o.agent : firstInstalled(agents) } };
}

function firstInstalled(agents: readonly AgentChoice[] | null): string | null {
  return agents?.find((a) => a.installed)?.id ?? agents?.[0]?.id ?? null;
}

/** The name the session will get: the one typed, else the prompt's words, else the agent's id. */
export function formName(o: NewAgentForm): string {
  return o.name.trim() || (taskName(o.prompt) ?? o.agent ?? "");
}

export function newAgentInput(
  s: TuiState,
  o: NewAgentForm,
  ev: UserInput,
  fx: TuiEffect[],
): TuiState {
  if (ev.type === "mouse") return s;
  const set = (more: Partial<NewAgentForm>) => ({ ...s, overlay: { ...o, ...more } });
  if (ev.type === "paste") {
    const text = ev.text.replace(/[\r\n]+/g, " ");
    if (o.field === "folder") return set({ folder: o.folder + text });
    if (o.field === "prompt") return set({ prompt: o.prompt + text });
    if (o.field === "name") return set({ name: o.name + text });
    return s;
  }
  const i = NEW_AGENT_FIELDS.indexOf(o.field);
  const n = NEW_AGENT_FIELDS.length;
  switch (ev.name) {
    case "esc":
      return { ...s, overlay: null };
    case "enter":
      return submit(s, o, fx);
    case "tab":
      return set({ field: NEW_AGENT_FIELDS[(i + 1) % n]! });
    case "shift+tab":
      return set({ field: NEW_AGENT_FIELDS[(i + n - 1) % n]! });
    case "up":
    case "down": {
      const step = ev.name === "up" ? -1 : 1;
      if (o.field === "agent" && o.agents && o.agents.length > 0) {
        const at = o.agents.findIndex((a) => a.id === o.agent);
        const j = Math.max(0, Math.min(o.agents.length - 1, at + step));
        return set({ agent: o.agents[j]!.id });
      }
      return set({ field: NEW_AGENT_FIELDS[Math.max(0, Math.min(n - 1, i + step))]! });
    }
  }
  switch (o.field) {
    case "worktree":
      return ev.name === "space" || ev.name === "x" ? set({ worktree: !o.worktree }) : s;
    case "folder":
      return set({ folder: edit(o.folder, ev) });
    case "prompt":
      return set({ prompt: edit(o.prompt, ev) });
    case "name":
      return set({ name: edit(o.name, ev) });
    default:
      return s;
  }
}

function submit(s: TuiState, o: NewAgentForm, fx: TuiEffect[]): TuiState {
  const error = (text: string) => ({ ...s, message: { text, error: true } });
  if (o.agents === null) return error("Still looking for agents: a moment");
  const agent = o.agents.find((a) => a.id === o.agent);
  if (!agent) return error("No agent chosen");
  if (!agent.installed) return error(`${agent.name} is not installed`);
  if (o.folder.trim() === "") return error("No folder given");
  fx.push({
    type: "launch-agent",
    agent: agent.id,
    cwd: o.folder.trim(),
    prompt: o.prompt.trim(),
    name: o.name.trim(),
    worktree: o.worktree,
  });
  const where = o.worktree ? " in a new worktree" : "";
  return {
    ...s,
    overlay: null,
    message: { text: `Starting ${agent.name}${where}…`, error: false },
  };
}
