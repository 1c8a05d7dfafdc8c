/**
 * The server's CPU for clients that do not read (docs/architecture.md,
 * Bounds): a real `lazyshell serve` with 4 sessions printing a screenful
 * every 50 ms (a fixed load, not as fast as they can), its CPU over
 * BENCH_SECONDS (default 8) with no client, then with 4 relaying clients
 * attached that never read (a stopped `lazyshell -H` client, or a
 * SIGSTOPped relay), at 300x80. The figure is the ratio of the two, from
 * the same server in the same run. BENCH_REAL=1: the 4 clients are real
 * `lazyshell attach` processes in PTYs, relaying (LAZYSHELL_CLIENT_RELAY=1,
 * so they acknowledge their frames), stopped with SIGSTOP once attached. BENCH_BEFORE=/path/to/main.ts runs
 * another checkout's server in alternate rounds (a before/after run);
 * BENCH_ROUNDS (default 2) rounds each.
 */

import { startServe } from "../tools/abuse/server.ts";
import { cpuSeconds } from "./tui_harness.ts";
import { hello, RawClient, sleep } from "../tests/attach_lab.ts";
import { SessionStore } from "../src/session/store.ts";
import { screenText, waitFor } from "../src/session/test_util.ts";
import { shellQuote } from "../src/ipc/integrations.ts";

const SECONDS = Number(Deno.env.get("BENCH_SECONDS") ?? "8");
const ROUNDS = Number(Deno.env.get("BENCH_ROUNDS") ?? "2");
const BEFORE = Deno.env.get("BENCH_BEFORE");
const REAL = Deno.env.get("BENCH_REAL") === "1";
const THIS = new URL("../main.ts", import.meta.url).pathname;
const SIZE = { cols: 300, rows: 80 };
/** A screenful of new text every 50 ms: a fixed cost to parse, whoever draws it. */
const FLOOD = `while :; do head -c 12000 /dev/urandom | base64 -w ${
  SIZE.cols - 10
}; sleep 0.05; done`;
const load = () => new TextDecoder().decode(new Deno.Command("uptime").outputSync().stdout).trim();

async function cpuOver(pid: number): Promise<number> {
  const c0 = cpuSeconds(pid);
  const t0 = performance.now();
  await sleep(SECONDS * 1000);
  return (cpuSeconds(pid) - c0) / ((performance.now() - t0) / 1000) * 100;
}

async function round(main: string) {
  await using server = await startServe({ main });
  for (let i = 0; i < 4; i++) await server.call("new", { name: `flood-${i}`, command: FLOOD });
  await sleep(2000);
  const alone = await cpuOver(server.pid);
  const socket = `${server.env.XDG_RUNTIME_DIR}/lazyshell/server-default.sock`;
  const stuck: RawClient[] = [];
  const stopped: number[] = [];
  await using store = new SessionStore({ shell: "/bin/sh", env: server.env, ...SIZE });
  try {
    for (let i = 0; i < 4 && !REAL; i++) {
      const c = await RawClient.open(socket);
      stuck.push(c);
      await c.write(hello(SIZE));
    }
    for (let i = 0; i < 4 && REAL; i++) {
      const client = store.create({
        command: `exec ${shellQuote(Deno.execPath())} run -A --quiet ${shellQuote(main)} attach`,
        env: { ...server.env, LAZYSHELL_CLIENT_RELAY: "1" },
        ...SIZE,
      });
      await waitFor(client, () => /n new/.test(screenText(client)), 60_000, "attached");
      Deno.kill(client.pid, "SIGSTOP");
      stopped.push(client.pid);
    }
    await sleep(1000);
    const withClients = await cpuOver(server.pid);
    const log = `${server.env.XDG_DATA_HOME}/lazyshell/lazyshell.log`;
    let dropped = 0;
    try {
      dropped = Deno.readTextFileSync(log).match(/: Disconnected: /g)?.length ?? 0;
    } catch { /* no log */ }
    return { alone, withClients, dropped, rss: server.rss() / (1024 * 1024) };
  } finally {
    for (const c of stuck) c.close();
    for (const pid of stopped) {
      try {
        Deno.kill(pid, "SIGKILL");
        Deno.kill(pid, "SIGCONT");
      } catch { /* gone */ }
    }
  }
}

console.log(`stopped_clients: 4 flooding sessions, ${SECONDS} s windows; ${load()}`);
const mains = BEFORE ? [["before", BEFORE], ["after", THIS]] : [["this", THIS]];
for (let r = 0; r < ROUNDS; r++) {
  for (const [name, main] of mains) {
    const f = await round(main!);
    console.log(
      `${name}: server CPU ${f.alone.toFixed(1)} % with no client, ${
        f.withClients.toFixed(1)
      } % with 4 ${REAL ? "stopped lazyshell clients" : "clients that never read"} (ratio ${
        (f.withClients / f.alone).toFixed(2)
      }); ` +
        `${f.dropped} dropped meanwhile; RSS ${f.rss.toFixed(0)} MB`,
    );
  }
}
console.log(`done; ${load()}`);
