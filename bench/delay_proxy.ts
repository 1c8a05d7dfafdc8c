/**
 * An ssh `ProxyCommand` that adds `ms` of delay each way:
 * `deno run -A bench/delay_proxy.ts HOST PORT MS`. Every chunk read from one
 * side is written to the other `ms` after it was read, in order (a link
 * with that one-way latency and no bandwidth limit). For
 * bench/remote_latency.ts.
 */

const [host, port, ms] = Deno.args;
const wait = Number(ms ?? "0");
const conn = await Deno.connect({ hostname: host!, port: Number(port) });

async function pump(
  src: { read(p: Uint8Array): Promise<number | null> },
  dst: { write(p: Uint8Array): Promise<number> },
  end: () => void,
): Promise<void> {
  let chain = Promise.resolve();
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
    const due = performance.now() + wait;
    chain = chain.then(async () => {
      const left = due - performance.now();
      if (left > 0) await new Promise((r) => setTimeout(r, left));
      for (let off = 0; off < data.length;) off += await dst.write(data.subarray(off));
    }).catch(() => {});
  }
  await chain;
  end();
}

await Promise.race([
  pump(Deno.stdin, conn, () => conn.closeWrite().catch(() => {})),
  pump(conn, Deno.stdout, () => {}),
]);
Deno.exit(0);
