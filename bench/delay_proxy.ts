/**
 * An ssh `ProxyCommand` that adds `ms` of delay each way:
 * `deno run -A bench/delay_proxy.ts HOST PORT MS [BYTES_PER_SECOND]`. Every
 * chunk read from one side is written to the other `ms` after it was read,
 * in order (a link with that one-way latency); with a rate, no faster than
 * that each way. For bench/remote_latency.ts and bench/remote_flood.ts.
 */

const [host, port, ms] = Deno.args;
const wait = Number(ms ?? "0");
const rate = Number(Deno.args[3] ?? "0");
const conn = await Deno.connect({ hostname: host!, port: Number(port) });

async function pump(
  src: { read(p: Uint8Array): Promise<number | null> },
  dst: { write(p: Uint8Array): Promise<number> },
  end: () => void,
): Promise<void> {
  let chain = Promise.resolve();
  let free = 0; // when the link has sent what it was given (rate-limited)
  let pending = 0;
  const buf = new Uint8Array(64 * 1024);
  for (;;) {
    let n: number | null;
    try {
      n = await src.read(buf);
    } catch {
      n = null;
    }
    if (n === null) break;
    const data = buf.slice(0, n);
    let due = performance.now() + wait;
    if (rate > 0) {
      free = Math.max(free, performance.now()) + (n / rate) * 1000;
      due = Math.max(due, free + wait);
    }
    pending += n;
    chain = chain.then(async () => {
      const left = due - performance.now();
      if (left > 0) await new Promise((r) => setTimeout(r, left));
      for (let off = 0; off < data.length;) off += await dst.write(data.subarray(off));
    }).catch(() => {}).finally(() => (pending -= data.length));
    // A link holds a window, not everything: past 64 KiB in flight, the sender waits (TCP's push-back).
    if (rate > 0 && pending > 64 * 1024) await chain;
  }
  await chain;
  end();
}

await Promise.race([
  pump(Deno.stdin, conn, () => conn.closeWrite().catch(() => {})),
  pump(conn, Deno.stdout, () => {}),
]);
Deno.exit(0);
