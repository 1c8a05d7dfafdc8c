import assert from "node:assert/strict";
import { BRIDGE_PROTOCOL, findGreeting, greetingLine } from "./greeting.ts";
import { noGreeting, refusal } from "./transport.ts";

const enc = (s: string) => new TextEncoder().encode(s);

Deno.test("findGreeting: skips what start-up files print, keeps the bytes after it", () => {
  const line = greetingLine({ bridge: BRIDGE_PROTOCOL, version: "0.1.0", ok: true, cwd: "/h" });
  const bytes = new Uint8Array([...enc(`Welcome to box!\r\n${line}`), 1, 0, 0, 0, 2]);
  const found = findGreeting(bytes);
  assert.ok(found && "greeting" in found);
  assert.deepEqual(found.greeting, { bridge: 1, version: "0.1.0", ok: true, cwd: "/h" });
  assert.deepEqual([...found.rest], [1, 0, 0, 0, 2]);
  assert.equal(findGreeting(enc("LAZYSHELL-BRIDGE {")), null); // more to come
  assert.deepEqual(findGreeting(enc("LAZYSHELL-BRIDGE {\n")), {
    error: "a greeting that cannot be read",
  });
  assert.deepEqual(findGreeting(new Uint8Array(70_000).fill(0x41)), {
    error: "no greeting in its first 64 KiB",
  });
});

Deno.test("refusal: another bridge version or a remote error is one line, escapes shown", () => {
  const other = findGreeting(enc('LAZYSHELL-BRIDGE {"bridge":2,"version":"9.0.0","x":1}\n'));
  assert.ok(other && "greeting" in other);
  assert.equal(
    refusal(other.greeting, "dev", "0.1.0"),
    "lazyshell on dev (9.0.0) speaks bridge protocol 2, this one (0.1.0) speaks 1: install " +
      "the same version on both (npm install -g lazyshell@0.1.0)",
  );
  const bad = { bridge: 1, version: "0.1.0", ok: false as const, error: "no\x1b[2J server" };
  assert.equal(refusal(bad, "dev", "0.1.0"), "on dev: no\\x1b[2J server");
  assert.equal(refusal({ bridge: 1, version: "x", ok: true, cwd: "/" }, "dev", "0.1.0"), null);
});

Deno.test("noGreeting: missing lazyshell, an old one, ssh's own failure", () => {
  const missing = "lazyshell not found on dev: install it there (npm install -g lazyshell) or " +
    "set hosts[].command";
  assert.equal(
    noGreeting(127, "bash: line 1: lazyshell: command not found\n", null, "dev"),
    missing,
  );
  assert.equal(noGreeting(127, "", null, "dev"), missing);
  assert.match(
    noGreeting(2, "lazyshell: Unknown command: bridge\n", null, "dev"),
    /^lazyshell on dev has no bridge command \(an older version\)/,
  );
  assert.equal(
    noGreeting(
      255,
      "x\nssh: connect to host h port 1: Connection refused\n",
      "ssh: \x1b[31mno",
      "dev",
    ),
    "ssh to dev failed: ssh: \\x1b[31mno",
  );
});
