import assert from "node:assert/strict";
import {
  AGENT_PROMPT,
  BACKGROUND_PROMPT,
  chunksOf,
  decide,
  MCP_TOOL,
  plan,
  type RequestView,
  TEXT_LONG,
  toolCallFor,
} from "./scripts.ts";

const view = (over: Partial<RequestView>): RequestView => ({
  stream: true,
  tools: [{ name: "bash", params: [] }],
  lastIsToolResult: false,
  lastUserText: "",
  lastToolName: undefined,
  ...over,
});

Deno.test("decide() picks the script from the last user text", () => {
  const cases: [string, string][] = [
    ["LAB-TOOL: x", "tool"],
    ["LAB-QUESTION: x", "question"],
    ["LAB-LONG: x", "long"],
    ["LAB-ASK: x", "ask"],
    ["LAB-ASK-MULTI: x", "ask_multi"],
    ["LAB-AGENT: x", "agent"],
    ["LAB-BACKGROUND: x", "background"],
    ["LAB-MCP: x", "mcp"],
    ["hello", "short"],
  ];
  for (const [text, script] of cases) {
    assert.deepEqual(decide(view({ lastUserText: text })), { kind: "main", script });
  }
});

Deno.test("decide() treats tool-less and Qwen side requests as aux", () => {
  assert.equal(decide(view({ tools: [], lastUserText: "LAB-TOOL" })).kind, "aux");
  assert.equal(decide(view({ lastUserText: "[SUGGESTION MODE: next]" })).kind, "aux");
  assert.equal(decide(view({ lastUserText: "## Pending tool call to classify" })).kind, "aux");
});

Deno.test("decide() answers a tool result with the final text of the right script", () => {
  assert.equal(decide(view({ lastIsToolResult: true, lastToolName: "bash" })).script, "final");
  assert.equal(
    decide(view({ lastIsToolResult: true, lastToolName: "AskUserQuestion" })).script,
    "final_ask",
  );
});

Deno.test("toolCallFor() falls back to the shell tool when no ask tool is offered", () => {
  const call = toolCallFor(plan("ask"), [{ name: "run_shell_command", params: [] }]);
  assert.equal(call?.name, "run_shell_command");
  assert.equal(toolCallFor(plan("question"), [{ name: "bash", params: [] }]), null);
});

Deno.test("chunksOf() keeps every character of the text", () => {
  assert.equal(chunksOf(TEXT_LONG).join(""), TEXT_LONG);
  assert.ok(chunksOf(TEXT_LONG).length > 100);
});

Deno.test("toolCallFor() asks through Gemini's ask_user with a choice question", () => {
  const call = toolCallFor(plan("ask"), [
    { name: "run_shell_command", params: [] },
    { name: "ask_user", params: ["questions"] },
  ]);
  assert.equal(call?.name, "ask_user");
  const q = (call?.args.questions as { type: string; options: unknown[] }[])[0];
  assert.equal(q?.type, "choice");
  assert.equal(q?.options.length, 2);
});

Deno.test("toolCallFor() asks several questions, the second one multi-select", () => {
  const claude = toolCallFor(plan("ask_multi"), [{ name: "AskUserQuestion", params: [] }]);
  const qs = claude?.args.questions as { header: string; multiSelect: boolean }[];
  assert.deepEqual(qs.map((q) => [q.header, q.multiSelect]), [["Framework", false], [
    "Cases",
    true,
  ]]);
  const opencode = toolCallFor(plan("ask_multi"), [{ name: "question", params: [] }]);
  const oq = opencode?.args.questions as { multiple: boolean }[];
  assert.deepEqual(oq.map((q) => q.multiple), [false, true]);
});

Deno.test("toolCallFor() hands the shell call to a subagent, or a long task to one", () => {
  const tools = [{ name: "Bash", params: [] }, { name: "Agent", params: ["prompt"] }];
  assert.equal(toolCallFor(plan("agent"), tools)?.args.prompt, AGENT_PROMPT);
  assert.equal(toolCallFor(plan("background"), tools)?.args.prompt, BACKGROUND_PROMPT);
  assert.equal(decide(view({ lastUserText: AGENT_PROMPT })).script, "tool");
});

Deno.test("toolCallFor() calls the MCP tool, loading it through ToolSearch when deferred", () => {
  const deferred = [{ name: "Bash", params: [] }, { name: "ToolSearch", params: ["query"] }];
  assert.deepEqual(toolCallFor(plan("mcp"), deferred), {
    name: "ToolSearch",
    args: { query: `select:${MCP_TOOL}` },
  });
  const loaded = [...deferred, { name: MCP_TOOL, params: ["name"] }];
  assert.equal(toolCallFor(plan("mcp"), loaded)?.name, MCP_TOOL);
  const after = view({ lastIsToolResult: true, lastToolName: "ToolSearch" });
  assert.equal(decide(after).script, "mcp_call");
});
