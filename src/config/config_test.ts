import assert from "node:assert/strict";
import { DEFAULT_CONFIG, parseConfig } from "./config.ts";
import { ConfigError } from "../errors.ts";

Deno.test("an empty config gives the defaults", () => {
  const { config, warnings } = parseConfig("", "config.yml");
  assert.deepEqual(config, DEFAULT_CONFIG);
  assert.equal(config.scrollback, 5000);
  assert.equal(config.control.enabled, false);
  assert.deepEqual(warnings, []);
});

Deno.test("values are read and nested defaults kept", () => {
  const { config } = parseConfig(
    "control:\n  enabled: true\nnotify:\n  fallback_command: notify-send x\nreduce_motion: true\n",
    "c.yml",
  );
  assert.equal(config.control.enabled, true);
  assert.equal(config.notify.fallback_command, "notify-send x");
  assert.equal(config.notify.rate_limit_seconds, 30);
  assert.equal(config.reduce_motion, true);
  assert.equal(config.agents.claude.inject_hooks, false);
});

Deno.test("a bad value is rejected with file, line, path and reason", () => {
  assert.throws(
    () => parseConfig("scrollback: 10\ncontrol:\n  enabled: yes please\n", "/x/config.yml"),
    (e) => {
      assert.ok(e instanceof ConfigError);
      assert.equal(e.line, 3);
      assert.match(e.message, /^\/x\/config\.yml:3: control\.enabled: /);
      return true;
    },
  );
});

Deno.test("broken YAML is rejected with its line", () => {
  assert.throws(
    () => parseConfig("scrollback: 10\nkeys: [unclosed\n", "c.yml"),
    (e) => e instanceof ConfigError && e.file === "c.yml" && e.line !== null,
  );
});

Deno.test("unknown nested keys are warned with the nearest key; top-level ones are candidate sections", () => {
  const { sections, warnings, keyLines } = parseConfig(
    "hello:\n  greeting: hi\ncontrol:\n  enabeld: true\ncontrl: {}\n",
    "c.yml",
  );
  // Whether a plugin has that id is for src/server/problems.ts to say (contrl: none has).
  assert.deepEqual(sections, { hello: { greeting: "hi" }, contrl: {} });
  assert.equal(keyLines.contrl, 5);
  assert.deepEqual(warnings, [
    "c.yml:4: Unknown key control.enabeld (ignored): did you mean enabled?",
  ]);
});

Deno.test("the README's configuration reference names every key of the schema", () => {
  const readme = Deno.readTextFileSync(new URL("../../README.md", import.meta.url));
  const block = /## Configuration[\s\S]*?```yaml\n([\s\S]*?)```/.exec(readme)?.[1] ?? "";
  const documented = parseConfig(block, "README.md").config;
  const keys = (o: object, prefix = ""): string[] =>
    Object.entries(o).flatMap(([k, v]) =>
      v && typeof v === "object" && !Array.isArray(v) && Object.keys(v).length > 0
        ? keys(v, `${prefix}${k}.`)
        : [`${prefix}${k}`]
    );
  const missing = keys(DEFAULT_CONFIG).filter((k) =>
    !new RegExp(`^\\s*${k.split(".").at(-1)}:`, "m").test(block)
  );
  assert.deepEqual(missing, []);
  assert.deepEqual(documented, DEFAULT_CONFIG, "the documented values are the defaults");
});
