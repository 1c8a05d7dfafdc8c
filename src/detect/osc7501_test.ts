import assert from "node:assert/strict";
import fc from "fast-check";
import {
  applyRecord,
  BURST_GAP_MS,
  BURST_SPAN_MS,
  Bursts,
  decodeBase64,
  MAX_BURST_BYTES,
  MAX_RECORDS,
  onPromptOrExit,
  onTyped,
  parseBurst,
  parseRecord,
  RecordLog,
} from "./osc7501.ts";

const b64 = (s: string) => btoa(String.fromCharCode(...new TextEncoder().encode(s)));

const parseCases: [string, ReturnType<typeof parseRecord>][] = [
  ["state=idle:app=claude-code", {
    state: "idle",
    kind: null,
    progress: null,
    app: "claude-code",
    title: null,
    msg: null,
  }],
  [`state=blocked:app=claude-code:kind=permission:msg=${b64("approve Bash: touch x")}`, {
    state: "blocked",
    kind: "permission",
    progress: null,
    app: "claude-code",
    title: null,
    msg: "approve Bash: touch x",
  }],
  ["state=working:progress=42", {
    state: "working",
    kind: null,
    progress: 42,
    app: null,
    title: null,
    msg: null,
  }],
  ["state=clear", {
    state: "clear",
    kind: null,
    progress: null,
    app: null,
    title: null,
    msg: null,
  }],
  ["state=done:kind=permission", {
    state: "done",
    kind: null,
    progress: null,
    app: null,
    title: null,
    msg: null,
  }],
  ["state=blocked:msg=not*base64", {
    state: "blocked",
    kind: null,
    progress: null,
    app: null,
    title: null,
    msg: null,
  }],
  [`state=blocked:msg=${b64("x".repeat(2049))}`, {
    state: "blocked",
    kind: null,
    progress: null,
    app: null,
    title: null,
    msg: null,
  }],
  [`state=blocked:msg=${b64("é".repeat(1024))}`, {
    state: "blocked",
    kind: null,
    progress: null,
    app: null,
    title: null,
    msg: "é".repeat(1024),
  }],
  // A subagent's record (claude-agent-osc7501 @8870, @17448): not the program's own state.
  [
    `state=working:app=claude-code:id=ac4e6bf292a4a75e6:title=${b64("Create the marker file")}`,
    null,
  ],
  ["state=clear:id=ac4e6bf292a4a75e6", null],
  ["state=sleeping", null],
  ["state=blocked:kind=coffee", null],
  ["?", null],
  ["", null],
  ["garbage", null],
  ["app=x", null],
];

for (const [payload, expected] of parseCases) {
  Deno.test(`osc7501: parse ${JSON.stringify(payload.slice(0, 40))}`, () => {
    assert.deepEqual(parseRecord(payload), expected);
  });
}

Deno.test("osc7501: the parser never throws and returns well-formed records (fast-check)", () => {
  const key = fc.constantFrom("state", "kind", "msg", "progress", "app", "title", "x", "");
  const value = fc.oneof(
    fc.constantFrom(
      "idle",
      "working",
      "blocked",
      "done",
      "error",
      "clear",
      "permission",
      "auth",
      "42",
      "QXBwbHk/",
    ),
    fc.string(),
  );
  const payload = fc.oneof(
    fc.string(),
    fc.array(fc.tuple(key, value)).map((pairs) => pairs.map(([k, v]) => `${k}=${v}`).join(":")),
  );
  fc.assert(
    fc.property(payload, (p) => {
      const r = parseRecord(p);
      if (r === null) return true;
      assert.ok(
        r.state === null ||
          ["idle", "working", "blocked", "done", "error", "clear"].includes(r.state),
      );
      assert.ok(r.kind === null || r.state === "blocked");
      assert.ok(r.progress === null || (r.progress >= 0 && r.progress <= 100));
      assert.ok(r.msg === null || new TextEncoder().encode(r.msg).length <= 2048);
      return true;
    }),
    { numRuns: 2000 },
  );
});

Deno.test("osc7501: base64 msg round-trips any text up to 2048 bytes (fast-check)", () => {
  fc.assert(fc.property(fc.string({ unit: "grapheme", maxLength: 300 }), (s) => {
    const bytes = new TextEncoder().encode(s).length;
    const decoded = decodeBase64(b64(s));
    return bytes <= 2048 ? decoded === s : decoded === null;
  }));
});

