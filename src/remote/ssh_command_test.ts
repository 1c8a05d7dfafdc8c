import assert from "node:assert/strict";
import { UserError } from "../errors.ts";
import { parseDestination, shellQuote, splitWords, sshArgv } from "./ssh_command.ts";

Deno.test("splitWords: quotes and backslashes as sh reads them, nothing expanded", () => {
  assert.deepEqual(splitWords("ssh"), ["ssh"]);
  assert.deepEqual(splitWords("  ssh -i '/my keys/id' -o \"ProxyJump=a b\"  "), [
    "ssh",
    "-i",
    "/my keys/id",
    "-o",
    "ProxyJump=a b",
  ]);
  assert.deepEqual(splitWords(`a\\ b "c\\"d" '' $HOME`), ["a b", 'c"d', "", "$HOME"]);
  assert.throws(() => splitWords("ssh -i 'x"), UserError);
  assert.throws(() => splitWords('ssh -o "x'), UserError);
});

Deno.test("shellQuote: a word the remote shell reads back as it was", async () => {
  const words = ["plain", "-L", "a b", "it's", "$(touch /tmp/x)", "`id`", "x;y", ""];
  const line = words.map(shellQuote).join(" ");
  const out = await new Deno.Command("/bin/sh", {
    args: ["-c", `for w in ${line}; do printf '%s\\n' "[$w]"; done`],
    stdout: "piped",
  }).output();
  assert.deepEqual(
    new TextDecoder().decode(out.stdout).trimEnd().split("\n"),
    words.map((w) => `[${w}]`),
  );
  assert.equal(shellQuote("server-1.x"), "server-1.x");
});

Deno.test("parseDestination: as ssh takes it; ssh:// URLs give -p; option-like names refused", () => {
  assert.deepEqual(parseDestination("dev"), { args: ["dev"], label: "dev" });
  assert.deepEqual(parseDestination("me@box"), { args: ["me@box"], label: "me@box" });
  assert.deepEqual(parseDestination("ssh://me@box:2222").args, ["-p", "2222", "me@box"]);
  assert.deepEqual(parseDestination("ssh://box").args, ["box"]);
  assert.deepEqual(parseDestination("ssh://[::1]:22/").args, ["-p", "22", "::1"]);
  for (const bad of ["-oProxyCommand=touch /tmp/x", "", "a b", "dev\x1b]0;x\x07", "ssh://-oX"]) {
    assert.throws(() => parseDestination(bad), UserError, JSON.stringify(bad));
  }
  // The refusal never carries the escape itself.
  assert.throws(() => parseDestination("dev\x1b[2J"), (e: Error) => !e.message.includes("\x1b"));
});

Deno.test("sshArgv: ssh's words, -T, the destination, then one remote command line", () => {
  assert.deepEqual(
    sshArgv(["ssh", "-p", "2"], parseDestination("ssh://me@h:2222"), "~/bin/lazyshell", [
      "-L",
      "x y",
      "bridge",
      "attach",
    ]),
    ["ssh", "-p", "2", "-T", "-p", "2222", "me@h", "~/bin/lazyshell -L 'x y' bridge attach"],
  );
  assert.deepEqual(sshArgv(["ssh"], parseDestination("dev"), " ", ["bridge", "control"]), [
    "ssh",
    "-T",
    "dev",
    "lazyshell bridge control",
  ]);
  assert.throws(() => sshArgv([], parseDestination("dev"), "lazyshell", []), UserError);
});
