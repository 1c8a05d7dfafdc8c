import assert from "node:assert/strict";
import { crashEntry } from "../../src/util/crash_log.ts";
import { groupCrashes, parseCrashLog } from "./crash_summary.ts";

const ROOT = "/repo/";

function thrown(message: string, top: string): Error {
  const error = new RangeError(message);
  error.stack =
    `RangeError: ${message}\n    at ${top}\n    at render (file:///repo/src/tui/app.ts:9:1)`;
  return error;
}

Deno.test("crash.log entries are read back as the server wrote them, repeats counted", () => {
  const at = new Date("2026-12-02T10:00:00.000Z");
  const text = [
    crashEntry({
      owner: "client-2",
      where: "draw",
      action: "redrawn from scratch",
      error: thrown(
        "offset is out of bounds",
        "Frame.copyRowsFrom (file:///repo/src/tui/frame.ts:40:7)",
      ),
      repeats: 0,
      since: null,
    }, at),
    crashEntry({
      owner: "client-7",
      where: "draw",
      action: "disconnected",
      error: thrown(
        "offset is out of bounds",
        "Frame.copyRowsFrom (file:///repo/src/tui/frame.ts:40:7)",
      ),
      repeats: 3,
      since: at.getTime(),
    }, at),
    crashEntry({
      owner: "control list",
      where: "answer",
      action: null,
      error: "a string",
      repeats: 0,
      since: null,
    }, at),
  ].join("");
  const entries = parseCrashLog(text, ROOT);
  assert.equal(entries.length, 3);
  assert.deepEqual(
    entries.map((e) => [e.owner, e.where, e.action, e.repeats, e.error, e.top]),
    [
      [
        "client-2",
        "draw",
        "redrawn from scratch",
        0,
        "RangeError: offset is out of bounds",
        "Frame.copyRowsFrom (src/tui/frame.ts:40:7)",
      ],
      [
        "client-7",
        "draw",
        "disconnected",
        3,
        "RangeError: offset is out of bounds",
        "Frame.copyRowsFrom (src/tui/frame.ts:40:7)",
      ],
      ["control list", "answer", "kept", 0, "thrown: a string", "(no stack)"],
    ],
  );
  const groups = groupCrashes(entries);
  assert.deepEqual(groups.map((g) => [g.count, g.top, g.owners, g.actions]), [
    [5, "Frame.copyRowsFrom (src/tui/frame.ts:40:7)", ["client-N"], [
      "redrawn from scratch",
      "disconnected",
    ]],
    [1, "(no stack)", ["control list"], ["kept"]],
  ]);
});

Deno.test("an empty or foreign crash.log has no entries", () => {
  assert.deepEqual(parseCrashLog(""), []);
  assert.deepEqual(parseCrashLog("not a crash log\n  at nothing\n"), []);
});
