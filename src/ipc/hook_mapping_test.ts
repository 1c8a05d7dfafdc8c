import assert from "node:assert/strict";
import { parseHookArgs } from "./hook_client.ts";
import { type HookEvent, HookInterpreter, interpretRun } from "./hook_mapping.ts";
import { CLAUDE_HOOKS, CODEX_NOTIFY_ARGS } from "./integrations.ts";

const FIXTURES = new URL("../../fixtures/hooks/", import.meta.url);

function lines(name: string): Record<string, unknown>[] {
  return Deno.readTextFileSync(new URL(name, FIXTURES)).trim().split("\n").map((l) =>
    JSON.parse(l)
  );
}

/** What `lazyshell hook <args>` with this payload on stdin / argv ends up applying. */
function apply(
  interpreter: HookInterpreter,
  args: readonly string[],
  payload: unknown,
): HookEvent | null {
  assert.ok(parseHookArgs(args), `bad args ${args}`);
  return interpretRun(interpreter, args, payload);
}

/** Replays a Claude capture through the hooks `init --agents` prints. */
function replayClaude(name: string): [string | null, string, string | null][] {
  const interpreter = new HookInterpreter();
  const out: [string | null, string, string | null][] = [];
  for (const line of lines(name)) {
    const hook = CLAUDE_HOOKS.find((h) => h.event === line.event);
    if (!hook) continue;
    const event = apply(interpreter, hook.args, line.payload);
    if (event) out.push([event.event, event.state, event.kind]);
  }
  return out;
}

Deno.test("a captured Claude permission turn: blocked at once, working after approval, done at Stop", () => {
  assert.deepEqual(replayClaude("claude-tool.hooks.jsonl"), [
    ["UserPromptSubmit", "working", null],
    ["PermissionRequest", "blocked", "permission"],
    ["Notification", "blocked", "permission"],
    ["PostToolUse", "working", null],
    ["Stop", "done", null],
  ]);
});

Deno.test("a captured Claude interrupt leaves only working (no Stop on Esc)", () => {
  assert.deepEqual(replayClaude("claude-interrupt.hooks.jsonl"), [
    ["UserPromptSubmit", "working", null],
  ]);
});

Deno.test("Stop carries the last assistant message as notification text", () => {
  const interpreter = new HookInterpreter();
  const stop = lines("claude-tool.hooks.jsonl").find((l) => l.event === "Stop")!;
  const event = apply(interpreter, ["done"], stop.payload);
  assert.equal(event?.state, "done");
  assert.ok(event?.msg && event.msg.length > 0 && !event.msg.includes("\n"));
});

Deno.test("a captured failed Claude turn: StopFailure is error with why, once Claude gave up", () => {
  const failures: [string, string, string | null][] = [
    ["claude-fail-rate", "error", "rate_limit"],
    ["claude-fail-overload-osc7501", "error", "overloaded"],
    ["claude-fail-quota-osc7501", "error", "quota"],
    ["claude-fail-cut-osc7501", "error", "connection"],
    // The key is the user's to fix: Claude declares this one blocked (auth) over OSC 7501.
    ["claude-fail-auth-osc7501", "blocked", "auth"],
  ];
  for (const [name, state, kind] of failures) {
    assert.deepEqual(replayClaude(`${name}.hooks.jsonl`), [
      ["UserPromptSubmit", "working", null],
      ["StopFailure", state, kind],
    ], name);
  }
  const stop = lines("claude-fail-rate.hooks.jsonl").find((l) => l.event === "StopFailure")!;
  assert.equal(
    apply(new HookInterpreter(), ["error"], stop.payload)?.msg,
    "API Error: Request rejected (429) · This request would exceed the rate limit for your " +
      "organization of 50 requests per minute.",
  );
});

Deno.test("an error hook keeps only an error kind; a blocked one only a blocked kind", () => {
  const apply1 = (args: string[]) => apply(new HookInterpreter(), args, {});
  assert.equal(apply1(["error", "--kind", "quota"])?.kind, "quota");
  assert.equal(apply1(["error", "--kind", "permission"])?.kind, null);
  assert.equal(apply1(["blocked", "--kind", "quota"])?.kind, null);
  assert.equal(apply1(["error", "--kind", "auth"])?.state, "error", "only StopFailure moves auth");
});

Deno.test("AskUserQuestion is a question, not a permission", () => {
  const event = apply(new HookInterpreter(), ["blocked", "--kind", "permission"], {
    hook_event_name: "PermissionRequest",
    tool_name: "AskUserQuestion",
  });
  assert.deepEqual([event?.state, event?.kind], ["blocked", "question"]);
});

Deno.test("a Notification that is not a permission request maps to idle (H3)", () => {
  const event = apply(new HookInterpreter(), ["blocked"], {
    hook_event_name: "Notification",
    notification_type: "idle_prompt",
    message: "Claude is waiting for your input",
  });
  assert.deepEqual([event?.state, event?.kind, event?.msg], [
    "idle",
    null,
    "Claude is waiting for your input",
  ]);
});

Deno.test("a hook without metadata applies the state it names", () => {
  const event = apply(new HookInterpreter(), ["blocked", "--kind", "auth"], "not json at all");
  assert.deepEqual([event?.state, event?.kind, event?.event], ["blocked", "auth", "hook"]);
  assert.equal(apply(new HookInterpreter(), ["working", "--kind", "auth"], {})?.kind, null);
});

function replayCodex(interpreter: HookInterpreter, name: string): (string | null)[] {
  return lines(name).map((line) => {
    const argv = line.argv as string[];
    const event = apply(interpreter, [...CODEX_NOTIFY_ARGS, argv[argv.length - 1]!], undefined);
    return event ? event.state : null;
  });
}

Deno.test("Codex's hidden title request does not end the turn; the real one does", () => {
  assert.deepEqual(replayCodex(new HookInterpreter(), "codex-tool.notify.jsonl"), [null, "done"]);
});

Deno.test("an interrupted Codex turn reports nothing (only its title request fired)", () => {
  assert.deepEqual(replayCodex(new HookInterpreter(), "codex-interrupt.notify.jsonl"), [null]);
});

Deno.test("a later notify on a known side thread is ignored even without the title prompt", () => {
  const interpreter = new HookInterpreter();
  replayCodex(interpreter, "codex-tool.notify.jsonl");
  const [title] = lines("codex-tool.notify.jsonl");
  const side = JSON.parse((title!.argv as string[])[0]!);
  side["input-messages"] = ["something else"];
  assert.equal(apply(interpreter, ["done", JSON.stringify(side)], undefined), null);
});
