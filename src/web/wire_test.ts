import assert from "node:assert/strict";
import { sessionView } from "../model/session.ts";
import { parsePageMessage, urgency, webSession } from "./wire.ts";

Deno.test("the list puts blocked, then limited, then failed first", () => {
  const s = (state: string | null, kind: string | null = null, status = "running") =>
    urgency({ state, kind, status: status as "running" | "exited" });
  const ranks = [
    s("blocked"),
    s("error", "rate_limit"),
    s("error"),
    s("done"),
    s("working"),
    s("idle"),
    s(null),
    s("blocked", null, "exited"),
  ];
  assert.deepEqual(ranks, [...ranks].sort((a, b) => a - b));
  assert.equal(new Set(ranks).size, ranks.length);
});

Deno.test("a session as the page sees it: its prompt's labels, not its keys", () => {
  const w = webSession(sessionView("session-1", {
    agent: "claude",
    prompt: {
      question: "Proceed?",
      subject: "rm x",
      options: [{ label: "Yes", keys: ["1"] }, { label: "No", keys: ["2"] }],
      cancel: ["Esc"],
      approve: 1,
      deny: 2,
    },
  }));
  assert.deepEqual(w.prompt, {
    question: "Proceed?",
    subject: "rm x",
    options: ["Yes", "No"],
    approve: 1,
    deny: 2,
  });
});

Deno.test("page messages are checked, one line for what is wrong", () => {
  assert.deepEqual(parsePageMessage('{"t":"watch","id":null}'), { t: "watch", id: null });
  assert.deepEqual(
    parsePageMessage('{"t":"answer","req":1,"id":"s","option":2,"question":"q","options":["a"]}'),
    { t: "answer", req: 1, id: "s", option: 2, question: "q", options: ["a"] },
  );
  assert.throws(
    () => parsePageMessage('{"t":"answer","req":1,"id":"s","option":-1}'),
    /bad option/,
  );
  assert.throws(() => parsePageMessage('{"t":"nope"}'), /unknown message type "nope"/);
  assert.throws(() => parsePageMessage("{"), SyntaxError);
  assert.throws(() => parsePageMessage("x".repeat(70_000)), /over 65536 bytes/);
  assert.throws(() => parsePageMessage('{"t":"send","req":1,"id":"s","text":5}'), /bad text/);
});
