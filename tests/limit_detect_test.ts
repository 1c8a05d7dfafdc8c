/**
 * `lazyshell detect` on a capture directory reads a usage limit's reset on the
 * capture's clock (`started_epoch_ms` plus the chunk times) and in its agent's
 * zone (meta.json `env.TZ`), so a replay reads the reset as it was read live
 * (docs/limits.md). The captures here are written by the test: a screen with
 * each CLI's limit lines.
 */

import assert from "node:assert/strict";
import { detectFile } from "../src/cli/commands/detect.ts";

async function capture(
  screen: string,
  meta: Record<string, unknown>,
  chunkAtMs: number,
): Promise<string> {
  const dir = await Deno.makeTempDir({ prefix: "limits-detect-" });
  const bytes = new TextEncoder().encode(screen.replaceAll("\n", "\r\n"));
  await Deno.writeFile(`${dir}/output.raw`, bytes);
  await Deno.writeTextFile(`${dir}/meta.json`, JSON.stringify({ cols: 100, rows: 24, ...meta }));
  await Deno.writeTextFile(
    `${dir}/chunks.jsonl`,
    JSON.stringify({ t_ms: chunkAtMs, off: 0, len: bytes.length }) + "\n",
  );
  return dir;
}

const RULE = "─".repeat(98);

const CODEX = `■ You've hit your usage limit. Upgrade to Pro or try again at 10:05 AM.

› Ask Codex to do anything

  ? for shortcuts`;

Deno.test("detect: Codex's zoneless reset is read in the capture's TZ at its clock", async () => {
  // Started 2026-12-02 03:59:00 UTC; the limit is drawn 60 s later = 09:30 in Kolkata.
  const started = Date.parse("2026-12-02T03:59:00Z");
  const dir = await capture(
    CODEX,
    { agent: "codex", started_epoch_ms: started, env: { TZ: "Asia/Kolkata" } },
    60_000,
  );
  try {
    const [row] = await detectFile(dir, {});
    assert.deepEqual(
      [row!.state, row!.kind, row!.rule, row!.resetsAt],
      ["error", "limit", "turn-failed", "2026-12-02T04:35:00.000Z"],
    );
    // Another zone, another instant: the TZ is what the agent printed in.
    await Deno.writeTextFile(
      `${dir}/meta.json`,
      JSON.stringify({
        cols: 100,
        rows: 24,
        agent: "codex",
        started_epoch_ms: started,
        env: { TZ: "America/New_York" },
      }),
    );
    const [ny] = await detectFile(dir, {});
    assert.equal(ny!.resetsAt, "2026-12-02T15:05:00.000Z");
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("detect: Claude's reset in its named zone", async () => {
  const screen = `  ⎿  You've hit your 5-hour limit · resets 1am (America/Los_Angeles)

${RULE}
❯\u00a0
${RULE}
  ⚠ Usage limit reached · limit resets 1am`;
  // 23:30 PST: 1am is 90 min ahead.
  const dir = await capture(
    screen,
    { agent: "claude", started_epoch_ms: Date.parse("2026-12-02T07:29:00Z") },
    60_000,
  );
  try {
    const [row] = await detectFile(dir, { declared: false });
    assert.deepEqual(
      [row!.state, row!.kind, row!.msg, row!.resetsAt],
      ["error", "limit", "You've hit your 5-hour limit", "2026-12-02T09:00:00.000Z"],
    );
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("detect: Codex declaring error over OSC 7501 takes the limit and its reset from the screen", async () => {
  const started = Date.parse("2026-12-02T03:59:00Z");
  const dir = await capture(
    "\x1b]7501;state=error\x1b\\" + CODEX,
    { agent: "codex", started_epoch_ms: started, env: { TZ: "Asia/Kolkata" } },
    60_000,
  );
  try {
    const [declared] = await detectFile(dir, {});
    assert.deepEqual(
      [declared!.state, declared!.kind, declared!.source, declared!.resetsAt],
      ["error", "limit", "declared", "2026-12-02T04:35:00.000Z"],
    );
    const [screen] = await detectFile(dir, { declared: false });
    assert.deepEqual(
      [screen!.state, screen!.kind, screen!.source, screen!.resetsAt],
      ["error", "limit", "screen", "2026-12-02T04:35:00.000Z"],
    );
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});
