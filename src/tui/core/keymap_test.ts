import assert from "node:assert/strict";
import { BINDINGS, hints, keysMarkdown, resolveKeymap, withKeysSection } from "./keymap.ts";
import { isKeyName, KeyDecoder } from "./keys.ts";

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
  const readme = Deno.readTextFileSync(new URL("../../../README.md", import.meta.url));
  assert.ok(readme.includes(keysMarkdown(BINDINGS)), "README Keys section is stale");
  assert.equal(withKeysSection(readme), readme);
});

Deno.test("key names no terminal key decodes to are named and left out, defaults kept", () => {
  const { keymap, warnings } = resolveKeymap({
    new: "enterr",
    kill: ["foo", "X"],
    rename: "ctrl+",
    unfocus: "ctrl+zz",
    help: "Enter",
    search: "ctrl+i",
  });
  assert.deepEqual(warnings.map((w) => w.text), [
    'keys.new: "enterr" is not a key name: did you mean enter? (default n kept)',
    'keys.kill: "foo" is not a key name (key names: docs/tui.md, Input) (ignored)',
    'keys.rename: "ctrl+" is not a key name: did you mean ctrl+@? (default r kept)',
    'keys.search: "ctrl+i" is not a key name: write tab (default / kept)',
    'keys.help: "Enter" is not a key name: write enter (default ? kept)',
    'keys.unfocus: "ctrl+zz" is not a key name: did you mean ctrl+z? (default ctrl+] kept)',
  ]);
  assert.equal(keymap.navigation.get("n"), "new");
  assert.equal(keymap.navigation.get("X"), "kill", "the valid key of a list is kept");
  assert.equal(keymap.terminal.get("ctrl+]"), "unfocus");
});

Deno.test("isKeyName(): every name the decoder emits, and nothing else", () => {
  const valid = [
    "a",
    "A",
    "é",
    "/",
    "?",
    "]",
    "space",
    "enter",
    "tab",
    "shift+tab",
    "esc",
    "backspace",
    "ctrl+a",
    "ctrl+z",
    "ctrl+]",
    "ctrl+\\",
    "ctrl+@",
    "ctrl+_",
    "alt+x",
    "alt+enter",
    "alt+ctrl+a",
    "up",
    "ctrl+up",
    "ctrl+alt+shift+left",
    "shift+f5",
    "f20",
    "pgdown",
    "home",
    "delete",
  ];
  for (const name of valid) assert.equal(isKeyName(name), true, name);
  const invalid = [
    "",
    "enterr",
    "foo",
    "ctrl+",
    "ctrl+zz",
    "Enter",
    "ctrl+i",
    "ctrl+m",
    "shift+ctrl+up",
    "f21",
    "alt+",
    "ab",
    " ",
    "\x1b",
    "\u009b",
    "super+a",
    "ctrl+A",
  ];
  for (const name of invalid) assert.equal(isKeyName(name), false, JSON.stringify(name));
  // What the decoder actually emits for a sample of inputs is accepted.
  const decoder = new KeyDecoder();
  const bytes = [
    "a",
    "\x01",
    "\x1d",
    "\r",
    "\t",
    "\x7f",
    "\x1b[A",
    "\x1b[1;5C",
    "\x1b[15~",
    "\x1bx",
    " ",
  ];
  for (const b of bytes) {
    for (const e of decoder.feed(b)) if (e.type === "key") assert.ok(isKeyName(e.name), e.name);
  }
});
