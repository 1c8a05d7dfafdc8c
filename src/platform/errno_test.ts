import assert from "node:assert/strict";
import { errnoCodes } from "./errno.ts";

Deno.test("errno values are the platform's: EAGAIN is 11 on Linux, 35 on macOS", () => {
  assert.deepEqual(errnoCodes("linux"), { EPERM: 1, EINTR: 4, EAGAIN: 11 });
  assert.deepEqual(errnoCodes("darwin"), { EPERM: 1, EINTR: 4, EAGAIN: 35 });
  assert.equal(errnoCodes("freebsd").EAGAIN, 35);
});
