import assert from "node:assert/strict";
import { directoriesToCheck } from "./private_path.ts";

Deno.test("a socket's directory is checked; under the runtime root, every directory from the root", () => {
  assert.deepEqual(directoriesToCheck("/run/u/lazyshell/42/session-1.sock", "/run/u/lazyshell"), [
    "/run/u/lazyshell",
    "/run/u/lazyshell/42",
  ]);
  assert.deepEqual(
    directoriesToCheck("/tmp/lazyshell-0/server-default.sock", "/tmp/lazyshell-0/"),
    [
      "/tmp/lazyshell-0",
    ],
  );
  // A root that is only a prefix of the name is not the socket's root.
  assert.deepEqual(directoriesToCheck("/tmp/lazyshell-01/9/control.sock", "/tmp/lazyshell-0"), [
    "/tmp/lazyshell-01/9",
  ]);
  assert.deepEqual(directoriesToCheck("/home/me/s/control.sock", "/tmp/lazyshell-0"), [
    "/home/me/s",
  ]);
  assert.deepEqual(directoriesToCheck("/control.sock", "/tmp/lazyshell-0"), ["/"]);
  assert.deepEqual(directoriesToCheck("control.sock", "/tmp/lazyshell-0"), ["."]);
});
