import assert from "node:assert/strict";
import { UserError } from "../errors.ts";
import { SessionStore } from "../session/store.ts";
import type { Notification } from "./policy.ts";
import { compilePattern, WATCH_INTERVAL_MS } from "./watch_rules.ts";
import { Watchers } from "./watchers.ts";
import { TEST_SHELL, testEnv } from "../session/test_util.ts";

/** Runs `command` to its end in a real session with watchers; time is injected. */
async function watch(
  command: string,
  setup: (w: Watchers, s: import("../session/session.ts").Session) => void,
  options: { step?: number; cols?: number } = {},
) {
  await using store = new SessionStore({
    shell: TEST_SHELL,
    env: testEnv(),
    cols: options.cols ?? 80,
    rows: 10,
  });
  let now = 1_000_000;
  const sent: Notification[] = [];
  const watchers = new Watchers({
    notify: (n) => sent.push(n),
    now: () => (now += options.step ?? 0),
  });
  // `read` holds the command until the watchers are set up.
  const session = store.create({ command: `read -r go; ${command}` });
  setup(watchers, session);
  session.write("go\n", false);
  await session.exited;
  return { sent, watchers, session };
}

Deno.test("Watchers: a burst of 200 matching lines gives one notification", async () => {
  const { sent, watchers, session } = await watch(
    `i=0; while [ $i -lt 200 ]; do i=$((i+1)); echo "npm ERR! line $i"; done`,
    (w, s) => w.add(s, [{ pattern: "ERR!", notify: true }]),
  );
  assert.equal(sent.length, 1);
  assert.equal(sent[0]!.text, `${session.name}: ERR! matched — npm ERR! line 1`);
  assert.equal(sent[0]!.reason, "watch");
  const [info] = watchers.list(session.id);
  assert.equal(info!.matches, 200);
  assert.equal(info!.lastLine, "npm ERR! line 200");
});

Deno.test("Watchers notify again once 3 s have passed for that pattern", async () => {
  const { sent } = await watch(
    `echo "ERR! a"; echo "ERR! b"; echo "WARN c"`,
    (w, s) => w.add(s, [{ pattern: "ERR!", notify: true }, { pattern: "WARN", notify: true }]),
    { step: WATCH_INTERVAL_MS },
  );
  assert.deepEqual(sent.map((n) => n.text.replace(/^.*?: /, "")), [
    "ERR! matched — ERR! a",
    "ERR! matched — ERR! b",
    "WARN matched — WARN c",
  ]);
});

Deno.test("Watchers test completed lines once, after \\r overwrites, never partial ones", async () => {
  const { sent, watchers, session } = await watch(
    `printf 'ERR! progress 10%%\\r                  \\rall good\\n'; printf 'ERR! no newline'`,
    (w, s) => w.add(s, [{ pattern: "ERR!", notify: true }]),
  );
  assert.deepEqual(sent, []);
  assert.equal(watchers.list(session.id)[0]!.matches, 0);
});

Deno.test("Watchers join a soft-wrapped line before matching", async () => {
  const { sent } = await watch(
    `echo "0123456789012345 FATAL: disk full"`,
    (w, s) => w.add(s, [{ pattern: "FATAL: disk", notify: true }]),
    { cols: 20 },
  );
  assert.equal(sent.length, 1);
  assert.match(sent[0]!.text, /— 0123456789012345 FATAL: disk full$/);
});

Deno.test("Watchers pause while the alternate screen is active", async () => {
  const { sent, watchers, session } = await watch(
    `printf '\\033[?1049h'; echo "ERR! inside vim"; echo "ERR! again"; printf '\\033[?1049l'; echo "ERR! after"`,
    (w, s) => w.add(s, [{ pattern: "ERR!", notify: true }]),
    { step: WATCH_INTERVAL_MS },
  );
  assert.deepEqual(sent.map((n) => n.text.replace(/^.*— /, "")), ["ERR! after"]);
  assert.equal(watchers.list(session.id)[0]!.matches, 1);
});

Deno.test("Watchers: notify false counts matches without notifying", async () => {
  const { sent, watchers, session } = await watch(
    `echo "GET /health 200"; echo "GET /health 200"`,
    (w, s) => w.add(s, [{ pattern: "health", notify: false }]),
  );
  assert.deepEqual(sent, []);
  assert.equal(watchers.list(session.id)[0]!.matches, 2);
});

Deno.test("Watchers: a live pattern adds to the file's, is replaced, and '' disarms it", async () => {
  const { sent, watchers, session } = await watch(
    `echo "ERR! one"; echo "panic: two"; echo "Traceback three"`,
    (w, s) => {
      w.add(s, [{ pattern: "ERR!", notify: true }]);
      w.arm(s, "panic");
      w.arm(s, "Traceback");
      assert.equal(w.armed(s.id), "Traceback");
    },
    { step: WATCH_INTERVAL_MS },
  );
  assert.deepEqual(sent.map((n) => n.text.replace(/^.*?: /, "")), [
    "ERR! matched — ERR! one",
    "Traceback matched — Traceback three",
  ]);
  watchers.arm(session, "");
  assert.equal(watchers.armed(session.id), null);
  assert.deepEqual(watchers.list(session.id).map((w) => [w.pattern, w.source]), [["ERR!", "file"]]);
});

Deno.test("Watchers refuse an invalid pattern and keep the armed one", async () => {
  const { sent, watchers, session } = await watch(
    `echo "panic: boom"`,
    (w, s) => {
      w.arm(s, "panic");
      assert.throws(
        () => w.arm(s, "(unclosed"),
        (e) => e instanceof UserError && /^Invalid pattern "\(unclosed": .+/.test(e.message),
      );
      assert.equal(w.armed(s.id), "panic");
    },
  );
  assert.equal(sent.length, 1);
  assert.equal(watchers.armed(session.id), "panic");
});

Deno.test("compilePattern() explains what is wrong", () => {
  assert.throws(
    () => compilePattern("[a-"),
    /^UserError: Invalid pattern "\[a-": Unterminated character class$/,
  );
  assert.throws(() => compilePattern("x".repeat(600)), /Pattern too long/);
  assert.equal(compilePattern("ERR!").test("npm ERR! x"), true);
});

Deno.test("Watchers coalesce match events: a burst of 200 matches is a few events", async () => {
  await using store = new SessionStore({ shell: TEST_SHELL, env: testEnv(), cols: 80, rows: 10 });
  using watchers = new Watchers({ notify: () => {} });
  const session = store.create({
    command: `read -r go; i=0; while [ $i -lt 200 ]; do i=$((i+1)); echo "ERR! $i"; done`,
  });
  watchers.add(session, [{ pattern: "ERR!", notify: false }]);
  let events = 0;
  const all = new Promise<void>((resolve) => {
    watchers.on((e) => {
      if (e.type !== "match") return;
      events++;
      if (watchers.list(session.id)[0]!.matches === 200) resolve();
    });
  });
  session.write("go\n", false);
  await session.exited;
  await all;
  assert.ok(events >= 1 && events < 100, `${events} events for 200 matches`);
});
