/** Waiting for a server process to end (kill-server, a quit): loaded only then by the client. */

import { isAlive } from "../platform/liveness.ts";
import { delay } from "../util/async.ts";

/** Resolves once process `pid` is gone, or after `ms`. */
export async function gone(pid: number, ms: number): Promise<void> {
  const deadline = performance.now() + ms;
  while (isAlive(pid) && performance.now() < deadline) {
    await delay(20);
  }
}
