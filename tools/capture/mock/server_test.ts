import assert from "node:assert/strict";
import { type MockEvent, startMockServer } from "./server.ts";
import { PROSE_QUESTION, TEXT_TOOL } from "./scripts.ts";

interface Frame {
  readonly event: string | null;
  readonly data: string;
  /** The blank-line separator that ended the frame. */
  readonly eol: string;
}

/** Splits an SSE body into frames, keeping which separator each used. */
function parseSse(body: string): Frame[] {
  const frames: Frame[] = [];
  const re = /([\s\S]*?)(\r\n\r\n|\n\n)/g;
  let m: RegExpExecArray | null;
  while ((m = re.exec(body)) !== null) {
    const lines = (m[1] ?? "").split(/\r?\n/);
    const event = lines.find((l) => l.startsWith("event: "))?.slice(7) ?? null;
    const data = lines.filter((l) => l.startsWith("data: ")).map((l) => l.slice(6)).join("");
    frames.push({ event, data, eol: m[2] ?? "" });
  }
  return frames;
}

const json = (f: Frame | undefined) => JSON.parse(f?.data ?? "null");

async function post(url: string, body: unknown): Promise<{ status: number; text: string }> {
  const res = await fetch(url, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify(body),
  });
  return { status: res.status, text: await res.text() };
}

const BASH = { name: "Bash", input_schema: { properties: { command: {}, description: {} } } };
const ASK = { name: "AskUserQuestion", input_schema: { properties: { questions: {} } } };

Deno.test("the mock server listens on 127.0.0.1 only, on a random port", async () => {
  await using mock = await startMockServer();
  assert.match(mock.url, /^http:\/\/127\.0\.0\.1:\d+$/);
  assert(mock.port > 0);
  const res = await fetch(`${mock.url}/v1/models`);
  assert.deepEqual((await res.json()).data[0].id, "mock-model");
});

Deno.test("anthropic: LAB-TOOL streams text, then a Bash tool_use; the result gets a final answer", async () => {
  const events: MockEvent[] = [];
  await using mock = await startMockServer({ speed: 0.01, onEvent: (e) => events.push(e) });
  const url = `${mock.url}/v1/messages?beta=true`;
  const first = await post(url, {
    model: "claude-x",
    stream: true,
    tools: [BASH],
    messages: [{ role: "user", content: [{ type: "text", text: "LAB-TOOL: make the file" }] }],
  });
  const frames = parseSse(first.text);
  const names = frames.map((f) => f.event);
  assert.deepEqual(names[0], "message_start");
  assert.deepEqual(names.at(-1), "message_stop");
  assert(frames.every((f) => f.event === json(f).type), "event name matches data.type");
  const text = frames.filter((f) => json(f).delta?.type === "text_delta")
    .map((f) => json(f).delta.text).join("");
  assert.deepEqual(text, TEXT_TOOL);
  const toolStart = frames.find((f) => json(f).content_block?.type === "tool_use");
  assert.deepEqual(json(toolStart).content_block.name, "Bash");
  const args = frames.find((f) => json(f).delta?.type === "input_json_delta");
  assert.deepEqual(JSON.parse(json(args).delta.partial_json).command, "touch lab-file.txt");
  assert.deepEqual(
    json(frames.find((f) => f.event === "message_delta")).delta.stop_reason,
    "tool_use",
  );

  const second = await post(url, {
    model: "claude-x",
    stream: true,
    tools: [BASH],
    messages: [
      { role: "user", content: "LAB-TOOL: make the file" },
      { role: "assistant", content: [{ type: "tool_use", id: "t1", name: "Bash", input: {} }] },
      { role: "user", content: [{ type: "tool_result", tool_use_id: "t1", content: "" }] },
    ],
  });
  const stop = json(parseSse(second.text).find((f) => f.event === "message_delta"));
  assert.deepEqual(stop.delta.stop_reason, "end_turn");
  assert.deepEqual(
    events.filter((e) => e.type !== "request").map((e) => `${e.type}:${e.script}`),
    ["stream_start:tool", "tool_call_sent:tool", "stream_start:final", "turn_end:final"],
  );
});

