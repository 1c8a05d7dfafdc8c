import assert from "node:assert/strict";
import { answer } from "./mcp_server.ts";

Deno.test("mcp server: initialize, list its one tool, call it; notifications get no reply", () => {
  const init = answer({ id: 1, method: "initialize", params: { protocolVersion: "2025-06-18" } });
  assert.equal((init?.result as { protocolVersion: string }).protocolVersion, "2025-06-18");
  const list = answer({ id: 2, method: "tools/list" });
  assert.deepEqual((list?.result as { tools: { name: string }[] }).tools.map((t) => t.name), [
    "touch_marker",
  ]);
  const call = answer({ id: 3, method: "tools/call", params: { arguments: { name: "x" } } });
  assert.deepEqual(call?.result, { content: [{ type: "text", text: "created x" }] });
  assert.equal(answer({ method: "notifications/initialized" }), null);
  assert.equal((answer({ id: 4, method: "nope" })?.error as { code: number }).code, -32601);
});

Deno.test("mcp server: answers line by line over stdio", async () => {
  const child = new Deno.Command(Deno.execPath(), {
    args: ["run", "--quiet", "--no-config", new URL("./mcp_server.ts", import.meta.url).pathname],
    stdin: "piped",
    stdout: "piped",
    stderr: "null",
  }).spawn();
  const writer = child.stdin.getWriter();
  await writer.write(new TextEncoder().encode(
    '{"jsonrpc":"2.0","id":1,"method":"tools/list"}\n{"jsonrpc":"2.0","id":2,"method":"ping"}\n',
  ));
  await writer.close();
  const out = new TextDecoder().decode((await child.output()).stdout).trim().split("\n");
  assert.deepEqual(out.map((l) => JSON.parse(l).id), [1, 2]);
});
