/**
 * The plugin the plugin benchmarks drive (bench/plugin_host.ts), written
 * the way a third party would: raw JSON Lines on stdin/stdout, no lazyshell
 * imports. `serve`: answers each key with a frame naming it. With
 * BENCH_FLOOD_FPS=N: also sends a full 80x24 coloured frame N times a second.
 */

const encoder = new TextEncoder();
const out = (message: unknown) => {
  const bytes = encoder.encode(JSON.stringify(message) + "\n");
  let at = 0;
  while (at < bytes.length) at += Deno.stdout.writeSync(bytes.subarray(at));
};

const fps = Number(Deno.env.get("BENCH_FLOOD_FPS") ?? "0");
let timer: ReturnType<typeof setInterval> | undefined;
let n = 0;
function floodFrame(): string {
  n++;
  const rows: string[] = [];
  for (let y = 0; y < 24; y++) {
    let row = "";
    for (let x = 0; x < 8; x++) row += `\x1b[3${(x + y + n) % 8}m${String(n + x).padStart(9)} `;
    rows.push(row + "\x1b[0m");
  }
  return rows.join("\n");
}

const decoder = new TextDecoder();
let buffer = "";
for await (const chunk of Deno.stdin.readable) {
  buffer += decoder.decode(chunk, { stream: true });
  let nl: number;
  while ((nl = buffer.indexOf("\n")) >= 0) {
    const line = buffer.slice(0, nl);
    buffer = buffer.slice(nl + 1);
    const msg = JSON.parse(line);
    if (msg.type === "init") {
      out({ type: "manifest", title: "Bench" });
      if (fps > 0) {
        timer = setInterval(() => out({ type: "frame", view: floodFrame() }), 1000 / fps);
      }
    } else if (msg.type === "key") {
      out({ type: "frame", view: `key ${msg.text}` });
    }
  }
}
clearInterval(timer);