Deno.test("anthropic: LAB-ASK calls AskUserQuestion with two options", async () => {
  await using mock = await startMockServer({ speed: 0.01 });
  const { text } = await post(`${mock.url}/v1/messages`, {
    stream: true,
    tools: [BASH, ASK],
    messages: [{ role: "user", content: "LAB-ASK: add a regression test" }],
  });
  const frames = parseSse(text);
  const start = frames.find((f) => json(f).content_block?.type === "tool_use");
  assert.deepEqual(json(start).content_block.name, "AskUserQuestion");
  const args = JSON.parse(
    json(frames.find((f) => json(f).delta?.type === "input_json_delta")).delta.partial_json,
  );
  assert.deepEqual(args.questions[0].options.length, 2);
  assert.deepEqual(args.questions[0].multiSelect, false);
});

Deno.test("requests without tools are aux: answered at once, no turn events", async () => {
  const events: MockEvent[] = [];
  await using mock = await startMockServer({ onEvent: (e) => events.push(e) });
  const res = await post(`${mock.url}/v1/messages`, {
    stream: false,
    messages: [{ role: "user", content: "Write a title for LAB-TOOL" }],
  });
  assert.deepEqual(JSON.parse(res.text).content[0].text, "Lab session");
  assert.deepEqual(events.map((e) => `${e.type}:${e.kind}`), ["request:aux"]);
});

Deno.test("responses: LAB-TOOL asks Codex for escalation through the shell tool", async () => {
  const events: MockEvent[] = [];
  await using mock = await startMockServer({ speed: 0.01, onEvent: (e) => events.push(e) });
  const shell = {
    type: "function",
    name: "shell_command",
    parameters: { properties: { command: {}, sandbox_permissions: {}, justification: {} } },
  };
  const { text } = await post(`${mock.url}/v1/responses`, {
    model: "mock-model",
    stream: true,
    tools: [shell],
    input: [
      {
        type: "message",
        role: "user",
        content: [{ type: "input_text", text: "<environment_context>" }],
      },
      { type: "message", role: "user", content: [{ type: "input_text", text: "LAB-TOOL: go" }] },
    ],
  });
  const frames = parseSse(text);
  assert.deepEqual(frames[0]?.event, "response.created");
  assert.deepEqual(frames.at(-1)?.event, "response.completed");
  const deltas = frames.filter((f) => f.event === "response.output_text.delta");
  assert.deepEqual(deltas.map((f) => json(f).delta).join(""), TEXT_TOOL);
  const fc = json(frames.findLast((f) => f.event === "response.output_item.done")).item;
  assert.deepEqual(fc.type, "function_call");
  assert.deepEqual(fc.name, "shell_command");
  const args = JSON.parse(fc.arguments);
  assert.deepEqual(args.command, "touch lab-file.txt");
  assert.deepEqual(args.sandbox_permissions, "require_escalated");
  assert.deepEqual(events.at(-1)?.type, "tool_call_sent");

  // The tool output ends the turn.
  const after = await post(`${mock.url}/v1/responses`, {
    stream: true,
    tools: [shell],
    input: [
      { type: "message", role: "user", content: "LAB-TOOL: go" },
      { type: "function_call", name: "shell_command", call_id: "c1", arguments: "{}" },
      { type: "function_call_output", call_id: "c1", output: "" },
    ],
  });
  assert(after.text.includes("lab-file.txt now exists"));
  assert.deepEqual(events.at(-1)?.type, "turn_end");
});

Deno.test("chat completions: LAB-QUESTION ends with a prose question and [DONE], no tool", async () => {
  const events: MockEvent[] = [];
  await using mock = await startMockServer({ speed: 0.01, onEvent: (e) => events.push(e) });
  const { text } = await post(`${mock.url}/v1/chat/completions`, {
    model: "mock-model",
    stream: true,
    tools: [{ type: "function", function: { name: "bash", parameters: { properties: {} } } }],
    messages: [{ role: "user", content: "LAB-QUESTION: why does the parser test fail?" }],
  });
  const frames = parseSse(text);
  assert(frames.every((f) => f.event === null && f.eol === "\n\n"));
  assert.deepEqual(frames.at(-1)?.data, "[DONE]");
  const chunks = frames.slice(0, -1).map(json);
  const said = chunks.map((c) => c.choices[0]?.delta?.content ?? "").join("");
  assert(said.endsWith(PROSE_QUESTION), said);
  assert.deepEqual(
    chunks.find((c) => c.choices[0]?.finish_reason)?.choices[0].finish_reason,
    "stop",
  );
  assert(!text.includes("tool_calls"));
  assert.deepEqual(events.at(-1)?.type, "turn_end");
});

