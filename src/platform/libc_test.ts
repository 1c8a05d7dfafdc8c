import assert from "node:assert/strict";
import { libcNames, openLibc } from "./libc.ts";

Deno.test("libc's name and request numbers per platform; none on Windows", () => {
  assert.equal(libcNames("linux")?.path, "libc.so.6");
  assert.equal(libcNames("darwin")?.path, "/usr/lib/libSystem.B.dylib");
  assert.equal(libcNames("darwin")?.errnoSymbol, "__error");
  assert.equal(libcNames("darwin")?.F_DUPFD_CLOEXEC, 67);
  assert.equal(libcNames("linux")?.F_DUPFD_CLOEXEC, 1030);
  assert.equal(libcNames("darwin")?.eventfd, false);
  assert.equal(libcNames("windows"), null);
  assert.equal(openLibc({ getpid: { parameters: [], result: "i32" } } as const, "windows"), null);
});

Deno.test({
  name: "openLibc opens this platform's libc, and is null for a symbol it lacks",
  ignore: libcNames() === null,
  fn: () => {
    const s = openLibc({ getpid: { parameters: [], result: "i32" } } as const);
    assert.equal(s?.getpid(), Deno.pid);
    const missing = openLibc({ no_such_symbol_here: { parameters: [], result: "i32" } } as const);
    assert.equal(missing, null);
  },
});
