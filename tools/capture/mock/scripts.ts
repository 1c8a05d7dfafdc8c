/**
 * What the mock model says (pure data + decisions, no runtime).
 *
 * The script is chosen from the LAST user text of each request:
 *   `LAB-TOOL`     ~4 s of slowly streamed text, then a shell tool call
 *                  (`touch lab-file.txt`) the CLI must ask permission for;
 *                  after the tool result a short final answer.
 *   `LAB-QUESTION` ~4.5 s of text ending with a prose question, no tool
 *                  (the false-positive trap: the turn is done, not blocked).
 *   `LAB-LONG`     25 s of slow text (to press Esc mid-turn).
 *   `LAB-ASK`      ~3 s of text, then a call to the CLI's own "ask the user"
 *                  tool (multiple choice).
 *   `LAB-ASK-MULTI` the same tool with several questions (one of them
 *                  multi-select).
 *   `LAB-AGENT`    a subagent (Claude's `Agent`/`Task` tool) whose prompt is
 *                  `LAB-TOOL`: the subagent asks permission for the shell call.
 *   `LAB-BACKGROUND` the same subagent run in the background on `LAB-LONG`.
 *   `LAB-MCP`      a call to the first MCP tool offered (`mcp__…`); when the CLI
 *                  defers MCP tools (Claude Code's ToolSearch), it loads the lab
 *                  server's tool first, then calls it.
 *   anything else  a short reply.
 * Requests without tools (titles, topic detection, quota probes) and known
 * side requests (Qwen's classifier / suggestion / memory prompts) are "aux",
 * answered at once, and never count as a turn.
 */

export type ScriptName =
  | "tool"
  | "final"
  | "final_ask"
  | "ask"
  | "ask_multi"
  | "agent"
  | "background"
  | "mcp"
  | "mcp_call"
  | "question"
  | "long"
  | "short"
  | "aux";

/** A normalized view of one model request, whatever the wire API. */
export interface RequestView {
  readonly stream: boolean;
  readonly tools: readonly ToolDef[];
  readonly lastIsToolResult: boolean;
  readonly lastUserText: string;
  readonly lastToolName: string | undefined;
}

/** A tool the CLI offers: its name and the property names of its parameters. */
export interface ToolDef {
  readonly name: string;
  readonly params: readonly string[];
}

export interface Decision {
  /** `main` requests are the user's turn; `aux` ones are side requests. */
  readonly kind: "main" | "aux";
  readonly script: ScriptName;
}

export interface Plan {
  readonly text: string;
  /** How long the text takes to stream, before the speed factor. */
  readonly totalMs: number;
  /** What the response ends with: nothing, a shell call, an ask-the-user tool, a subagent, an MCP tool. */
  readonly tool: "none" | "shell" | "ask" | "ask_multi" | "agent" | "background" | "mcp";
}

export interface ToolCall {
  readonly name: string;
  readonly args: Record<string, unknown>;
}

export const TEXT_TOOL = "Let me look at this. I will first check the working directory, " +
  "then create the marker file the lab asked for. This needs a shell command, so I am going " +
  "to run it now and you will be asked to approve it before anything touches the disk.";
export const TEXT_FINAL = "Done: lab-file.txt now exists in the working directory.";
export const TEXT_ASK =
  "Before I write the regression test I need one decision from you about the test framework.";
export const TEXT_FINAL_ASK = "Thanks, I will write the regression test with that framework.";
export const TEXT_ASK_MULTI =
  "Before I write the regression test I need a few decisions from you about its shape.";
export const TEXT_AGENT = "I will hand this to a subagent so that it can work on it on its own.";
export const TEXT_MCP = "The lab MCP server has a tool for this; I will call it.";
export const TEXT_MCP_CALL = "Calling the lab tool now.";
export const PROSE_QUESTION = "Would you like me to add a regression test?";
export const TEXT_QUESTION =
  "I read through the parser and the fix is straightforward: the off-by-one was in the loop " +
  "bound. I have explained the change above and nothing else needs to be modified right now." +
  `\n\n${PROSE_QUESTION}`;
export const TEXT_LONG = Array.from(
  { length: 60 },
  (_, i) => `Step ${i + 1}: still thinking about the problem.`,
).join(" ");
export const AUX_TEXT = "Lab session";
export const SHORT_TEXT = "Hello from the mock model.";
export const SHELL_COMMAND = "touch lab-file.txt";

