import assert from "node:assert/strict";
import { StatsCommand, type StatsLine } from "./stats_command.ts";

/** Resolves with the next result for `id`. */
function next(stats: StatsCommand, id: string): Promise<StatsLine> {
  return new Promise((resolve) => {
    const sub = stats.on((sid, line) => {
      if (sid !== id) return;
      sub[Symbol.dispose]();
      resolve(line);
    });
  });
}

const cwd = Deno.cwd();

Deno.test("StatsCommand shows the first line, with LAZYSHELL_SESSION_ID set", async () => {
  await using stats = new StatsCommand({
    command: 'echo "tokens for $LAZYSHELL_SESSION_ID: 1.2k"; echo second line',
  });
  const result = next(stats, "session-4");
  stats.select({ id: "session-4", cwd });
  const line = await result;
  assert.deepEqual([line.text, line.failed], ["tokens for session-4: 1.2k", false]);
  assert.equal(stats.line("session-4"), line);
});

Deno.test("StatsCommand: a failing or absent command is a one-word marker", async () => {
  for (const command of ["exit 3", "no-such-stats-command-xyz"]) {
    await using stats = new StatsCommand({ command });
    const result = next(stats, "session-1");
    stats.select({ id: "session-1", cwd });
    const line = await result;
    assert.deepEqual([line.text, line.failed], ["stats:err", true]);
  }
});

Deno.test("StatsCommand kills a hanging command past its bound", async () => {
  await using stats = new StatsCommand({ command: "echo partial; exec sleep 60", timeoutMs: 300 });
  const result = next(stats, "session-1");
  stats.select({ id: "session-1", cwd });
  const line = await result;
  assert.deepEqual([line.text, line.failed], ["stats:timeout", true]);
});

Deno.test("StatsCommand runs for the selected session only, at most once per interval", async () => {
  const dir = await Deno.makeTempDir();
  try {
    await using stats = new StatsCommand({
      command: `echo "$LAZYSHELL_SESSION_ID" >> '${dir}/runs'; echo ok`,
      intervalMs: 60_000,
    });
    const first = next(stats, "session-1");
    stats.select({ id: "session-1", cwd });
    await first;
    const second = next(stats, "session-2");
    stats.select({ id: "session-2", cwd });
    await second;
    // Back to session-1 within the interval: its line is fresh, nothing runs;
    // session-3 then runs, which proves the loop moved on without session-1.
    stats.select({ id: "session-1", cwd });
    const third = next(stats, "session-3");
    stats.select({ id: "session-3", cwd });
    await third;
    const runs = (await Deno.readTextFile(`${dir}/runs`)).trim().split("\n");
    assert.deepEqual(runs, ["session-1", "session-2", "session-3"]);
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("StatsCommand without a command runs nothing", async () => {
  await using stats = new StatsCommand({ command: null });
  stats.select({ id: "session-1", cwd });
  assert.equal(stats.line("session-1"), null);
});
