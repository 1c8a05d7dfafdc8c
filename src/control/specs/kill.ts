/**
 * `kill TARGET`: ends the session's process and everything it started
 * (SIGHUP, SIGTERM, SIGKILL while anything lingers) and waits for it; the session stays listed as exited (C2). There is no
 * delete verb.
 */

import { defineSpec, label, TARGET_ARG } from "../spec.ts";
import type { SessionEntry } from "../entry.ts";

export default defineSpec<SessionEntry>({
  name: "kill",
  summary: "End a session's process (it stays listed as exited)",
  args: [
    TARGET_ARG,
  ],
  format(entry) {
    return `Killed ${label(entry)}`;
  },
});