export const ASK_QUESTION = {
  question: "Which test framework should I use for the regression test?",
  header: "Framework",
  options: [
    { label: "pytest (Recommended)", description: "Use pytest fixtures and plain asserts" },
    { label: "unittest", description: "Standard library only" },
  ],
} as const;

/** The second question of LAB-ASK-MULTI: several answers may be chosen. */
export const ASK_CASES = {
  question: "Which cases should the regression test cover?",
  header: "Cases",
  options: [
    { label: "Empty input", description: "A list with no items" },
    { label: "Single item", description: "The loop bound with one item" },
    { label: "Long input", description: "A thousand items" },
  ],
} as const;

/** The subagent's task: it runs the shell call, which needs the user's permission. */
export const AGENT_PROMPT = "LAB-TOOL: please create the marker file lab-file.txt";
/** The background subagent's task: a long stream, so that it outlives the main turn. */
export const BACKGROUND_PROMPT = "LAB-LONG: think about the parser for a while";
/** The lab's MCP tool (tools/capture/scripts/mcp_server.ts, server "lab"), as the CLIs name it. */
export const MCP_TOOL = "mcp__lab__touch_marker";
/** Claude Code loads deferred tools (MCP ones among them) through this tool first. */
export const TOOL_SEARCH = "ToolSearch";

/** Claude Code's subagent tool (`Agent` in 2.1.x, `Task` before). */
export const AGENT_TOOLS = ["Agent", "Task"];

