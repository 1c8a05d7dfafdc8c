import assert from "node:assert/strict";
import { ProtocolError } from "../errors.ts";
import {
  encodeMessage,
  HOST_V1_TYPES,
  type HostMessage,
  hostMessageSchema,
  parseHostMessage,
  parsePluginMessage,
  type PluginMessage,
  pluginMessageSchema,
  subscriptionFor,
  subscriptionsOf,
  UnknownTypeError,
} from "./protocol.ts";

const HOST: HostMessage[] = [
  {
    type: "init",
    protocol: 1,
    id: "hello",
    home: "/h",
    configDir: "/h/.config/lazyshell",
    dataDir: "/h/.local/share/lazyshell/plugins/hello",
    libraryDir: "/opt/lazyshell",
    theme: { id: "default", colors: { "ui.accent": "#5fafff", "ansi.red": "#ff5f5f" } },
    config: { greeting: "hi", n: [1, 2] },
    width: 80,
    height: 24,
  },
  { type: "resize", width: 100, height: 30 },
  { type: "key", key: "ctrl+x", text: "" },
  { type: "key", key: "a", text: "a" },
  { type: "paste", text: "multi\nline" },
  { type: "mouse", mouse: { kind: "wheel", x: 3, y: 4, button: "up" } },
  { type: "mouse", mouse: { kind: "click", x: 0, y: 0, button: "left" } },
  { type: "command", name: "refresh" },
  { type: "reload" },
  {
    type: "agents",
    agents: [{
      id: "claude",
      name: "Claude Code",
      installed: true,
      version: "2.1.332",
      managedDir: "/h/.claude",
      readDirs: ["/h/.claude"],
    }],
  },
  { type: "exec_result", execId: "e1", code: 0, stdout: "out", stderr: "", error: null },
  { type: "exec_result", execId: 7, code: null, stdout: "", stderr: "", error: "Not found: x" },
  {
    type: "sessions",
    sessions: [{
      id: "session-1",
      name: "api",
      group: null,
      status: "running",
      agent: "claude",
      state: "working",
      since: 1000,
      stats: "12k tokens",
      turns: 2,
      turnStartedAt: 1000,
      lastTurnMs: 5000,
      selected: true,
      cwd: "/tmp",
      kind: "limit",
      resetsAt: 1_796_180_400_000,
      limitResume: {
        phase: "waiting",
        reason: null,
        policy: "auto",
        policyFrom: "group",
        resumed: 1,
        failed: 0,
      },
    }],
  },
  { type: "visible", visible: false },
  { type: "env", session: "session-1", vars: { PATH: "/bin" } },
  {
    type: "watchers",
    watchers: [{ session: "session-1", pattern: "ERR", source: "live", notify: true }],
  },
  { type: "result", requestId: "r1", ok: false, error: "No such session: x" },
];

const PLUGIN: PluginMessage[] = [
  {
    type: "manifest",
    title: "Hello",
    help: [{ title: "Keys", keys: [["r", "refresh"]] }],
    commands: [{ name: "say-hi", desc: "Say hi" }],
    doctor: true,
    subscribe: ["sessions"],
    onDemand: true,
  },
  { type: "frame", view: "\u001b[1mhi\u001b[0m\nthere", count: 3, capturing: false },
  { type: "frame", view: "", capturing: true },
  { type: "exec", execId: "e1", argv: ["ls", "-l"], dir: "/tmp", interactive: false },
  { type: "arm_watcher", requestId: 1, session: "session-1", pattern: "ERROR" },
  { type: "disarm_watcher", session: "session-1" },
  { type: "select_session", requestId: "s", session: "api" },
  { type: "copy", requestId: "c", text: "agent/fix-é" },
];

Deno.test("every host message round-trips through encode and parse", () => {
  const types = new Set(HOST.map((m) => m.type));
  assert.deepEqual(
    [...types].sort(),
    hostMessageSchema.options.map((o) => o.shape.type.value).sort(),
    "the table covers every host message type",
  );
  for (const message of HOST) assert.deepEqual(parseHostMessage(encodeMessage(message)), message);
});

Deno.test("every plugin message round-trips through encode and parse", () => {
  const types = new Set(PLUGIN.map((m) => m.type));
  assert.deepEqual(
    [...types].sort(),
    pluginMessageSchema.options.map((o) => o.shape.type.value).sort(),
  );
  for (const message of PLUGIN) {
    assert.deepEqual(parsePluginMessage(encodeMessage(message)), message);
  }
});

Deno.test("a minimal manifest gets its defaults", () => {
  const m = parsePluginMessage('{"type":"manifest","title":"X"}');
  assert.deepEqual(m, {
    type: "manifest",
    title: "X",
    help: [],
    commands: [],
    doctor: false,
    subscribe: [],
    onDemand: false,
  });
  assert.deepEqual([...subscriptionsOf(m as never)], []);
});

function throwsField(line: string, field: string | null, text: RegExp): void {
  assert.throws(() => parsePluginMessage(line), (e) => {
    assert.ok(e instanceof ProtocolError, String(e));
    assert.equal(e.field, field);
    assert.match(e.message, text);
    return true;
  });
}

Deno.test("parse errors name the bad field", () => {
  throwsField("not json", null, /Not a JSON line/);
  throwsField("[1]", null, /Not a JSON object/);
  throwsField('{"type":""}', "type", /empty type/);
  throwsField('{"view":"x"}', "type", /empty type/);
  throwsField(
    `{"type":"manifest","title":"${"x".repeat(41)}"}`,
    "title",
    /Bad manifest message: title/,
  );
  throwsField(
    '{"type":"manifest","title":"T","commands":[{"name":"Bad Name"}]}',
    "commands[0].name",
    /commands\[0\]\.name/,
  );
  throwsField('{"type":"frame","view":3}', "view", /view/);
  throwsField('{"type":"exec","execId":"a","argv":[]}', "argv", /argv/);
});

Deno.test("an unknown type is told apart from a broken message", () => {
  assert.throws(() => parsePluginMessage('{"type":"future_thing"}'), UnknownTypeError);
  assert.throws(() => parseHostMessage('{"type":"future_thing"}'), UnknownTypeError);
});

Deno.test("extension messages need a subscription; v1 messages need none", () => {
  for (const m of HOST) {
    const needs = subscriptionFor(m.type);
    assert.equal(needs === null, HOST_V1_TYPES.has(m.type), m.type);
  }
  const m = parsePluginMessage('{"type":"manifest","title":"X","subscribe":["sessions","later"]}');
  assert.deepEqual([...subscriptionsOf(m as never)], ["sessions"]);
});

Deno.test("a copy request over 64 KiB is a bad message", () => {
  throwsField(
    JSON.stringify({ type: "copy", text: "x".repeat(64 * 1024 + 1) }),
    "text",
    /Bad copy message: text: over 65536 bytes/,
  );
});
