import { SessionStore } from "../src/session/store.ts";
import { DetectionHub } from "../src/app/detection.ts";
import { loadCatalogSync } from "../src/app/catalog.ts";
import { Runtime } from "../src/app/runtime.ts";
import { SPINNER } from "./tui_harness.ts";

const S = Number(Deno.env.get("S") ?? "10");
function cpu(): number {
  const s = Deno.readTextFileSync("/proc/self/stat");
  const r = s.slice(s.lastIndexOf(")") + 2).split(" ");
  return (Number(r[11]) + Number(r[12])) / 100;
}
async function measure(mode: string) {
  let dispose: () => Promise<void>;
  if (mode === "runtime") {
    const rt = new Runtime({ cols: 89, rows: 30 });
    for (let i = 0; i < 8; i++) rt.createSession({ command: SPINNER });
    dispose = () => rt[Symbol.asyncDispose]();
  } else {
    const store = new SessionStore({ shell: "/bin/sh", cols: 89, rows: 30 });
    for (let i = 0; i < 8; i++) store.create({ command: mode === "quiet" ? "sleep 100" : SPINNER });
    const hub = mode === "hub"
      ? new DetectionHub(store, loadCatalogSync({ env: Deno.env.toObject() }))
      : null;
    dispose = async () => {
      hub?.[Symbol.dispose]();
      await store[Symbol.asyncDispose]();
    };
  }
  await new Promise((r) => setTimeout(r, 2000));
  const c0 = cpu();
  const t0 = performance.now();
  await new Promise((r) => setTimeout(r, S * 1000));
  console.log(JSON.stringify((globalThis as any).C));
  console.log(`${mode} ${((cpu() - c0) / ((performance.now() - t0) / 1000) * 100).toFixed(2)}`);
  await dispose();
}
for (const m of (Deno.env.get("M") ?? "store,hub,runtime").split(",")) await measure(m);
Deno.exit(0);
