/**
 * Echo and list-update latency over an ssh link with 0, 50 and 200 ms added
 * each way (bench/delay_proxy.ts as the ProxyCommand), lazyshell against
 * tmux in the same run (docs/remote.md, "Measured"):
 *
 * - lazyshell: `lazyshell -H box` in a 120x32 PTY, attached to the remote
 *   server (src/remote/test_util.ts: a real sshd on 127.0.0.1), a `cat`
 *   session focused; tmux: `ssh -t … tmux attach` in the same kind of PTY,
 *   its window running `cat`. Both through the same proxy and sshd.
 * - echo: a letter written to the PTY → the letter on its screen, p50/p95
 *   over BENCH_KEYS keys per delay (default 40), typed in BENCH_ROUNDS
 *   rounds (default 2), each target in turn.
 * - list update: a rename done on the remote side (`ctl rename` there;
 *   `tmux rename-window`), from its command's return → the new name on the
 *   local screen, 5 per delay. Also shown by a third: a local `lazyshell`
 *   TUI whose server watches box (docs/remote.md, "Hosts watched": the
 *   `watch` long poll over its own ssh connection through the same proxy).
 *
 * `BENCH_DELAYS=0,50,200` picks the delays. Prints `uptime` first.
 */

import { SessionStore } from "../src/session/store.ts";
import type { Session } from "../src/session/session.ts";
import { screenText, waitFor } from "../src/session/test_util.ts";
import { localHome, sshdMissing, startSshd } from "../src/remote/test_util.ts";
import { shellQuote } from "../src/ipc/integrations.ts";
import { percentile } from "./tui_harness.ts";
import { request } from "../src/ctl/client.ts";
import { findControlSocket } from "../src/ctl/find.ts";
import { spawnServe } from "../tools/abuse/server.ts";

const MAIN = new URL("../main.ts", import.meta.url).pathname;
const PROXY = new URL("./delay_proxy.ts", import.meta.url).pathname;
const KEYS = Number(Deno.env.get("BENCH_KEYS") ?? "40");
const ROUNDS = Math.max(1, Number(Deno.env.get("BENCH_ROUNDS") ?? "2"));
const DELAYS = (Deno.env.get("BENCH_DELAYS") ?? "0,50,200").split(",").map(Number);
const LETTERS = "abcdefgijknopqrstuvwxyz";
/** Renames timed per delay (BENCH_RENAMES, default 5). */
const RENAMES = Math.max(1, Number(Deno.env.get("BENCH_RENAMES") ?? "5"));
const TMUX = `lzs-remote-bench-${Deno.pid}`;
const WATCH = Deno.env.get("BENCH_WATCH") !== "0";

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
const load = () => new TextDecoder().decode(new Deno.Command("uptime").outputSync().stdout).trim();

interface Target {
  readonly name: string;
  readonly host: Session;
  line: string;
  readonly echo: number[];
  readonly list: number[];
}

let lines = 0;

/** A fresh line that starts with text never typed before (the screen keeps older lines). */
async function freshLine(t: Target): Promise<void> {
  t.host.write("\x15");
  const gone = t.line;
  if (gone) {
    await waitFor(t.host, () => !screenText(t.host).includes(gone), 20_000, "the line to clear");
  }
  t.line = `Zq${Deno.pid % 1000}x${++lines}y`;
  t.host.write(t.line);
  const want = t.line;
  await waitFor(t.host, () => screenText(t.host).includes(want), 20_000, "the line's start");
  await sleep(20);
}

/** `count` keys on a fresh line (targets showing the same `cat` take turns, never mid-line). */
async function typeAndTime(t: Target, count: number): Promise<void> {
  await freshLine(t);
  for (let i = 0; i < count; i++) {
    if (t.line.length >= 40) await freshLine(t);
    const c = LETTERS[(t.echo.length + i) * 7 % LETTERS.length]!;
    t.line += c;
    const want = t.line;
    const t0 = performance.now();
    t.host.write(c);
    await waitFor(t.host, () => screenText(t.host).includes(want), 20_000, `echo of ${want}`);
    t.echo.push(performance.now() - t0);
    await sleep(10);
  }
}

/** From just before the rename is sent (the request written; tmux's client spawned). */
async function timeRename(
  targets: Target[],
  rename: (name: string) => Promise<void>,
  name: string,
) {
  const t0 = performance.now();
  await rename(name);
  await Promise.all(targets.map(async (t) => {
    await waitFor(t.host, () => screenText(t.host).includes(name), 20_000, `the name ${name}`);
    t.list.push(performance.now() - t0);
  }));
}

function tmux(...args: string[]): Promise<Deno.CommandOutput> {
  return new Deno.Command("tmux", { args: ["-L", TMUX, "-f", "/dev/null", ...args] }).output();
}

