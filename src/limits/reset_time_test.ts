import assert from "node:assert/strict";
const assertEquals = <T>(a: T, b: T) => assert.deepEqual(a, b);
import { formatDelay, formatReset, parseResetTime, PAST_GRACE_MS } from "./reset_time.ts";

const iso = (t: number | null) => t === null ? null : new Date(t).toISOString();
const at = (s: string) => Date.parse(s);

Deno.test("Claude: an hour in the named zone, the next occurrence", () => {
  // 2026-12-02 07:30 UTC = 23:30 PST (Dec 1): 1am is 1.5 h ahead, Dec 2 01:00 PST.
  const now = at("2026-12-02T07:30:00Z");
  assertEquals(
    iso(parseResetTime("1am (America/Los_Angeles)", now, "UTC")),
    "2026-12-02T09:00:00.000Z",
  );
  // Read at 02:10 PST: 1am is 70 min behind (more than the grace): tomorrow's.
  const later = at("2026-12-02T10:10:00Z");
  assertEquals(
    iso(parseResetTime("1am (America/Los_Angeles)", later, "UTC")),
    "2026-12-03T09:00:00.000Z",
  );
});

Deno.test("a time printed to the minute that is partly past is that instant, not tomorrow's", () => {
  const now = at("2026-12-02T10:05:40Z");
  assertEquals(iso(parseResetTime("10:05 AM", now, "UTC")), "2026-12-02T10:05:00.000Z");
  // Just within the grace, and just beyond it.
  const reset = at("2026-12-02T10:05:00Z");
  assertEquals(parseResetTime("10:05 AM", reset + PAST_GRACE_MS, "UTC"), reset);
  assertEquals(
    iso(parseResetTime("10:05 AM", reset + PAST_GRACE_MS + 1000, "UTC")),
    "2026-12-03T10:05:00.000Z",
  );
});

Deno.test("Claude weekly: a date with no year, in the named zone", () => {
  const now = at("2026-12-02T12:00:00Z");
  assertEquals(
    iso(parseResetTime("Dec 5, 10am (Europe/London)", now, "Asia/Tokyo")),
    "2026-12-05T10:00:00.000Z",
  );
  // Summer: London is UTC+1.
  assertEquals(
    iso(parseResetTime("Jul 5, 10am (Europe/London)", at("2026-07-01T00:00:00Z"), null)),
    "2026-07-05T09:00:00.000Z",
  );
  // Dec 30 read on Jan 2 is last year's (nearest), Jan 3 read on Dec 30 next year's.
  assertEquals(
    iso(parseResetTime("Dec 30, 10am (UTC)", at("2027-01-02T00:00:00Z"), null)),
    "2026-12-30T10:00:00.000Z",
  );
  assertEquals(
    iso(parseResetTime("Jan 3, 1pm (UTC)", at("2026-12-30T00:00:00Z"), null)),
    "2027-01-03T13:00:00.000Z",
  );
  assertEquals(
    iso(parseResetTime("5 Dec 2026 10:00 (UTC)", now, null)),
    "2026-12-05T10:00:00.000Z",
  );
});

Deno.test("Claude out of credits: minutes, a zone east of UTC by a half hour", () => {
  const now = at("2026-12-02T06:00:00Z"); // 11:30 in Colombo
  assertEquals(iso(parseResetTime("2:34pm (Asia/Colombo)", now, null)), "2026-12-02T09:04:00.000Z");
});

Deno.test("Codex: a local time with no zone is in the agent's TZ, else the machine's", () => {
  const now = at("2026-12-02T06:00:00Z");
  // 06:00 UTC is 11:30 in Kolkata: 10:05 is 85 min behind (past the grace): tomorrow's.
  assertEquals(iso(parseResetTime("10:05 AM", now, "Asia/Kolkata")), "2026-12-03T04:35:00.000Z");
  assertEquals(
    iso(parseResetTime("10:05 AM", now, "America/New_York")),
    "2026-12-02T15:05:00.000Z",
  );
  assertEquals(iso(parseResetTime("10:05 AM on 5 Dec", now, "UTC")), "2026-12-05T10:05:00.000Z");
  // A zone Intl does not know falls back to the machine's (not an error).
  assertEquals(typeof parseResetTime("10:05 AM", now, "Not/AZone"), "number");
});

Deno.test("Gemini: a GMT offset, and US abbreviations", () => {
  const now = at("2026-12-02T06:00:00Z");
  assertEquals(iso(parseResetTime("2:42 PM GMT+5:30", now, "UTC")), "2026-12-02T09:12:00.000Z");
  assertEquals(iso(parseResetTime("2:42 PM GMT-8", now, "UTC")), "2026-12-02T22:42:00.000Z");
  assertEquals(iso(parseResetTime("2:42 PM PST", now, "Asia/Tokyo")), "2026-12-02T22:42:00.000Z");
  assertEquals(iso(parseResetTime("2:42 PM UTC", now, "Asia/Tokyo")), "2026-12-02T14:42:00.000Z");
});

Deno.test("relative delays, 24-hour clocks, and text with no time", () => {
  const now = at("2026-12-02T06:00:00Z");
  assertEquals(parseResetTime("in 2h 13m", now, null), now + (2 * 60 + 13) * 60_000);
  assertEquals(parseResetTime("in 3m 4s", now, null), now + 184_000);
  assertEquals(iso(parseResetTime("14:05", now, "UTC")), "2026-12-02T14:05:00.000Z");
  assertEquals(parseResetTime("soon", now, "UTC"), null);
  assertEquals(parseResetTime("13pm", now, "UTC"), null);
  assertEquals(parseResetTime("", now, "UTC"), null);
});

Deno.test("DST: a gap moves forward, an overlap is the first occurrence", () => {
  // 2026-03-08: 2:00 PST → 3:00 PDT in Los Angeles. 2:30am does not exist.
  const before = at("2026-03-08T08:00:00Z"); // 00:00 PST
  assertEquals(
    iso(parseResetTime("2:30am (America/Los_Angeles)", before, null)),
    "2026-03-08T10:30:00.000Z",
  );
  assertEquals(
    iso(parseResetTime("3:30am (America/Los_Angeles)", before, null)),
    "2026-03-08T10:30:00.000Z",
  );
  // 2026-11-01: 2:00 PDT → 1:00 PST. 1:30am happens twice: the first is 08:30 UTC.
  const fall = at("2026-11-01T06:00:00Z"); // 23:00 PDT Oct 31
  assertEquals(
    iso(parseResetTime("1:30am (America/Los_Angeles)", fall, null)),
    "2026-11-01T08:30:00.000Z",
  );
  // Across a change: 1am read at 23:00 the evening before the spring change is 2 h ahead.
  assertEquals(
    iso(parseResetTime("1am (America/Los_Angeles)", before - 3_600_000, null)),
    "2026-03-08T09:00:00.000Z",
  );
});

Deno.test("formatReset and formatDelay: the list's countdown", () => {
  const now = at("2026-12-02T00:47:00Z");
  assertEquals(formatReset(at("2026-12-02T03:00:00Z"), now, "UTC"), "03:00 (2h13m)");
  assertEquals(formatReset(at("2026-12-05T10:00:00Z"), now, "UTC"), "Dec 5 10:00 (3d9h)");
  assertEquals(formatDelay(0), "now");
  assertEquals(formatDelay(35_000), "35s");
  assertEquals(formatDelay(4 * 60_000), "4m");
});