/** Each CLI's "ask the user" tool: Claude, Codex, opencode, Qwen, Gemini. */
export const ASK_TOOLS = [
  "AskUserQuestion",
  "request_user_input",
  "question",
  "ask_user_question",
  "ask_user",
];
const SHELL_TOOLS = [
  "shell_command",
  "exec_command",
  "shell",
  "bash",
  "Bash",
  "run_shell_command",
  "local_shell",
];
/** Qwen Code's side requests carry tools but are not the user's turn. */
const SIDE_REQUEST = /^\s*(\[SUGGESTION MODE|## Pending tool call to classify|Managed memory has)/;

export function decide(view: RequestView): Decision {
  if (view.tools.length === 0) return { kind: "aux", script: "aux" };
  if (!view.lastIsToolResult && SIDE_REQUEST.test(view.lastUserText)) {
    return { kind: "aux", script: "aux" };
  }
  if (view.lastIsToolResult) {
    if (view.lastToolName === TOOL_SEARCH) return { kind: "main", script: "mcp_call" };
    const asked = view.lastToolName !== undefined && ASK_TOOLS.includes(view.lastToolName);
    return { kind: "main", script: asked ? "final_ask" : "final" };
  }
  const t = view.lastUserText;
  if (t.includes("LAB-ASK-MULTI")) return { kind: "main", script: "ask_multi" };
  if (t.includes("LAB-ASK")) return { kind: "main", script: "ask" };
  if (t.includes("LAB-AGENT")) return { kind: "main", script: "agent" };
  if (t.includes("LAB-BACKGROUND")) return { kind: "main", script: "background" };
  if (t.includes("LAB-MCP")) return { kind: "main", script: "mcp" };
  if (t.includes("LAB-TOOL")) return { kind: "main", script: "tool" };
  if (t.includes("LAB-QUESTION")) return { kind: "main", script: "question" };
  if (t.includes("LAB-LONG")) return { kind: "main", script: "long" };
  return { kind: "main", script: "short" };
}

export function plan(script: ScriptName): Plan {
  switch (script) {
    case "tool":
      return { text: TEXT_TOOL, totalMs: 4000, tool: "shell" };
    case "final":
      return { text: TEXT_FINAL, totalMs: 1500, tool: "none" };
    case "final_ask":
      return { text: TEXT_FINAL_ASK, totalMs: 1500, tool: "none" };
    case "ask":
      return { text: TEXT_ASK, totalMs: 3000, tool: "ask" };
    case "ask_multi":
      return { text: TEXT_ASK_MULTI, totalMs: 3000, tool: "ask_multi" };
    case "agent":
      return { text: TEXT_AGENT, totalMs: 2000, tool: "agent" };
    case "background":
      return { text: TEXT_AGENT, totalMs: 2000, tool: "background" };
    case "mcp":
      return { text: TEXT_MCP, totalMs: 2000, tool: "mcp" };
    case "mcp_call":
      return { text: TEXT_MCP_CALL, totalMs: 1000, tool: "mcp" };
    case "question":
      return { text: TEXT_QUESTION, totalMs: 4500, tool: "none" };
    case "long":
      return { text: TEXT_LONG, totalMs: 25000, tool: "none" };
    case "aux":
      return { text: AUX_TEXT, totalMs: 0, tool: "none" };
    case "short":
      return { text: SHORT_TEXT, totalMs: 800, tool: "none" };
  }
}

/** Splits text into pieces of `n` words (each keeps its trailing space). */
export function chunksOf(text: string, n = 2): string[] {
  const words = text.split(/(?<= )/);
  const out: string[] = [];
  for (let i = 0; i < words.length; i += n) out.push(words.slice(i, i + n).join(""));
  return out;
}

/**
 * The tool call a plan ends with, fitted to the tools the CLI offered, or
 * null when the plan has none or the CLI offered no tool at all.
 */
export function toolCallFor(p: Plan, tools: readonly ToolDef[]): ToolCall | null {
  if (p.tool === "none" || tools.length === 0) return null;
  const names = tools.map((t) => t.name);
  if (p.tool === "ask" || p.tool === "ask_multi") {
    const ask = ASK_TOOLS.find((n) => names.includes(n));
    if (ask) return { name: ask, args: askArgs(ask, p.tool === "ask_multi") };
  }
  if (p.tool === "agent" || p.tool === "background") {
    const agent = AGENT_TOOLS.find((n) => names.includes(n));
    if (agent) return { name: agent, args: agentArgs(p.tool === "background") };
  }
  if (p.tool === "mcp") {
    const mcp = names.find((n) => n.startsWith("mcp__"));
    if (mcp) return { name: mcp, args: { name: "lab-file.txt" } };
    if (names.includes(TOOL_SEARCH)) {
      return { name: TOOL_SEARCH, args: { query: `select:${MCP_TOOL}` } };
    }
  }
  const name = SHELL_TOOLS.find((n) => names.includes(n)) ?? names[0] ?? "shell";
  const args = shellArgs(name);
  const def = tools.find((t) => t.name === name);
  // Codex (approval_policy=on-request): ask for escalation, so the CLI must ask the user.
  if (def?.params.includes("sandbox_permissions")) {
    args.sandbox_permissions = "require_escalated";
    args.justification = "Create lab-file.txt in the project (lab scenario)";
  }
  return { name, args };
}

/** The ask tool's arguments: the framework question, and with `multi` the cases question too. */
export function askArgs(name: string, multi = false): Record<string, unknown> {
  const asked: [typeof ASK_QUESTION | typeof ASK_CASES, boolean][] = multi
    ? [[ASK_QUESTION, false], [ASK_CASES, true]]
    : [[ASK_QUESTION, false]];
  const questions = asked.map(([q, several]) => {
    if (name === "AskUserQuestion" || name === "ask_user_question") {
      return { ...q, multiSelect: several };
    }
    if (name === "request_user_input") return { id: q.header.toLowerCase(), ...q };
    if (name === "ask_user") return { ...q, type: "choice", multiSelect: several };
    return { ...q, multiple: several }; // opencode `question`
  });
  return { questions };
}

/** Claude Code's subagent call: a general-purpose agent, in the background or not. */
export function agentArgs(background: boolean): Record<string, unknown> {
  return {
    description: background ? "Think about the parser" : "Create the marker file",
    prompt: background ? BACKGROUND_PROMPT : AGENT_PROMPT,
    subagent_type: "general-purpose",
    ...(background ? { run_in_background: true } : {}),
  };
}

export function shellArgs(name: string): Record<string, unknown> {
  const description = "Create the lab marker file";
  switch (name) {
    case "shell":
      return { command: ["bash", "-lc", SHELL_COMMAND] };
    case "exec_command":
      return { cmd: SHELL_COMMAND };
    case "Bash":
    case "bash":
      return { command: SHELL_COMMAND, description };
    case "run_shell_command":
      return { command: SHELL_COMMAND, description, is_background: false };
    default:
      return { command: SHELL_COMMAND };
  }
}

/** Text of a message `content` in any of the APIs' shapes. */
export function textOf(content: unknown): string {
  if (typeof content === "string") return content;
  if (!Array.isArray(content)) return "";
  return content.map((c: unknown) => {
    if (typeof c === "string") return c;
    if (c === null || typeof c !== "object") return "";
    const o = c as Record<string, unknown>;
    for (const key of ["text", "input_text", "content"]) {
      if (typeof o[key] === "string") return o[key];
    }
    return "";
  }).join("\n");
}
