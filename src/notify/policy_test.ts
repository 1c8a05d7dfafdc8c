import { deepStrictEqual as assertEquals } from "node:assert/strict";
import {
  failedText,
  hostBytes,
  isWatching,
  oscNotification,
  RateLimiter,
  sanitize,
  stateText,
  tmuxWrap,
  watchText,
} from "./policy.ts";

Deno.test("stateText() names the session and the reason, msg when present", () => {
  assertEquals(
    stateText("api", "blocked", "approve Bash: touch lab-file.txt"),
    "api: needs you — approve Bash: touch lab-file.txt",
  );
  assertEquals(stateText("api", "blocked", null), "api: needs you");
  assertEquals(stateText("api", "done", null), "api: done");
  assertEquals(stateText("api", "done", "  "), "api: done");
  assertEquals(failedText("build", 2), "build: command failed (exit 2)");
  assertEquals(
    watchText("api", "ERR!", "  npm ERR! code 1 "),
    "api: ERR! matched — npm ERR! code 1",
  );
});

Deno.test("stateText() says why a turn failed: the kind in words and the HTTP status", () => {
  assertEquals(
    stateText("api", "error", "Request rejected (429) · rate limit", "rate_limit"),
    "api: failed — rate limited (429)",
  );
  assertEquals(
    stateText("api", "error", "Quota exceeded.", "quota"),
    "api: failed — quota exceeded",
  );
  assertEquals(
    stateText("api", "error", "Connection reset by server", null),
    "api: failed — Connection reset by server",
  );
  assertEquals(stateText("api", "error", null, null), "api: failed");
});

Deno.test("oscNotification() writes OSC 9 then OSC 777, BEL terminated", () => {
  assertEquals(
    oscNotification("lazyshell", "api: done"),
    "\x1b]9;api: done\x07\x1b]777;notify;lazyshell;api: done\x07",
  );
});

Deno.test("oscNotification() cannot be broken out of by control characters or ; in the title", () => {
  assertEquals(
    oscNotification("a;b", "x\x07y\x1b\\z\nw"),
    "\x1b]9;x y \\z w\x07\x1b]777;notify;a,b;x y \\z w\x07",
  );
});

Deno.test("tmuxWrap() wraps each OSC in a DCS passthrough with ESC doubled", () => {
  assertEquals(
    tmuxWrap("\x1b]9;hi\x07\x1b]777;notify;t;hi\x07"),
    "\x1bPtmux;\x1b\x1b]9;hi\x07\x1b\\" + "\x1bPtmux;\x1b\x1b]777;notify;t;hi\x07\x1b\\",
  );
  assertEquals(
    hostBytes("s: done", false),
    "\x1b]9;s: done\x07\x1b]777;notify;lazyshell;s: done\x07",
  );
  assertEquals(
    hostBytes("s: done", true),
    "\x1bPtmux;\x1b\x1b]9;s: done\x07\x1b\\\x1bPtmux;\x1b\x1b]777;notify;lazyshell;s: done\x07\x1b\\",
  );
});

Deno.test("sanitize() bounds the text", () => {
  const long = "x".repeat(1000);
  assertEquals(sanitize(long, 10), "xxxxxxxxx…");
  assertEquals(sanitize("a\t\tb"), "a b");
});

Deno.test("RateLimiter allows one per key and interval, and forgets on reset", () => {
  const limiter = new RateLimiter();
  assertEquals(limiter.allow("s1\0blocked", 1000, 30_000), true);
  assertEquals(limiter.allow("s1\0blocked", 2000, 30_000), false);
  assertEquals(limiter.allow("s1\0done", 2000, 30_000), true);
  assertEquals(limiter.allow("s2\0blocked", 2000, 30_000), true);
  assertEquals(limiter.allow("s1\0blocked", 31_000, 30_000), true);
  limiter.reset("s1\0");
  assertEquals(limiter.allow("s1\0blocked", 31_001, 30_000), true);
  assertEquals(limiter.allow("s2\0blocked", 3000, 30_000), false);
  // A clock that went backwards never locks a key out.
  assertEquals(limiter.allow("s2\0blocked", 500, 30_000), true);
});

Deno.test("isWatching() is true only for the selected session in terminal mode", () => {
  assertEquals(isWatching({ selected: "session-1", terminal: true }, "session-1"), true);
  assertEquals(isWatching({ selected: "session-1", terminal: false }, "session-1"), false);
  assertEquals(isWatching({ selected: "session-2", terminal: true }, "session-1"), false);
  assertEquals(isWatching({ selected: null, terminal: true }, "session-1"), false);
});