const fmt = (xs: number[]) =>
  `p50 ${percentile(xs, 50).toFixed(1)} ms, p95 ${percentile(xs, 95).toFixed(1)} ms, ` +
  `max ${Math.max(...xs).toFixed(1)} ms`;

const missing = sshdMissing();
if (missing) {
  console.log(`remote_latency: ${missing}`);
  Deno.exit(0);
}
const tmuxCheck = await new Deno.Command("tmux", { args: ["-V"], stdout: "null" }).output()
  .catch(() => null);
if (!tmuxCheck?.success) {
  console.log("remote_latency: skipped: no tmux (the reference)");
  Deno.exit(0);
}
console.log(`remote_latency: ${KEYS} keys × delays ${DELAYS.join("/")} ms each way; ${load()}`);
await using sshd = await startSshd();
const home = sshd.remoteHome("bench", "control:\n  enabled: true\n");
const local = localHome(
  sshd,
  `hosts:\n  - name: box\n    destination: 127.0.0.1\n    command: ${home.command}\n`,
);
const base = local.HOME!;
const env: Record<string, string> = {
  ...Deno.env.toObject(),
  TERM: "xterm-256color",
  ...local,
  DENO_DIR: Deno.env.get("DENO_DIR") ?? `${Deno.env.get("HOME")}/.cache/deno`,
};
delete env.TMUX;
const remote = async (...args: string[]) => {
  const out = await new Deno.Command(home.command, { args, stdout: "piped", stderr: "piped" })
    .output();
  if (!out.success) throw new Error(new TextDecoder().decode(out.stderr));
};
// The remote side: a lazyshell server with a `cat` session, a tmux server with a `cat` window.
await remote("ctl", "new", "--name", "catl", "--command", "cat").catch(async () => {
  // No server yet: -H starts it (as a user's first `lazyshell -H box` would).
  const out = await new Deno.Command(Deno.execPath(), {
    args: [
      "run",
      "-A",
      "--quiet",
      MAIN,
      "-H",
      "box",
      "ctl",
      "new",
      "--name",
      "catl",
      "--command",
      "cat",
    ],
    env: { ...env, LAZYSHELL_SSH: sshd.sshCommand },
  }).output();
  if (!out.success) throw new Error(new TextDecoder().decode(out.stderr));
});
await tmux("new-session", "-d", "-x", "120", "-y", "32", "-s", "b", "-n", "catt", "cat");
await using store = new SessionStore({ shell: "/bin/sh", env, cols: 120, rows: 32, cwd: base });

