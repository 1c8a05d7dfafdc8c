import assert from "node:assert/strict";
import { testStore } from "../session/test_util.ts";
import { nestedIn, nestedMessage, stdinTerminal } from "./nesting.ts";
import { delay } from "../util/async.ts";

const DIR = "/run/lazyshell/4242";

Deno.test("nestedIn: the terminal decides when the client names it, its variables when it relays", async () => {
  await using store = testStore();
  await using elsewhere = testStore();
  const inner = store.create({ name: "api", command: "sleep 60" });
  const other = store.create({ name: "web", command: "sleep 60" });
  // A PTY of no session of this server: a terminal window opened from inside `api`.
  const window = elsewhere.create({ command: "sleep 60" });
  const sessions = [inner, other].map((s) => ({
    id: s.id,
    name: s.name,
    pid: s.pid,
    status: s.status,
  }));
  // A child just forked may not have its PTY as stdin yet: wait until each one has.
  for (const s of [inner, other, window]) {
    for (let i = 0; i < 200 && stdinTerminal(s.pid) === null; i++) await delay(10);
  }
  const tty = (pid: number) => ({ path: "/dev/pts/x", ...stdinTerminal(pid)! });
  const inside = { session: inner.id, sock: `${DIR}/${inner.id}.sock` };

  assert.equal(nestedIn({ inside, tty: tty(inner.pid) }, sessions, DIR)?.id, inner.id);
  // Its variables say `api`, its terminal is `web`'s: it runs in `web` (a shell started there).
  assert.equal(nestedIn({ inside, tty: tty(other.pid) }, sessions, DIR)?.id, other.id);
  assert.equal(nestedIn({ inside, tty: tty(window.pid) }, sessions, DIR), null);
  // Relaying (no terminal named): the hook socket says whose session it is.
  assert.equal(nestedIn({ inside }, sessions, DIR)?.id, inner.id);
  assert.equal(nestedIn({ inside }, sessions, "/run/lazyshell/99"), null, "another server's");
  // Forced (LAZYSHELL_SESSION_ID unset): no check at all.
  assert.equal(nestedIn({ tty: tty(inner.pid) }, sessions, DIR), null);
  // A terminal that cannot be read falls back on the variables.
  assert.equal(nestedIn({ inside, tty: tty(window.pid) }, sessions, DIR, () => null)?.id, inner.id);

  assert.equal(
    nestedMessage(inner),
    "Sessions should be nested with care: this terminal is api (session-1) of this " +
      "lazyshell server; unset LAZYSHELL_SESSION_ID to force",
  );
});
