import assert from "node:assert/strict";
import { childEnv, envAdded, withUpdates } from "./launch_env.ts";

Deno.test("the attaching client's updates set and remove variables, leaving the base as it was", () => {
  const base = { A: "1", B: "2" };
  assert.deepEqual(withUpdates(base, { A: "one", B: null, C: "3" }), { A: "one", C: "3" });
  assert.deepEqual(base, { A: "1", B: "2" });
});

Deno.test("a child's environment drops the host terminal's, takes the spec's, and lazyshell's last", () => {
  const base = { PATH: "/bin", TMUX: "/tmp/tmux-0/default,1,0", TERM_PROGRAM: "x", TERM: "screen" };
  const env = childEnv(base, "session-4", { EXTRA: "e", TERM: "dumb", COLORTERM: "24bit" }, "/s");
  assert.deepEqual(env, {
    PATH: "/bin",
    TERM: "xterm-256color",
    EXTRA: "e",
    COLORTERM: "24bit",
    LAZYSHELL_SESSION_ID: "session-4",
    LAZYSHELL_SOCK: "/s",
  });
  assert.equal(childEnv({}, "session-1", undefined, "").COLORTERM, "truecolor");
  assert.equal(base.TMUX, "/tmp/tmux-0/default,1,0", "the base is not changed");
});

Deno.test("a spec's additions are what differs from the base, lazyshell's own not counted", () => {
  const base = { PATH: "/bin", HOME: "/h" };
  const extra = { PATH: "/bin", HOME: "/other", LAZYSHELL_SOCK: "/s", TERM: "x", NEW: "n" };
  assert.deepEqual(envAdded(extra, base), { HOME: "/other", NEW: "n" });
  assert.deepEqual(envAdded(undefined, base), {});
});
