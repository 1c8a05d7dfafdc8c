import assert from "node:assert/strict";
import { BINDINGS, hints, keysMarkdown, resolveKeymap, withKeysSection } from "./keymap.ts";

Deno.test("the default keymap has the keys the README lists", () => {
  const { keymap, warnings } = resolveKeymap();
  assert.deepEqual(warnings, []);
  const nav = keymap.navigation;
  const expected: [string, string][] = [
    ["j", "down"],
    ["down", "down"],
    ["k", "up"],
    ["enter", "focus"],
    ["n", "new"],
    ["x", "kill"],
    ["r", "rename"],
    ["W", "restart"],
    ["B", "next-blocked"],
    ["v", "watch"],
    ["?", "help"],
    [":", "palette"],
    ["tab", "next-tab"],
    ["shift+tab", "prev-tab"],
    ["1", "goto-tab"],
    ["9", "goto-tab"],
    ["q", "quit"],
  ];
  for (const [key, action] of expected) assert.equal(nav.get(key), action, key);
  assert.equal(keymap.terminal.get("ctrl+]"), "unfocus");
  assert.equal(keymap.terminal.size, 1, "terminal mode forwards every other key");
});

Deno.test("config keys override by action name and warn about the rest", () => {
  const { keymap, warnings } = resolveKeymap({
    new: ["a", "n"],
    unfocus: "ctrl+g",
    bogus: "z",
  });
  assert.equal(keymap.navigation.get("a"), "new");
  assert.equal(keymap.navigation.get("n"), "new");
  assert.equal(keymap.terminal.get("ctrl+g"), "unfocus");
  assert.equal(keymap.terminal.get("ctrl+]"), undefined);
  assert.deepEqual(warnings, [
    { action: "bogus", text: "keys.bogus: Unknown key action (ignored)" },
  ]);
  assert.equal(
    resolveKeymap({ kil: "z" }).warnings[0]?.text,
    "keys.kil: Unknown key action (ignored): did you mean kill?",
  );
});

Deno.test("the escape chord can never be esc or ctrl+c", () => {
  for (const key of ["esc", "ctrl+c"]) {
    const { keymap, warnings } = resolveKeymap({ unfocus: key });
    assert.equal(keymap.terminal.get("ctrl+]"), "unfocus");
    assert.deepEqual(warnings.map((w) => w.action), ["unfocus"]);
  }
});

Deno.test("a key bound twice keeps the first action and says so", () => {
  const { keymap, warnings } = resolveKeymap({ kill: "n" });
  assert.equal(keymap.navigation.get("n"), "new");
  assert.deepEqual(warnings, [
    { action: "kill", text: "keys.kill: Key n is bound to both new and kill (new wins)" },
  ]);
  // The user's own binding is named, whichever action keeps the key.
  assert.equal(resolveKeymap({ down: "n" }).warnings[0]?.action, "down");
});

Deno.test("hints come from the table", () => {
  const { keymap } = resolveKeymap({ quit: "Q" });
  assert.ok(hints(keymap, "navigation").some((h) => h.key === "Q" && h.label === "quit"));
  assert.deepEqual(hints(keymap, "terminal"), [{
    key: "ctrl+]",
    label: "back",
    action: "unfocus",
  }]);
});

Deno.test("README.md's Keys section is generated from the keymap (run tools/readme_keys.ts)", () => {
  const readme = Deno.readTextFileSync(new URL("../../README.md", import.meta.url));
  assert.ok(readme.includes(keysMarkdown(BINDINGS)), "README Keys section is stale");
  assert.equal(withKeysSection(readme), readme);
});
