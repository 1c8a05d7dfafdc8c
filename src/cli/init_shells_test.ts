import assert from "node:assert/strict";
import { isShellName, SHELLS, shellSnippet } from "./init_shells.ts";

Deno.test("every shell snippet emits OSC 133 A, C and D with the exit code, and OSC 7", () => {
  for (const shell of SHELLS) {
    const text = shellSnippet(shell);
    assert.ok(!text.includes("$\\{"), `${shell}: an escaped $\\{ leaked`);
    assert.match(text, /133;A/, shell);
    assert.match(text, /133;C/, shell);
    assert.match(text, /133;D;%s/, shell);
    assert.match(text, /\]7;file:\/\//, shell);
    assert.match(text, /__lazyshell_integration/, `${shell}: guarded against double sourcing`);
  }
  assert.equal(isShellName("bash"), true);
  assert.equal(isShellName("tcsh"), false);
});

Deno.test("the bash snippet is valid bash", async () => {
  const out = await new Deno.Command("bash", {
    args: ["-n", "-c", shellSnippet("bash")],
    stderr: "piped",
  }).output();
  assert.equal(out.code, 0, new TextDecoder().decode(out.stderr));
});
