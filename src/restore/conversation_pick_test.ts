import assert from "node:assert/strict";
import { pickConversations, type SessionEvidence } from "./conversation_pick.ts";
import type { StoredConversation } from "./conversation_store.ts";

const T = 1_796_220_000_000;

function conv(
  id: string,
  created: number | null,
  modified: number,
  cwd = "/app",
): StoredConversation {
  return {
    id,
    cwd,
    createdAt: created === null ? null : T + created,
    modifiedAt: T + modified,
    transcript: `/h/${id}.jsonl`,
    where: `t ${id}`,
  };
}

function session(
  id: string,
  started: number,
  more: Partial<SessionEvidence> = {},
): SessionEvidence {
  return {
    session: id,
    cwd: "/app",
    startedAt: T + started,
    current: null,
    byProcess: null,
    openFiles: [],
    ...more,
  };
}

const picked = (m: Map<string, { conversation: StoredConversation; how: string }>) =>
  Object.fromEntries([...m].map(([s, p]) => [s, `${p.conversation.id}:${p.how}`]));

Deno.test("pick: one agent, the newest conversation it created; not one from before it started", () => {
  const stored = [conv("old", -60_000, 5_000), conv("x", 3_000, 9_000), conv("y", 20_000, 21_000)];
  assert.deepEqual(picked(pickConversations([session("s1", 0)], stored)), { s1: "y:created" });
  // Another folder's conversation is never this session's.
  assert.deepEqual(picked(pickConversations([session("s1", 0, { cwd: "/else" })], stored)), {});
});

Deno.test("pick: the process file and an open transcript are exact, whatever the times say", () => {
  const stored = [conv("x", 3_000, 9_000), conv("y", 4_000, 9_500)];
  const s1 = session("s1", 0, { byProcess: conv("x", 3_000, 9_000) });
  const s2 = session("s2", 0, { openFiles: ["/dev/pts/3", "/h/y.jsonl"] });
  assert.deepEqual(picked(pickConversations([s1, s2], stored)), {
    s1: "x:process",
    s2: "y:open",
  });
});

Deno.test("pick: two agents in one folder — told apart by start time, else by who has none, else nobody", () => {
  // s1 started, x was created, then s2 started: x can only be s1's; y goes to s2 (s1 holds x).
  const a = [session("s1", 0, { current: "x" }), session("s2", 10_000)];
  const stored = [conv("x", 3_000, 30_000), conv("y", 12_000, 31_000)];
  assert.deepEqual(picked(pickConversations(a, stored)), { s1: "x:created", s2: "y:created" });
  // Both started before both were created, neither holds one: which is whose cannot be told.
  const both = [session("s1", 0), session("s2", 1_000)];
  const later = [conv("x", 5_000, 30_000), conv("y", 6_000, 31_000)];
  assert.deepEqual(picked(pickConversations(both, later)), {});
  // Once one is known (a hook, the process file), the other follows.
  assert.deepEqual(
    picked(pickConversations([session("s1", 0, { current: "x" }), both[1]!], later)),
    {
      s1: "x:created",
      s2: "y:created",
    },
  );
});

Deno.test("pick: never a conversation another session holds", () => {
  const stored = [conv("x", 3_000, 9_000)];
  assert.deepEqual(picked(pickConversations([session("s1", 0)], stored, new Set(["x"]))), {});
  const s2 = session("s2", 0, { current: "x" });
  assert.deepEqual(picked(pickConversations([session("s1", 0), s2], stored)), { s2: "x:created" });
});

Deno.test("pick: a resumed conversation — created before the agent started, written since — when alone", () => {
  const stored = [conv("r", -3_600_000, 5_000), conv("q", -7_200_000, -100_000)];
  assert.deepEqual(picked(pickConversations([session("s1", 0)], stored)), { s1: "r:written" });
  // Two sessions without one in the folder: whose it is cannot be told.
  assert.deepEqual(picked(pickConversations([session("s1", 0), session("s2", 0)], stored)), {});
  // Two written since: neither.
  const two = [...stored, conv("p", -60_000, 6_000)];
  assert.deepEqual(picked(pickConversations([session("s1", 0)], two)), {});
});