Deno.test("chat completions: LAB-ASK calls opencode's question tool", async () => {
  await using mock = await startMockServer({ speed: 0.01 });
  const tool = (name: string) => ({ type: "function", function: { name, parameters: {} } });
  const { text } = await post(`${mock.url}/v1/chat/completions`, {
    stream: true,
    tools: [tool("bash"), tool("question")],
    messages: [{ role: "user", content: "LAB-ASK: add a test" }],
  });
  const call = parseSse(text).slice(0, -1).map(json)
    .find((c) => c.choices[0]?.delta?.tool_calls)?.choices[0].delta.tool_calls[0];
  assert.deepEqual(call.function.name, "question");
  assert.deepEqual(JSON.parse(call.function.arguments).questions[0].multiple, false);
});

Deno.test("gemini: streamGenerateContent frames with CRLF and ends with a functionCall", async () => {
  await using mock = await startMockServer({ speed: 0.01 });
  const base = `${mock.url}/v1beta/models/gemini-2.5-flash`;
  const { text } = await post(`${base}:streamGenerateContent?alt=sse`, {
    contents: [{ role: "user", parts: [{ text: "LAB-TOOL: go" }] }],
    tools: [{
      functionDeclarations: [{ name: "run_shell_command", parameters: { properties: {} } }],
    }],
  });
  const frames = parseSse(text);
  assert(frames.length > 3 && frames.every((f) => f.eol === "\r\n\r\n"));
  const lastCandidate = json(frames.at(-1)).candidates[0];
  assert.deepEqual(lastCandidate.finishReason, "STOP");
  assert.deepEqual(lastCandidate.content.parts[0].functionCall.name, "run_shell_command");
  // Non-streamed side calls get JSON text.
  const side = await post(`${base}:generateContent`, { contents: [] });
  const part = JSON.parse(side.text).candidates[0].content.parts[0].text;
  assert.deepEqual(JSON.parse(part).next_speaker, "user");
});

Deno.test("an unknown path is a 404 and an unhandled event", async () => {
  const events: MockEvent[] = [];
  await using mock = await startMockServer({ onEvent: (e) => events.push(e) });
  const res = await post(`${mock.url}/v1/nothing`, {});
  assert.deepEqual(res.status, 404);
  assert.deepEqual(events.map((e) => e.type), ["unhandled"]);
});

Deno.test("LAB-LONG streams until the client hangs up (interrupt)", async () => {
  const aborted = Promise.withResolvers<MockEvent>();
  await using mock = await startMockServer({
    onEvent: (e) => e.type === "client_aborted" && aborted.resolve(e),
  });
  const res = await fetch(`${mock.url}/v1/chat/completions`, {
    method: "POST",
    body: JSON.stringify({
      stream: true,
      tools: [{ type: "function", function: { name: "bash" } }],
      messages: [{ role: "user", content: "LAB-LONG: think" }],
    }),
  });
  const reader = res.body!.getReader();
  const first = await reader.read();
  assert(!first.done);
  await reader.cancel();
  const e = await aborted.promise;
  assert.deepEqual(e.script, "long");
});

Deno.test("closing the server ends a stream that is still running", async () => {
  const mock = await startMockServer();
  const res = await fetch(`${mock.url}/v1/messages`, {
    method: "POST",
    body: JSON.stringify({
      stream: true,
      tools: [BASH],
      messages: [{ role: "user", content: "LAB-LONG: think" }],
    }),
  });
  const reader = res.body!.getReader();
  assert(!(await reader.read()).done);
  const closed = mock.close();
  try {
    while (!(await reader.read()).done) { /* drain what was sent before the close */ }
  } catch {
    // a reset connection also ends it
  }
  await closed;
});

Deno.test("failures: every API answers a rate limit with 429, Retry-After and its own error shape", async () => {
  const events: MockEvent[] = [];
  await using mock = await startMockServer({ speed: 0.01, onEvent: (e) => events.push(e) });
  const text = "LAB-FAIL-RATE: make the file";
  const anthropic = await fetch(`${mock.url}/v1/messages`, {
    method: "POST",
    body: JSON.stringify({
      stream: true,
      tools: [BASH],
      messages: [{ role: "user", content: text }],
    }),
  });
  assert.equal(anthropic.status, 429);
  assert.equal(anthropic.headers.get("retry-after"), "2");
  assert.equal((await anthropic.json()).error.type, "rate_limit_error");
  const chat = await post(`${mock.url}/v1/chat/completions`, {
    stream: true,
    tools: [{ type: "function", function: { name: "bash", parameters: {} } }],
    messages: [{ role: "user", content: text }],
  });
  assert.equal(chat.status, 429);
  assert.equal(JSON.parse(chat.text).error.code, "rate_limit_exceeded");
  assert.deepEqual(events.filter((e) => e.type === "failed").map((e) => e.note), [
    "rate: HTTP 429",
    "rate: HTTP 429",
  ]);
});

