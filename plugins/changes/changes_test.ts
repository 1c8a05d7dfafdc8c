import assert from "node:assert/strict";
import type { HostMessage, SessionEntry } from "../../src/plugin/protocol.ts";
import { sh, testRepo } from "../../src/git/test_util.ts";
import { initMessage, sessionEntry } from "../../src/plugin/test_util.ts";
import type { Outgoing } from "../_sdk.ts";
import { ChangesTab } from "./changes.ts";

// deno-lint-ignore no-control-regex
const plain = (s: string) => s.replace(/\x1b\[[0-9;]*m/g, "");
const key = (k: string): HostMessage => ({ type: "key", key: k, text: k.length === 1 ? k : "" });

function entry(id: string, cwd: string, over: Partial<SessionEntry> = {}): SessionEntry {
  return sessionEntry({ id, name: id, cwd, ...over });
}

/** A tab fed like the host feeds it; `settled` resolves after each git read. */
function harness() {
  const tab = new ChangesTab();
  const sent: Outgoing[] = [];
  let wake = () => {};
  tab.attach(() => wake());
  const send = (m: HostMessage) => tab.handle(m, (o) => sent.push(o));
  const settled = () => new Promise<void>((resolve) => (wake = resolve));
  send(initMessage("changes"));
  return { tab, sent, send, settled, view: () => plain(tab.frame().view) };
}

Deno.test("the Changes tab shows the selected session's edits, coloured, and follows new ones", async () => {
  using repo = testRepo();
  const wt = repo.worktree("fix");
  repo.write(`${wt}/a.txt`, "one\nTWO\nthree\n");
  const h = harness();
  try {
    h.send({ type: "sessions", sessions: [entry("session-1", wt)] });
    assert.match(h.view(), /^No session|reading git/m, "hidden: git not read yet");
    let done = h.settled();
    h.send({ type: "visible", visible: true });
    await done;
    let view = h.view();
    assert.match(
      view,
      /^session-1 \(session-1\) fix worktree .* since main at [0-9a-f]{7}, 0 commits/m,
    );
    assert.match(view, /^ M a\.txt +\+1 -1 +unstaged *$/m);
    assert.match(view, /^-two\n\+TWO$/m);
    assert.ok(h.tab.frame().view.includes("\x1b[32m+TWO\x1b[0m"), "added lines in green");
    assert.equal(h.tab.frame().count, 1);

    repo.write(`${wt}/b.txt`, "new\n");
    done = h.settled();
    h.send(key("r"));
    await done;
    view = h.view();
    assert.match(view, /^ \? b\.txt +\+1 -0 +untracked *$/m);
    assert.equal(h.tab.frame().count, 2);

    h.send(key("j"));
    assert.match(h.view().split("\n").find((l) => l.startsWith("diff --git")) ?? "", /b\.txt/);
    h.send(key("y"));
    assert.deepEqual(h.sent.at(-1), { type: "copy", text: "fix", requestId: "copy" });
    h.send({ type: "result", requestId: "copy", ok: true, error: null });
    assert.match(h.view(), /Copied fix$/);
    h.send(key("e"));
    assert.deepEqual(h.sent.at(-1), {
      type: "exec",
      execId: "edit",
      argv: ["sh", "-c", 'exec ${VISUAL:-${EDITOR:-vi}} "$1"', "lazyshell-edit", `${wt}/b.txt`],
      dir: wt,
      interactive: true,
    });
  } finally {
    h.tab.stop();
  }
});

Deno.test("the Changes tab asks before removing, names what would be lost, and removes", async () => {
  using repo = testRepo();
  const wt = repo.worktree("fix");
  repo.write(`${wt}/a.txt`, "dirty\n");
  const h = harness();
  try {
    h.send({ type: "sessions", sessions: [entry("session-1", wt)] });
    let done = h.settled();
    h.send({ type: "visible", visible: true });
    await done;
    h.send(key("D"));
    assert.match(h.view(), /session-1 \(session-1\) still runs in .*: end it first$/);
    h.send({ type: "sessions", sessions: [entry("session-1", wt, { status: "exited" })] });
    h.send(key("D"));
    assert.match(
      h.view(),
      /has uncommitted changes \(1 file: a\.txt\)\. y: remove anyway and lose them, any other key: no$/,
    );
    h.send(key("n"));
    assert.ok(Deno.statSync(`${wt}/a.txt`).isFile, "no: nothing removed");

    sh(wt, "checkout", "--", "a.txt");
    done = h.settled();
    h.send(key("r"));
    await done;
    h.send(key("D"));
    assert.match(h.view(), /Remove .*\/fix and delete branch fix\? y: yes, any other key: no$/);
    done = h.settled();
    h.send(key("y"));
    await done;
    assert.match(h.view(), /Removed worktree .*\/fix; Deleted branch fix$/);
    assert.throws(() => Deno.statSync(wt));
    assert.equal(sh(repo.main, "status", "--porcelain"), "");

    h.send({ type: "sessions", sessions: [entry("session-2", repo.main)] });
    while (h.tab.changes?.root !== repo.main) await h.settled();
    h.send(key("D"));
    assert.match(h.view(), /main is the main checkout of its repository$/);
  } finally {
    h.tab.stop();
  }
});
