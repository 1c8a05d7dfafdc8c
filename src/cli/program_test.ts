import assert from "node:assert/strict";
import { buildProgram, lookupCommand } from "./program.ts";

const NAMES = ["start", "init", "serve", "ctl", "doctor", "detect", "hook"];
const VISIBLE = NAMES.filter((n) => n !== "start");
const PLUGINS = [{ id: "hello", source: "/p/hello" }];
const look = (...args: string[]) => lookupCommand(args, NAMES, VISIBLE, PLUGINS);

Deno.test("lookupCommand(): a word that is no command is named, with the nearest command", () => {
  assert.deepEqual(look("frobnicate"), {
    type: "unknown",
    message: "Unknown command: frobnicate: see lazyshell --help",
  });
  assert.deepEqual(look("doctr"), {
    type: "unknown",
    message: "Unknown command: doctr: did you mean doctor?",
  });
  assert.deepEqual(look("help", "helo"), {
    type: "unknown",
    message: "Unknown command: helo: did you mean hello?",
  });
  // Commands, options, plugins and help itself are not for this function.
  for (
    const args of [[], ["doctor"], ["--project", "x"], ["hello", "a"], ["help"], ["help", "hook"]]
  ) {
    assert.equal(look(...args), null, args.join(" "));
  }
});

Deno.test("lookupCommand(): help for a plugin is its usage line", () => {
  const got = look("help", "hello");
  assert.equal(got?.type, "plugin-help");
  assert.match(
    got?.type === "plugin-help" ? got.text : "",
    /^Usage: lazyshell hello \[args\.\.\.\]/,
  );
});

Deno.test("--help lists the hook command (run before commander loads)", () => {
  const help = buildProgram("0").helpInformation() + "";
  assert.match(help, /^\s+hook \[options\] <state> \[json\]/m);
});
