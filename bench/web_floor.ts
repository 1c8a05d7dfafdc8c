/**
 * The floor under bench/web.ts's screens case: what a bare Deno program
 * pays to send small WebSocket messages (a spinner's `rows` frame, 80
 * bytes) to 4 clients, nothing else done. A child process serves them
 * (Deno.serve, Deno.upgradeWebSocket, as src/web/server.ts) and wakes on
 * a 50 ms interval throughout, as a busy lazyshell's timer grid does
 * (util/ticker.ts). Its CPU is measured with the clients connected and
 * receiving: nothing; RATE_OLD messages a second each, every message on
 * a timer of its own (as frames went before pacing); RATE_OLD each, then
 * RATE_NEW each, sent at the grid's wake-ups. Rounds alternate (BENCH_ROUNDS, default 3),
 * medians reported, in points of a core above "nothing".
 *
 *   deno run -A bench/web_floor.ts [RATE_OLD RATE_NEW]
 */

import { cpuSeconds, delay } from "./tui_harness.ts";
import { median } from "./stats.ts";

const SECONDS = Number(Deno.env.get("BENCH_SECONDS") ?? "30");
const ROUNDS = Number(Deno.env.get("BENCH_ROUNDS") ?? "3");
const FRAME = JSON.stringify({
  t: "rows",
  id: "session-3",
  data: "\x1b[1;1H\x1b[0m| working\x1b[0m\x1b[K\x1b[1;10H",
});

/** The child: serves /?rate=R&own=1 (own: each message on a timer of its own). */
function serve(): void {
  const sockets = new Set<{ ws: WebSocket; every: number; next: number; own: boolean }>();
  setInterval(() => {
    const now = performance.now();
    for (const s of sockets) {
      if (s.own || s.every === 0 || now < s.next) continue;
      s.next += s.every;
      if (s.ws.readyState === 1) s.ws.send(FRAME);
    }
  }, 50);
  const server = Deno.serve({ hostname: "127.0.0.1", port: 0, onListen: () => {} }, (req) => {
    const url = new URL(req.url);
    const rate = Number(url.searchParams.get("rate") ?? "0");
    const own = url.searchParams.get("own") === "1";
    const { socket, response } = Deno.upgradeWebSocket(req, { idleTimeout: 60 });
    const s = { ws: socket, every: rate > 0 ? 1000 / rate : 0, next: performance.now(), own };
    let timer: ReturnType<typeof setTimeout> | undefined;
    const tick = () => {
      if (socket.readyState === 1) socket.send(FRAME);
      timer = setTimeout(tick, s.every);
    };
    socket.onopen = () => {
      sockets.add(s);
      if (own && rate > 0) timer = setTimeout(tick, s.every);
    };
    socket.onclose = () => {
      sockets.delete(s);
      clearTimeout(timer);
    };
    return response;
  });
  console.log(server.addr.port);
}

async function clients(port: number, rate: number, own: boolean): Promise<() => number> {
  let received = 0;
  const sockets = await Promise.all(
    Array.from({ length: 4 }, () =>
      new Promise<WebSocket>((resolve, reject) => {
        const ws = new WebSocket(`ws://127.0.0.1:${port}/?rate=${rate}&own=${own ? 1 : 0}`);
        ws.onmessage = () => received++;
        ws.onopen = () => resolve(ws);
        ws.onerror = () => reject(new Error("cannot connect"));
      })),
  );
  return () => {
    for (const ws of sockets) ws.close();
    return received;
  };
}

if (import.meta.main && Deno.args[0] === "--serve") serve();
else if (import.meta.main) {
  const rateOld = Number(Deno.args[0] ?? "9.5");
  const rateNew = Number(Deno.args[1] ?? "4");
  const child = new Deno.Command(Deno.execPath(), {
    args: ["run", "-A", new URL(import.meta.url).pathname, "--serve"],
    stdout: "piped",
  }).spawn();
  const reader = child.stdout.pipeThrough(new TextDecoderStream()).getReader();
  const port = Number((await reader.read()).value?.trim());
  const modes = [
    { name: "nothing", rate: 0, own: false },
    { name: `${rateOld}/s each, own timers`, rate: rateOld, own: true },
    { name: `${rateOld}/s each, on the grid`, rate: rateOld, own: false },
    { name: `${rateNew}/s each, on the grid`, rate: rateNew, own: false },
  ];
  const cpu = new Map(modes.map((m) => [m.name, [] as number[]]));
  const rates = new Map(modes.map((m) => [m.name, [] as number[]]));
  console.log(`load before: ${Deno.readTextFileSync("/proc/loadavg").trim()}`);
  try {
    for (let r = 0; r < ROUNDS; r++) {
      for (const m of modes) {
        const stop = await clients(port, m.rate, m.own);
        await delay(1000);
        const c0 = cpuSeconds(child.pid);
        const t0 = performance.now();
        await delay(SECONDS * 1000);
        const s = (performance.now() - t0) / 1000;
        cpu.get(m.name)!.push((cpuSeconds(child.pid) - c0) / s * 100);
        rates.get(m.name)!.push(stop() / (s + 1));
        await delay(500);
      }
    }
  } finally {
    child.kill();
    await child.status;
  }
  const none = median(cpu.get("nothing")!);
  for (const m of modes) {
    const xs = cpu.get(m.name)!;
    console.log(
      `4 clients, ${m.name}: ${median(xs).toFixed(2)} % of a core ` +
        `[${xs.map((x) => x.toFixed(2)).join(", ")}], +${(median(xs) - none).toFixed(2)} point, ` +
        `~${median(rates.get(m.name)!).toFixed(1)} messages/s received`,
    );
  }
  console.log(`load after: ${Deno.readTextFileSync("/proc/loadavg").trim()}`);
}
