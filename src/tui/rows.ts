/**
 * The session list as plain rows (model/tui.ts SessionRow): the store's
 * sessions plus what detection says about each (agent, state, rules).
 */

import type { AgentStatus } from "../model/agent.ts";
import type { SessionRow } from "../model/tui.ts";
import type { Runtime } from "../runtime/runtime.ts";

/** What the TUI reads from the DetectionHub (src/runtime/detection.ts). */
export interface DetectionView {
  status(id: string): AgentStatus | null;
  agent(id: string): string | null;
  hasRules(agent: string): boolean;
  on(listener: (event: { readonly type: string; readonly id: string }) => void): Disposable;
}

/** The runtime's DetectionHub. */
export function detectionOf(runtime: Runtime): DetectionView {
  return runtime.detection;
}

export function sessionRows(
  runtime: Runtime,
  detection: DetectionView | null,
  stats: (id: string) => string | null = () => null,
): SessionRow[] {
  return runtime.store.list().map((s) => {
    const agent = detection?.agent(s.id) ?? null;
    return {
      id: s.id,
      name: s.name,
      group: s.group,
      status: s.status,
      exitCode: s.exitCode,
      signal: s.signal,
      agent,
      agentStatus: detection?.status(s.id) ?? null,
      hasRules: agent !== null && (detection?.hasRules(agent) ?? false),
      stats: stats(s.id),
    };
  });
}