try {
  for (const d of DELAYS) {
    const proxy =
      `ProxyCommand=${Deno.execPath()} run -A --quiet ${PROXY} 127.0.0.1 ${sshd.port} ${d}`;
    const ssh = [...sshd.sshArgv, "-o", proxy];
    const lz = store.create({
      command: `exec ${shellQuote(Deno.execPath())} run -A --quiet ${shellQuote(MAIN)} -H box`,
      env: { ...env, LAZYSHELL_SSH: ssh.map(shellQuote).join(" ") },
    });
    const t0 = performance.now();
    await waitFor(lz, () => /catl/.test(screenText(lz)) && /n new/.test(screenText(lz)), 60_000);
    const attachMs = performance.now() - t0;
    lz.write("\r");
    await waitFor(lz, () => /TERMINAL|ctrl\+\]/i.test(screenText(lz)), 30_000, "focus");
    const tm = store.create({
      command: `exec ${
        ssh.map(shellQuote).join(" ")
      } -t 127.0.0.1 tmux -L ${TMUX} -f /dev/null attach -t b`,
    });
    const t1 = performance.now();
    await waitFor(tm, () => /\[b\]/.test(screenText(tm)), 60_000, "the tmux status line");
    const tmuxAttachMs = performance.now() - t1;
    await sleep(500);
    // A local server watching box through the same proxy, and a client of it showing its list
    // (BENCH_WATCH=0: neither, to see what they cost the others).
    const watchEnv = { ...env, LAZYSHELL_SSH: ssh.map(shellQuote).join(" ") };
    const serve = WATCH ? spawnServe(watchEnv) : null;
    await serve?.ready;
    const wl = WATCH
      ? store.create({
        command: `exec ${shellQuote(Deno.execPath())} run -A --quiet ${shellQuote(MAIN)}`,
        env: watchEnv,
      })
      : null;
    if (wl) {
      await waitFor(
        wl,
        () => /▸ box · up/.test(screenText(wl)) && /catl/.test(screenText(wl)),
        60_000,
        "box watched",
      );
    }
    const w: Target | null = wl
      ? { name: "watched list (TUI)", host: wl, line: "", echo: [], list: [] }
      : null;
    const a: Target = { name: "lazyshell -H", host: lz, line: "", echo: [], list: [] };
    const b: Target = { name: "ssh -t tmux attach", host: tm, line: "", echo: [], list: [] };
    // With no delay, the same two without ssh: where the link's own cost shows.
    const refs: Target[] = [];
    if (d === 0) {
      const relay = store.create({
        command: `exec ${shellQuote(home.command)}`,
        env: { ...env, ...home.env, TERM: "xterm-256color", LAZYSHELL_CLIENT_RELAY: "1" },
      });
      await waitFor(
        relay,
        () => /catl/.test(screenText(relay)) && /n new/.test(screenText(relay)),
        60_000,
      );
      relay.write("\r");
      await waitFor(relay, () => /TERMINAL|ctrl\+\]/i.test(screenText(relay)), 30_000, "focus");
      const local = store.create({ command: `exec tmux -L ${TMUX} -f /dev/null attach -t b` });
      await waitFor(local, () => /\[b\]/.test(screenText(local)), 60_000, "the tmux status line");
      await sleep(500);
      refs.push({ name: "local relay client", host: relay, line: "", echo: [], list: [] });
      refs.push({ name: "local tmux attach", host: local, line: "", echo: [], list: [] });
    }
    for (let r = 0; r < ROUNDS; r++) {
      await typeAndTime(a, Math.ceil(KEYS / ROUNDS));
      await typeAndTime(b, Math.ceil(KEYS / ROUNDS));
      for (const t of refs) await typeAndTime(t, Math.ceil(KEYS / ROUNDS));
    }

    const control = await findControlSocket(home.env, () => Promise.resolve(true));
    const rename = async (target: string, name: string) => {
      const { response } = await request(control, "rename", { target, name }, 10_000, home.env);
      if (!response.ok) throw new Error(response.error);
    };
    let current = "catl";
    const renamed = (n: string) => rename(current, n).then(() => void (current = n));
    for (let i = 0; i < RENAMES; i++) {
      await timeRename(
        [a, ...refs.filter((t) => !t.name.includes("tmux"))],
        renamed,
        `catl${d}x${i}`,
      );
      // The watched list on a rename of its own: this process reads every PTY on one 50 ms grid
      // (src/util/ticker.ts), so a screen whose bytes come just after another's waits for the
      // next grid point; timed together, the second of two targets reads ~40 ms late.
      // After a change the watcher asks again (`watch`, one one-way trip to get there): a change
      // within that trip waits for it. Timed here: an isolated change, the ask back in place.
      if (w) {
        await sleep(2 * d + 100);
        await timeRename([w], renamed, `catw${d}x${i}`);
      }
      await timeRename(
        [b, ...refs.filter((t) => t.name.includes("tmux"))],
        (n) => tmux("rename-window", "-t", "b", n).then(() => {}),
        `catt${d}x${i}`,
      );
    }
    await rename(current, "catl");
    console.log(`\n+${d} ms each way (${load()})`);
    for (const t of refs) {
      console.log(
        `  (no ssh) ${t.name.padEnd(20)} echo ${fmt(t.echo)}; list update ${fmt(t.list)}`,
      );
      t.host.write(t.name.includes("tmux") ? "\x02d" : "\x1d");
      await sleep(100);
      if (!t.name.includes("tmux")) t.host.write("d");
      await t.host.exited;
    }
    console.log(
      `  attach → first frame: lazyshell ${attachMs.toFixed(0)} ms, tmux ${
        tmuxAttachMs.toFixed(0)
      } ms`,
    );
    for (const t of [a, b]) {
      console.log(`  ${t.name.padEnd(20)} echo ${fmt(t.echo)}; list update ${fmt(t.list)}`);
    }
    console.log(
      `  ratio lazyshell/tmux: echo p50 ${
        (percentile(a.echo, 50) / percentile(b.echo, 50)).toFixed(2)
      }, ` +
        `p95 ${(percentile(a.echo, 95) / percentile(b.echo, 95)).toFixed(2)}; list update p50 ` +
        `${(percentile(a.list, 50) / percentile(b.list, 50)).toFixed(2)}`,
    );
    if (w && wl && serve) {
      console.log(
        `  ${w.name.padEnd(20)} list update ${fmt(w.list)}; ratio to tmux p50 ${
          (percentile(w.list, 50) / percentile(b.list, 50)).toFixed(2)
        }`,
      );
      wl.write("d");
      await wl.exited;
      await serve.stop();
    }
    lz.write("\x1d");
    await sleep(100);
    lz.write("d");
    await lz.exited;
    tm.write("\x02d"); // tmux: detach
    await tm.exited;
  }
} finally {
  await tmux("kill-server");
}
