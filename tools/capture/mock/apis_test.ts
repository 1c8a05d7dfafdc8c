import assert from "node:assert/strict";
import { anthropic } from "./apis.ts";

Deno.test("a tool result followed by a system message is still the last tool result", () => {
  const body = {
    stream: true,
    tools: [{ name: "Bash", input_schema: { properties: { command: {} } } }],
    messages: [
      { role: "user", content: [{ type: "text", text: "LAB-TOOL: x" }] },
      { role: "assistant", content: [{ type: "tool_use", name: "Bash", id: "t1", input: {} }] },
      { role: "user", content: [{ type: "tool_result", tool_use_id: "t1", content: "ok" }] },
      { role: "system", content: [{ type: "text", text: "# Environment update" }] },
    ],
  };
  const view = anthropic.view(body, "/v1/messages");
  assert.equal(view.lastIsToolResult, true);
  assert.equal(view.lastToolName, "Bash");
  const plain = { ...body, messages: body.messages.slice(0, 1) };
  assert.equal(anthropic.view(plain, "/v1/messages").lastIsToolResult, false);
});
