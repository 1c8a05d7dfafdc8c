import assert from "node:assert/strict";
import { reportCrash } from "./crash.ts";

Deno.test("a crash restores the terminal first, logs the stack and reports one line", () => {
  const dir = Deno.makeTempDirSync();
  const order: string[] = [];
  const error = new Error("boom");
  const line = reportCrash(() => order.push("restore"), `${dir}/data`, error);
  order.push("report");
  assert.deepEqual(order, ["restore", "report"]);
  assert.equal(line, `lazyshell: internal error: boom (details in ${dir}/data/crash.log)`);
  assert.ok(!line.includes("\n"));
  const log = Deno.readTextFileSync(`${dir}/data/crash.log`);
  assert.match(log, /Error: boom\n\s+at /);
  Deno.removeSync(dir, { recursive: true });
});

Deno.test("a crash is still reported when the terminal or the log cannot be written", () => {
  const line = reportCrash(
    () => {
      throw new Error("stdout gone");
    },
    "/proc/nonexistent/lazyshell",
    "weird",
  );
  assert.equal(line, "lazyshell: internal error: weird");
});
