/**
 * A process of one session cannot set another session's state through its
 * hook socket (docs/hooks.md, "Who may write to a hook socket"): the real
 * `lazyshell hook` run in session A with session B's LAZYSHELL_SOCK is
 * refused, the same run in B applies. Real PTYs, real sockets, the kernel's
 * own view of who is connected (src/ipc/peer.ts).
 */

import assert from "node:assert/strict";
import { waitForText } from "../src/session/test_util.ts";
import { connectedUnixSockets } from "../src/ipc/peer.ts";
import { startInstance } from "./control_helpers.ts";

const MAIN = new URL("../main.ts", import.meta.url).pathname;
const HOOK = `${Deno.execPath()} run -A --quiet ${MAIN} hook`;

Deno.test({
  name: "a hook sent from another session's process is refused; the session's own applies",
  ignore: Deno.build.os !== "linux",
  async fn() {
    // Where the kernel cannot be asked (no sock_diag), the sender is not known: nothing to test.
    if (connectedUnixSockets() === null) throw new Error("sock_diag unavailable here");
    await using t = await startInstance();
    await t.ok("new", { name: "a", command: "bash --norc --noprofile" });
    await t.ok("new", { name: "b", command: "bash --norc --noprofile" });
    const a = t.runtime.store.find("a")!;
    const b = t.runtime.store.find("b")!;
    const bSock = b.env.LAZYSHELL_SOCK!;
    const state = () => t.runtime.view(b.id)?.agentStatus?.state ?? null;
    // From A, with B's socket: the hook client exits 0 as always, B's state is untouched.
    await t.ok("send", {
      target: "a",
      text: `LAZYSHELL_SOCK=${bSock} ${HOOK} blocked --kind permission; echo forged-$((1+1))`,
      enter: true,
    });
    await waitForText(a, "forged-2", 30_000);
    assert.equal(state(), null, "a process of session a set session b's state");
    // From B itself: applied.
    await t.ok("send", { target: "b", text: `${HOOK} working; echo own-$((1+2))`, enter: true });
    await waitForText(b, "own-3", 30_000);
    assert.equal(state(), "working");
  },
});
