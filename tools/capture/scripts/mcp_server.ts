/**
 * A tiny MCP server on stdio for the capture lab (the `mcp` scenario): one
 * tool, `touch_marker {name}`, which answers that it created the file and
 * touches nothing. Newline-delimited JSON-RPC 2.0 (MCP's stdio transport);
 * no imports, so it runs as `deno run --no-config mcp_server.ts`.
 */

const TOOL = {
  name: "touch_marker",
  description: "Create an empty marker file in the project (lab tool).",
  inputSchema: {
    type: "object",
    properties: { name: { type: "string", description: "The file name" } },
    required: ["name"],
  },
};

type Message = { id?: number | string; method?: string; params?: Record<string, unknown> };

/** The reply to one request, or null for a notification. */
export function answer(message: Message): Record<string, unknown> | null {
  if (message.id === undefined) return null;
  const ok = (result: unknown) => ({ jsonrpc: "2.0", id: message.id, result });
  switch (message.method) {
    case "initialize":
      return ok({
        protocolVersion: String(message.params?.protocolVersion ?? "2025-06-18"),
        capabilities: { tools: {} },
        serverInfo: { name: "lab", version: "1.0.0" },
      });
    case "tools/list":
      return ok({ tools: [TOOL] });
    case "tools/call": {
      const args = (message.params?.arguments ?? {}) as { name?: unknown };
      return ok({ content: [{ type: "text", text: `created ${String(args.name ?? "?")}` }] });
    }
    case "ping":
      return ok({});
    default:
      return {
        jsonrpc: "2.0",
        id: message.id,
        error: { code: -32601, message: `Method not found: ${message.method}` },
      };
  }
}

async function serve(): Promise<void> {
  const encoder = new TextEncoder();
  const decoder = new TextDecoder();
  let buffer = "";
  for await (const chunk of Deno.stdin.readable) {
    buffer += decoder.decode(chunk, { stream: true });
    let nl: number;
    while ((nl = buffer.indexOf("\n")) >= 0) {
      const line = buffer.slice(0, nl).trim();
      buffer = buffer.slice(nl + 1);
      if (line === "") continue;
      let reply: Record<string, unknown> | null;
      try {
        reply = answer(JSON.parse(line));
      } catch (error) {
        reply = { jsonrpc: "2.0", id: null, error: { code: -32700, message: String(error) } };
      }
      if (reply) await Deno.stdout.write(encoder.encode(JSON.stringify(reply) + "\n"));
    }
  }
}

if (import.meta.main) await serve();
