import assert from "node:assert/strict";
import { ProtocolError } from "../errors.ts";
import { FORWARDED_KEYS, forwardedPayload, HOOK_KINDS, hookMessage } from "./hook_client.ts";
import { STATE_KINDS } from "../model/agent.ts";
import {
  HOOK_PAYLOAD_KEYS,
  HOOK_STATES,
  parseControlRequest,
  parseControlResponse,
  parseHookMessage,
  parseHookReply,
  salvageId,
} from "./protocol.ts";
import { HOOK_STATES as CLIENT_STATES } from "./hook_client.ts";
import { readResponse } from "../ctl/client.ts";

const roundTrip = <T>(value: T, parse: (line: string) => unknown) =>
  assert.deepEqual(parse(JSON.stringify(value)), value);

Deno.test("every wire message survives a round trip", () => {
  roundTrip({
    v: 1,
    type: "hook",
    state: "blocked",
    kind: "question",
    payload: { hook_event_name: "PermissionRequest", tool_name: "AskUserQuestion" },
  }, parseHookMessage);
  roundTrip({ v: 1, type: "ack" }, parseHookReply);
  roundTrip({ v: 1, type: "error", error: "Bad hook message field state" }, parseHookReply);
  roundTrip(
    { id: 7, verb: "wait", args: { target: "build", state: "blocked" } },
    parseControlRequest,
  );
  roundTrip({ id: 7, ok: true, result: { sessions: [] } }, parseControlResponse);
  roundTrip({ id: null, ok: false, error: "Not a JSON control request" }, parseControlResponse);
});

Deno.test("the hook client builds what the server parses", () => {
  for (const state of CLIENT_STATES) {
    const message = hookMessage(state, state === "blocked" ? "auth" : null, {
      "input-messages": ["a", "b"],
      message: "m",
    });
    assert.deepEqual(parseHookMessage(JSON.stringify(message)), message);
  }
  assert.deepEqual([...CLIENT_STATES], [...HOOK_STATES]);
  assert.deepEqual([...HOOK_KINDS].sort(), [...STATE_KINDS].sort());
  const failed = hookMessage("error", "rate_limit", { error: "rate_limit" });
  assert.deepEqual(parseHookMessage(JSON.stringify(failed)), failed);
  assert.deepEqual([...FORWARDED_KEYS].sort(), [...HOOK_PAYLOAD_KEYS].sort());
});

Deno.test("forwardedPayload() keeps metadata only and clips long text", () => {
  const payload = forwardedPayload({
    hook_event_name: "PostToolUse",
    tool_input: { command: "cat secrets" },
    tool_response: "x",
    prompt: "p".repeat(10_000),
  });
  assert.deepEqual(Object.keys(payload).sort(), ["hook_event_name", "prompt"]);
  assert.equal((payload.prompt as string).length, 4096);
  assert.deepEqual(forwardedPayload("garbage"), {});
  assert.deepEqual(forwardedPayload(null), {});
});

Deno.test("parse errors are ProtocolErrors naming the field", () => {
  const cases: [string, (line: string) => unknown, string | null][] = [
    ['{"v":1,"type":"hook","state":"sleeping"}', parseHookMessage, "state"],
    ['{"v":2,"type":"hook","state":"idle"}', parseHookMessage, "v"],
    ['{"v":1,"type":"hook","state":"blocked","kind":"maybe"}', parseHookMessage, "kind"],
    [
      '{"v":1,"type":"hook","state":"idle","payload":{"message":5}}',
      parseHookMessage,
      "payload.message",
    ],
    ['{"id":-1,"verb":"list"}', parseControlRequest, "id"],
    ['{"id":1,"verb":""}', parseControlRequest, "verb"],
    ['{"id":1,"verb":"list","args":[]}', parseControlRequest, "args"],
    ["not json", parseControlRequest, null],
  ];
  for (const [line, parse, field] of cases) {
    assert.throws(() => parse(line), (error: unknown) => {
      assert.ok(error instanceof ProtocolError, line);
      assert.equal(error.field, field, line);
      if (field) assert.match(error.message, new RegExp(`field ${field.replace(".", "\\.")}`));
      return true;
    });
  }
});

Deno.test("salvageId() recovers the id of a bad request for the error reply", () => {
  assert.equal(salvageId('{"id":4,"verb":5}'), 4);
  assert.equal(salvageId('{"id":"x"}'), null);
  assert.equal(salvageId("garbage"), null);
});

Deno.test("ctl's light reply reader agrees with the control response schema", () => {
  const lines = [
    '{"id":1,"ok":true,"result":{"sessions":[]}}',
    '{"id":null,"ok":false,"error":"Not a JSON control request"}',
    '{"id":2,"ok":true,"result":null}',
  ];
  for (const line of lines) assert.deepEqual(readResponse(line), parseControlResponse(line));
  for (const bad of ['{"id":1,"ok":"yes"}', '{"id":"1","ok":true,"result":1}', "[]", "nope"]) {
    assert.throws(() => readResponse(bad));
    assert.throws(() => parseControlResponse(bad));
  }
});
