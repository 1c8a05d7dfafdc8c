/**
 * The detector under test in bench/detect_latency.ts: the production
 * DetectionHub (src/runtime/detection.ts) over the real SessionStore, reporting
 * the state changes of one session.
 */

import type { AgentStatus } from "../src/model/agent.ts";
import type { Catalog } from "../src/runtime/catalog.ts";
import { DetectionHub } from "../src/runtime/detection.ts";
import type { Session } from "../src/session/session.ts";
import type { SessionStore } from "../src/session/store.ts";

export interface DetectorHandle extends Disposable {
  readonly name: string;
}

export function attachDetector(
  store: SessionStore,
  session: Session,
  catalog: Catalog,
  onChange: (status: AgentStatus) => void,
): DetectorHandle {
  const hub = new DetectionHub(store, catalog, (e) => {
    if (e.type === "state" && e.id === session.id) onChange(e.status);
  });
  return {
    name: "DetectionHub (src/runtime/detection.ts, default settle 30 ms / max wait 100 ms)",
    [Symbol.dispose]() {
      hub[Symbol.dispose]();
    },
  };
}