Deno.test("failures: a long rate-limit message, longer than a row, asks to retry in 1 s", async () => {
  await using mock = await startMockServer({ speed: 0.01 });
  const chat = await fetch(`${mock.url}/v1/chat/completions`, {
    method: "POST",
    body: JSON.stringify({
      stream: true,
      tools: [{ type: "function", function: { name: "bash", parameters: {} } }],
      messages: [{ role: "user", content: "LAB-FAIL-RATE-LONG: make the file" }],
    }),
  });
  assert.equal(chat.status, 429);
  assert.equal(chat.headers.get("retry-after"), "1");
  const message: string = (await chat.json()).error.message;
  assert.ok(message.length > 160, message);
});

Deno.test("failures: overload, bad key and quota have each API's status", async () => {
  await using mock = await startMockServer({ speed: 0.01 });
  const ask = async (path: string, body: Record<string, unknown>) =>
    (await post(`${mock.url}${path}`, { ...body, stream: true })).status;
  const claude = (text: string) =>
    ask("/v1/messages", { tools: [BASH], messages: [{ role: "user", content: text }] });
  const codex = (text: string) =>
    ask("/v1/responses", {
      tools: [{ type: "function", name: "shell" }],
      input: [{ type: "message", role: "user", content: [{ type: "input_text", text }] }],
    });
  assert.deepEqual(
    [
      await claude("LAB-FAIL-OVERLOAD"),
      await claude("LAB-FAIL-AUTH"),
      await claude("LAB-FAIL-QUOTA"),
    ],
    [529, 401, 400],
  );
  assert.deepEqual(
    [await codex("LAB-FAIL-OVERLOAD"), await codex("LAB-FAIL-AUTH"), await codex("LAB-FAIL-QUOTA")],
    [503, 401, 429],
  );
});

Deno.test("failures: a flaky turn fails twice, then answers", async () => {
  await using mock = await startMockServer({ speed: 0.01 });
  const body = {
    stream: true,
    tools: [BASH],
    messages: [{ role: "user", content: "LAB-FAIL-FLAKY: hi" }],
  };
  const statuses = [];
  for (let i = 0; i < 3; i++) statuses.push((await post(`${mock.url}/v1/messages`, body)).status);
  assert.deepEqual(statuses, [529, 529, 200]);
  // A side request (no tools) is not part of the count and never fails.
  const aux = await post(`${mock.url}/v1/messages`, { ...body, tools: [], stream: false });
  assert.equal(aux.status, 200);
});

Deno.test("failures: a usage limit's retries get the first request's reset (Anthropic headers)", async () => {
  await using mock = await startMockServer({ speed: 0.01 });
  const body = {
    stream: true,
    tools: [BASH],
    messages: [{ role: "user", content: "LAB-FAIL-LIMIT: hi" }],
  };
  const resets = [];
  for (let i = 0; i < 2; i++) {
    const res = await fetch(`${mock.url}/v1/messages`, {
      method: "POST",
      body: JSON.stringify(body),
    });
    assert.equal(res.status, 429);
    assert.equal(res.headers.get("anthropic-ratelimit-unified-status"), "rejected");
    assert.equal(res.headers.get("anthropic-ratelimit-unified-representative-claim"), "five_hour");
    resets.push(Number(res.headers.get("anthropic-ratelimit-unified-reset")));
    await res.body?.cancel();
  }
  assert.equal(resets[1], resets[0]);
  const ahead = resets[0]! * 1000 - Date.now();
  assert.ok(ahead > 60_000 && ahead <= 90_000, `${ahead} ms ahead`);
});

Deno.test("failures: a cut stream sends part of the answer, then the connection drops", async () => {
  await using mock = await startMockServer({ speed: 0.01 });
  for (const stream of [true, false]) {
    const res = await fetch(`${mock.url}/v1/messages`, {
      method: "POST",
      body: JSON.stringify({
        stream,
        tools: [BASH],
        messages: [{ role: "user", content: "LAB-FAIL-CUT: hi" }],
      }),
    });
    assert.equal(res.status, 200);
    await assert.rejects(res.text(), `the ${stream ? "stream" : "JSON body"} is cut`);
  }
});