Deno.test("osc7501: a burst over 256 KiB is dropped whole", () => {
  const big = `state=working:app=${"x".repeat(MAX_BURST_BYTES)}`;
  assert.equal(parseBurst(["state=blocked", big]), null);
  const ok = parseBurst(["state=blocked", "nonsense", "state=working"]);
  assert.deepEqual(ok?.map((r) => r.state), ["blocked", "working"]);
});

Deno.test("osc7501: a burst keeps at most 256 records, the log too", () => {
  const many = Array.from({ length: 300 }, (_, i) => `state=working:progress=${i % 101}`);
  assert.equal(parseBurst(many)?.length, MAX_RECORDS);
  const log = new RecordLog();
  log.push(parseBurst(many)!);
  log.push(parseBurst(many.slice(0, 10))!);
  assert.equal(log.records.length, MAX_RECORDS);
});

Deno.test("osc7501: lifetimes", () => {
  const rec = (p: string) => parseRecord(p)!;
  const working = applyRecord(null, rec("state=working:app=a"));
  assert.equal(working?.state, "working");
  assert.equal(onPromptOrExit(working), null, "133;A / exit clear working");
  const blocked = applyRecord(working, rec("state=blocked:kind=auth"));
  assert.equal(blocked?.kind, "auth");
  assert.equal(blocked?.app, "a", "app carries over");
  assert.equal(onPromptOrExit(blocked), null, "133;A / exit clear blocked");
  const done = applyRecord(blocked, rec("state=done"));
  assert.equal(onPromptOrExit(done), done, "done persists past exit");
  assert.equal(onTyped(done), null, "typing clears done");
  const error = applyRecord(null, rec("state=error"));
  assert.equal(onPromptOrExit(error), error, "error survives exit");
  assert.equal(onTyped(error), null, "typing clears error");
  assert.equal(onTyped(working), working, "typing does not clear working");
  assert.equal(applyRecord(done, rec("state=clear")), null);
  assert.equal(applyRecord(working, rec("progress=50"))?.progress, 50, "update without state");
});

Deno.test("Bursts: records with no gap are one burst, however they arrived; a gap splits", () => {
  const b = new Bursts();
  const big = `state=working:msg=${btoa("x".repeat(1500))}`;
  // 200 records over 400 ms while lazyshell was behind: one burst, over 256 KiB.
  for (let i = 0; i < 200; i++) b.add(i === 199 ? "state=done" : big, i * 2);
  assert.deepEqual(b.take(450, true), [], "still behind: not over");
  assert.deepEqual(b.take(500, false), [], "caught up, but the gap has not passed");
  assert.deepEqual(b.take(398 + BURST_GAP_MS, false), [null], "dropped whole");
  // Caught up, then a pause: the next record starts another burst.
  b.add("state=blocked", 2000);
  b.take(2001, false);
  b.add("state=idle", 2000 + BURST_GAP_MS);
  const taken = b.take(2000 + BURST_GAP_MS, false, true);
  assert.deepEqual(taken.map((r) => r?.map((x) => x.state)), [["blocked"], ["idle"]]);
  assert.equal(b.empty, true);
});

Deno.test("Bursts: a pause of lazyshell's own is no gap; a burst that never pauses ends anyway", () => {
  const b = new Bursts();
  b.add("state=working", 0);
  b.take(10, true); // behind: the rest is still in the PTY
  b.add("state=blocked", 500);
  assert.deepEqual(b.take(500 + BURST_GAP_MS, false).map((r) => r?.length), [2]);
  for (let t = 0; t <= BURST_SPAN_MS; t += 100) b.add("progress=5", 1000 + t);
  assert.equal(b.dueAt(), 1000 + BURST_SPAN_MS);
  assert.deepEqual(b.take(1000 + BURST_SPAN_MS, false).map((r) => r?.length), [11]);
});

Deno.test("osc7501: a msg's escape sequences and controls are not kept", () => {
  const record = parseRecord(
    `state=blocked:kind=question:msg=${b64("\x1b]0;x\x07Pick \x1b[1mone\x1b[0m\r\n")}`,
  );
  assert.equal(record?.msg, "Pick one  ");
});
