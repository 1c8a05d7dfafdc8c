/**
 * Which agent a session's foreground process is (docs/detection.md, Identity), asked after every
 * settled output. The process table answers with the same object while the foreground has not
 * changed (src/session/procinfo.ts): then the last answer holds. A `bash -c` loop (a launcher,
 * looked at again every IDENTITY_MS of session_detector.ts) asked identify() 16 times a second
 * in bench/server.ts, 10 % of the server's JavaScript time.
 */

import type { ProcessInfo } from "../model/snapshot.ts";
import { type AgentIdentity, identify, isLauncher } from "../session/identity.ts";

export interface ForegroundIdentity {
  /** The agent's id, or null (no agent of the catalog). */
  readonly agent: string | null;
  /** A shim or `env`, which may exec the agent in place. */
  readonly launcher: boolean;
}

export class ForegroundIdentifier {
  /** The last answer, with the foreground object and the identities it was for. */
  #last: {
    readonly fg: ProcessInfo;
    readonly identities: readonly AgentIdentity[];
    readonly agent: string | null;
    readonly launcher: boolean;
  } | null = null;

  /** Who `fg` is among `identities` (the catalog's: replaced by a reload). */
  of(fg: ProcessInfo, identities: readonly AgentIdentity[]): ForegroundIdentity {
    const last = this.#last;
    if (last?.fg === fg && last.identities === identities) return last;
    this.#last = { fg, identities, agent: identify(fg, identities), launcher: isLauncher(fg) };
    return this.#last;
  }
}
