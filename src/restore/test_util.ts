/** A saved session for tests: every field empty but the name, `more` on top. */

import type { SavedSession } from "./state_file.ts";

export function savedSession(name: string, more: Partial<SavedSession> = {}): SavedSession {
  return {
    name,
    group: null,
    cwd: "/",
    command: null,
    origin: null,
    env: [],
    watch: [],
    watcher: null,
    agent: null,
    conversation: null,
    screen: [],
    pending: false,
    limitResume: null,
    resumePolicy: null,
    groupResumePolicy: null,
    ...more,
  };
}
