import assert from "node:assert/strict";
import { type FdLookup, fdPath, handsOverTerminal, ownTerminal } from "./terminal.ts";

/** Fds as links to devices, each device with its numbers; `asked` records the lookups. */
function lookup(links: Record<string, string>, rdev = 34816, dev = 5) {
  const asked: string[] = [];
  const fs: FdLookup = {
    readLink: (path) => {
      asked.push(path);
      const to = links[path];
      if (to === undefined) throw new Deno.errors.NotFound(path);
      return to;
    },
    stat: (path) => (asked.push(`stat ${path}`), { rdev, dev }),
  };
  return { fs, asked };
}

Deno.test("the terminal is handed over on Linux only, named through /proc", () => {
  assert.equal(fdPath("self", 0, "linux"), "/proc/self/fd/0");
  assert.equal(fdPath(42, 2, "linux"), "/proc/42/fd/2");
  assert.equal(fdPath("self", 0, "darwin"), null);
  assert.equal(handsOverTerminal("linux"), true);
  assert.equal(handsOverTerminal("darwin"), false);
});

Deno.test("ownTerminal: stdin and stdout the same device on Linux; nothing read elsewhere", () => {
  const same = lookup({ "/proc/self/fd/0": "/dev/pts/3", "/proc/self/fd/1": "/dev/pts/3" });
  assert.deepEqual(ownTerminal("linux", same.fs), { path: "/dev/pts/3", device: 34816, fs: 5 });
  const piped = lookup({ "/proc/self/fd/0": "/dev/pts/3", "/proc/self/fd/1": "pipe:[77]" });
  assert.equal(ownTerminal("linux", piped.fs), null);
  const file = lookup({ "/proc/self/fd/0": "/tmp/in", "/proc/self/fd/1": "/tmp/in" });
  assert.equal(ownTerminal("linux", file.fs), null);
  const mac = lookup({});
  assert.equal(ownTerminal("darwin", mac.fs), null);
  assert.deepEqual(mac.asked, []);
});
