/**
 * End to end: clients of different sizes on one session (docs/tui.md,
 * "Clients of different sizes"). A real server; real clients in real PTYs
 * (the recipe) or relaying clients on the attach socket (four of mixed
 * sizes); real shells. Each client draws the session through its own
 * window: nothing is reset or dropped, crash.log stays empty, and a client
 * smaller than the session shows its newest output and its cursor row.
 */

import assert from "node:assert/strict";
import { frame, FrameType } from "../src/wire/protocol.ts";
import { isAlive } from "../src/session/procinfo.ts";
import { screenText, waitFor, waitForText } from "../src/session/test_util.ts";
import { spawnServe } from "../tools/abuse/server.ts";
import { attachLab, hello, listMs, RawClient, sleep } from "./attach_lab.ts";
import { lab } from "./e2e_lab.ts";
import { HeadlessTerminal } from "../src/session/terminal.ts";
import { readScreen } from "../src/session/screen_read.ts";
import { Frame } from "../src/tui/core/frame.ts";
import { layout } from "../src/tui/core/layout.ts";
import { drawPane } from "../src/tui/core/view/pane.ts";
import { initialTuiState } from "../src/model/tui.ts";
import { sessionView } from "../src/model/session.ts";

const WAIT = 30_000;

function crashLog(dataHome: string): string {
  try {
    return Deno.readTextFileSync(`${dataHome}/lazyshell/crash.log`);
  } catch {
    return "";
  }
}

Deno.test("two clients of 100×30 and 160×45 on one shell: `seq 1 100` then typing draws in both; nothing is reset or dropped", async () => {
  await using l = lab("lazyshell-two-sizes-");
  Deno.writeTextFileSync(`${l.dir}/config/lazyshell/config.yml`, "control:\n  enabled: true\n");
  await using serve = spawnServe(l.env, { cwd: l.dir });
  await serve.ready;
  const ctl = async (...args: string[]) => {
    const r = await l.run("ctl", ...args);
    assert.equal(r.code, 0, `ctl ${args.join(" ")}: ${r.stderr}\nserver: ${serve.stderr()}`);
    return r.stdout;
  };
  await ctl("new", "--name", "bash");
  const small = l.client(100, 30, "attach");
  await waitForText(small, "bash", WAIT);
  const big = l.client(160, 45, "attach");
  await waitForText(big, "bash", WAIT);
  // The big client attached last: the shell is its pane's size, taller than the small pane.
  await ctl("send", "bash", "stty size", "--enter");
  await waitForText(big, /│\d+ \d+\s*$/m, WAIT);
  const size = /│(\d+ \d+)\s*$/m.exec(screenText(big))?.[1];
  await ctl("send", "bash", "seq 1 100", "--enter");
  for (const c of ["x", "y", "z"]) {
    await ctl("send", "bash", c);
    await sleep(500);
  }
  // The small client shows the newest rows: the last number and the typed line at the prompt.
  const shows = (s: typeof small) => {
    const text = screenText(s);
    return /^.*│.*\b100\s*$/m.test(text) && /\$ xyz/.test(text);
  };
  let failure = "";
  try {
    await waitFor(small, () => shows(small), WAIT, "the small client to show 100 and `$ xyz`");
  } catch (error) {
    failure = String(error);
  }
  // Each client gets its own frames: the big one may draw the typed line after the small one.
  await waitForText(big, /\$ xyz/, WAIT).catch(() => {});
  const log = crashLog(`${l.dir}/data`);
  const alive = isAlive(serve.pid);
  console.log(
    `two sizes: shell ${size} (rows cols); server ${alive ? "alive" : "DEAD"}, small client ` +
      `${small.status}, big client ${big.status}, crash.log ${log.length} bytes, small client ` +
      `${shows(small) ? "shows" : "does NOT show"} 100 and the typed line`,
  );
  assert.ok(alive, `the server died: ${serve.stderr()}`);
  assert.equal(log, "", `crash.log:\n${log}`);
  assert.equal(small.status, "running", screenText(small));
  assert.equal(big.status, "running", screenText(big));
  assert.equal(failure, "", `small client:\n${screenText(small)}`);
  assert.match(screenText(big), /\$ xyz/);
  // It says what it cannot show: the rows above its window, the columns right of it.
  assert.match(screenText(small), /session 119×43: ↑\d+ →\d+ hidden/, screenText(small));
  for (const c of [small, big]) {
    c.write("d");
    await c.exited;
  }
});

Deno.test("`lazyshell reload` to window_size: smallest sizes a shell shown by 100×30 and 160×45 clients to the smaller pane at once", async () => {
  await using l = lab("lazyshell-two-sizes-reload-");
  const config = `${l.dir}/config/lazyshell/config.yml`;
  Deno.writeTextFileSync(config, "control:\n  enabled: true\n");
  await using serve = spawnServe(l.env, { cwd: l.dir });
  await serve.ready;
  const ctl = async (...args: string[]) => {
    const r = await l.run("ctl", ...args);
    assert.equal(r.code, 0, `ctl ${args.join(" ")}: ${r.stderr}`);
    return r.stdout;
  };
  await ctl("new", "--name", "bash");
  const small = l.client(100, 30, "attach");
  await waitForText(small, "bash", WAIT);
  const big = l.client(160, 45, "attach");
  await waitForText(big, "bash", WAIT);
  await ctl("send", "bash", "stty size", "--enter");
  await waitForText(big, /│43 119\s*$/m, WAIT); // latest: the big client's pane
  Deno.writeTextFileSync(config, "control:\n  enabled: true\nwindow_size: smallest\n");
  const reloaded = await l.run("reload");
  assert.equal(reloaded.code, 0, reloaded.stderr);
  await ctl("send", "bash", "clear; stty size", "--enter");
  await waitForText(big, /│28 74\s*$/m, WAIT); // smallest: the small client's pane
  await waitForText(small, /│28 74\s*$/m, WAIT);
  for (const c of [small, big]) {
    c.write("d");
    await c.exited;
  }
});

Deno.test("four relaying clients of mixed sizes, four sessions printing, 10 s of moving and resizing: no death, no client dropped, crash.log empty", async () => {
  await using a = await attachLab();
  // Output of every kind a pane redraws part of: one row rewritten at the bottom, rows written
  // anywhere by cursor moves, lines scrolling, a clear now and then.
  const commands = [
    "seq 1 200; while :; do printf '\\r%s ' $RANDOM; sleep 0.05; done",
    "while :; do printf '\\033[%d;%dH%s' $((RANDOM%70+1)) $((RANDOM%150+1)) $RANDOM; sleep 0.02; done",
    "while :; do seq 1 $((RANDOM%40)); sleep 0.1; done",
    "while :; do seq 1 80; sleep 0.3; printf '\\033[H\\033[2J'; sleep 0.2; done",
  ];
  for (const [i, command] of commands.entries()) {
    await a.server.call("new", { name: `p${i}`, command });
  }
  const sizes = [[100, 30], [160, 45], [80, 24], [200, 60]] as const;
  const clients: RawClient[] = [];
  const exits: Promise<unknown>[] = [];
  for (const [cols, rows] of sizes) {
    const c = await RawClient.open(a.socket);
    await c.write(hello({ cols, rows }));
    exits.push(c.read());
    clients.push(c);
  }
  let seed = 7;
  const random = (n: number) => {
    seed = (seed * 1103515245 + 12345) & 0x7fffffff;
    return seed % n;
  };
  const t0 = performance.now();
  let steps = 0;
  let lists = 0;
  // Each client moves through the list, types into the selected session (claiming its size),
  // and now and then resizes, at random.
  while (performance.now() - t0 < 10_000) {
    const c = clients[random(clients.length)]!;
    const r = random(10);
    const keys = r < 4 ? "j" : r < 7 ? "k" : r < 8 ? "\r#\x1d" : null;
    if (keys) await c.write(frame(FrameType.Input, keys));
    else {
      const [cols, rows] = sizes[random(sizes.length)]!;
      await c.write(frame(FrameType.Resize, { cols: cols - random(20), rows: rows - random(8) }));
    }
    steps++;
    if (steps % 20 === 0 && (await listMs(a, 10_000)) !== null) lists++;
    await sleep(20);
  }
  const ended = await Promise.all(
    exits.map((e) => Promise.race([e.then(() => true), sleep(0).then(() => false)])),
  );
  const log = crashLog(a.server.env.XDG_DATA_HOME!);
  const alive = a.alive();
  console.log(
    `four sizes: ${steps} actions in 10 s, ctl list answered ${lists} times; server ` +
      `${alive ? "alive" : "DEAD"}, clients ended: ${ended.filter(Boolean).length} of 4, ` +
      `crash.log ${log.length} bytes`,
  );
  for (const c of clients) c.close();
  assert.ok(alive, `the server died: ${a.server.stderr()}`);
  assert.deepEqual(ended, [false, false, false, false]);
  assert.equal(log, "", `crash.log:\n${log}`);
  assert.ok(clients.every((c) => c.output > 0));
});

Deno.test("Claude Code's permission prompt at 120×32, shown by an 80×24 client: the question and every option are in view", async () => {
  // fixtures/captures/claude-tool: the bytes Claude Code wrote, up to where its prompt is drawn.
  const dir = new URL("../fixtures/captures/claude-tool/", import.meta.url).pathname;
  const truth = JSON.parse(Deno.readTextFileSync(`${dir}truth.json`)) as {
    timeline: { state: string; note: string; screen_settled_offset: number }[];
  };
  const at = truth.timeline.find((l) => l.state === "blocked" && !/expected next/.test(l.note))!
    .screen_settled_offset;
  using t = new HeadlessTerminal({ cols: 120, rows: 32 });
  t.write(Deno.readFileSync(`${dir}output.raw`).subarray(0, at));
  await t.flush();
  const screen = readScreen(t, (c, r) => new Frame(c, r)).grid;
  const state = {
    ...initialTuiState(80, 24, 0),
    sessions: [sessionView("s1", { name: "claude" })],
    selected: "s1",
  };
  const pane = layout(80, 24).pane;
  const f = new Frame(80, 24);
  drawPane(f, pane, state, state.sessions[0]!, screen, undefined);
  const shown = f.toText().split("\n").map((l) => l.slice(pane.x)).join("\n");
  console.log(
    `claude-tool at byte ${at}, 120×32 in a ${pane.width}×${pane.height} pane:\n${shown}`,
  );
  for (const text of ["Do you want to proceed?", "1. Yes", "4. No", "Esc to cancel"]) {
    assert.ok(shown.includes(text), `${text} not shown`);
  }
  assert.match(shown, /session 120×32: ↑\d+ ↓\d+ →\d+ hidden/);
});
