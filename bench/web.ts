/**
 * The web view (docs/web.md, "Figures"), in headless Chromium:
 *
 * 1. Latency: a runtime with 16 sessions, 4 pages open on its list; a
 *    session declares a new state (OSC 7501) and the time from the
 *    runtime's change (its subscriber, in this process) to the row showing
 *    the new state in each page (a MutationObserver in the page; both
 *    clocks are performance.timeOrigin + now). Reference in the same run:
 *    a `ctl wait`-style subscriber of the same change stream over the
 *    control socket (its reply's arrival after the change). With
 *    BENCH_WATCH=1 sessions 1–4 also run a 10 Hz spinner and each page
 *    watches one of their screens meanwhile (list changes are not held
 *    back by screen frames). BENCH_CPU=0: this part only.
 * 2. CPU: a `lazyshell serve` with 8 sessions each running a 10 Hz spinner;
 *    the server's CPU over BENCH_SECONDS (default 15) with no page, with 4
 *    pages on the list, and with 4 pages each watching a spinner's screen;
 *    rounds alternate (BENCH_ROUNDS, default 2), medians reported, as
 *    ratios to no page; and the messages a second the pages received
 *    while watching (all 4 together).
 *
 *   deno run -A bench/web.ts
 */

import type { Browser, Page } from "playwright-core";
import { startInstance } from "../tests/control_helpers.ts";
import { launch, NO_BROWSER } from "../tests/web_browser.ts";
import { WebView } from "../src/web/view.ts";
import { lazyshell, startServe } from "../tools/abuse/server.ts";
import { request } from "../src/ctl/client.ts";
import { cpuSeconds, delay, SPINNER } from "./tui_harness.ts";
import { median, percentile } from "./stats.ts";

const SECONDS = Number(Deno.env.get("BENCH_SECONDS") ?? "15");
const ROUNDS = Number(Deno.env.get("BENCH_ROUNDS") ?? "2");
const CHANGES = Number(Deno.env.get("BENCH_CHANGES") ?? "80");
/** BENCH_WATCH=1: sessions 1–4 also spin, each page watches one of their screens. */
const WATCH = Deno.env.get("BENCH_WATCH") === "1";
/** BENCH_CPU=0: the latency only. */
const CPU = Deno.env.get("BENCH_CPU") !== "0";
const now = () => performance.timeOrigin + performance.now();

/** Records when each session's row shows each state, in the page's clock. */
const OBSERVER = `
  globalThis.__seen = [];
  const last = new Map();
  const observer = new MutationObserver(() => {
    const t = performance.timeOrigin + performance.now();
    for (const li of document.querySelectorAll("#sessions li[data-id]")) {
      const state = li.dataset.state;
      if (last.get(li.dataset.id) !== state) {
        last.set(li.dataset.id, state);
        globalThis.__seen.push({ id: li.dataset.id, state, t });
      }
    }
  });
  addEventListener("DOMContentLoaded", () => {
    observer.observe(document.body, { subtree: true, childList: true, attributes: true });
  });
`;

/** Messages the pages received from the server, all pages together. */
const received = { frames: 0 };

async function openPages(browser: Browser, url: string, n: number): Promise<Page[]> {
  const pages: Page[] = [];
  for (let i = 0; i < n; i++) {
    const context = await browser.newContext({ viewport: { width: 1440, height: 900 } });
    const page = await context.newPage();
    page.on("websocket", (ws) => ws.on("framereceived", () => received.frames++));
    await page.addInitScript(OBSERVER);
    await page.goto(url);
    await page.waitForSelector("#sessions li[data-id]");
    pages.push(page);
  }
  return pages;
}

async function latency(browser: Browser) {
  await using t = await startInstance({ extraConfig: "web:\n  enabled: true\n  port: 0\n" });
  await using web = await WebView.start(t.runtime, () => {});
  const ids: string[] = [];
  for (let i = 0; i < 16; i++) {
    const s = await t.ok<{ id: string }>("new", {
      name: `s${i + 1}`,
      command: (WATCH && i < 4 ? `(${SPINNER}) & ` : "") +
        `while read s; do printf '\\033]7501;state=%s\\033\\\\' "$s"; done`,
    });
    ids.push(s.id);
  }
  const pages = await openPages(browser, web.server.url(), 4);
  if (WATCH) {
    for (const [i, p] of pages.entries()) {
      await p.locator(`#sessions li[data-id="${ids[i]}"]`).click();
    }
  }
  await delay(1000);
  const changedAt = new Map<string, number>();
  using _sub = t.runtime.subscribe((c) => {
    if (c.type !== "updated") return;
    const state = c.session.agentStatus?.state;
    if (state && state !== c.previous.agentStatus?.state) {
      changedAt.set(`${c.session.id} ${state}`, now());
    }
  });
  const page: number[] = [];
  const ctl: number[] = [];
  let missing = 0;
  const states = ["blocked", "working", "done", "idle"];
  for (let i = 0; i < CHANGES; i++) {
    const id = ids[i % ids.length]!;
    const state = states[Math.floor(i / ids.length) % states.length]!;
    const key = `${id} ${state}`;
    // The reference: a control-socket subscriber waiting on the same change.
    const waited = request(
      t.sockets.control!.path,
      "wait",
      { target: id, state, timeout: 10 },
      15_000,
    )
      .then(() => now());
    await delay(20); // the wait is registered
    t.runtime.sessions.get(id)!.write(`${state}\r`, false);
    const ctlAt = await waited;
    await delay(150);
    const at = changedAt.get(key);
    if (at === undefined) {
      missing++;
      continue;
    }
    ctl.push(ctlAt - at);
    for (const p of pages) {
      const seen = await p.evaluate(
        ([id, state]) =>
          (globalThis as unknown as { __seen: { id: string; state: string; t: number }[] })
            .__seen.findLast((s) => s.id === id && s.state === state)?.t ?? null,
        [id, state] as const,
      );
      if (seen === null) missing++;
      else page.push(seen - at);
    }
  }
  for (const p of pages) await p.context().close();
  return { page, ctl, missing };
}

async function cpu(browser: Browser) {
  await using server = await startServe({ config: "web:\n  enabled: true\n  port: 0\n" });
  for (let i = 0; i < 8; i++) {
    const r = await request(
      server.socket,
      "new",
      { name: `spin${i + 1}`, command: SPINNER },
      30_000,
    );
    if (!r.response.ok) throw new Error(r.response.error);
  }
  const out = await lazyshell(server.env, ["web"]);
  const url = /^Open (\S+)$/m.exec(out.stdout)?.[1];
  if (!url) throw new Error(`lazyshell web: ${out.stdout}${out.stderr}`);
  await delay(3000);
  const rates: number[] = [];
  const measure = async () => {
    const c0 = cpuSeconds(server.pid);
    const f0 = received.frames;
    const t0 = performance.now();
    await delay(SECONDS * 1000);
    const s = (performance.now() - t0) / 1000;
    rates.push((received.frames - f0) / s);
    return (cpuSeconds(server.pid) - c0) / s * 100;
  };
  const none: number[] = [];
  const list: number[] = [];
  const screens: number[] = [];
  for (let r = 0; r < ROUNDS; r++) {
    none.push(await measure());
    const pages = await openPages(browser, url, 4);
    await delay(1000);
    list.push(await measure());
    for (const [i, p] of pages.entries()) {
      await p.locator("#sessions li", { hasText: `spin${i + 1}` }).click();
    }
    await delay(1000);
    screens.push(await measure());
    for (const p of pages) await p.context().close();
    await delay(1000);
  }
  // Messages a second the 4 pages received while watching screens.
  const watching = rates.filter((_, i) => i % 3 === 2);
  return { none, list, screens, watching };
}

function load(): string {
  return Deno.readTextFileSync("/proc/loadavg").split(" ").slice(0, 3).join(" ");
}

if (import.meta.main) {
  if (NO_BROWSER) {
    console.log(NO_BROWSER);
    Deno.exit(0);
  }
  const browser = await launch();
  try {
    console.log(`load before: ${load()}`);
    const l = await latency(browser);
    const p = (xs: number[], q: number) => percentile(xs, q).toFixed(1);
    console.log(
      `latency, runtime change → row shown, 16 sessions, 4 pages` +
        `${WATCH ? " each watching a spinning session's screen" : ""} (${l.page.length} samples, ` +
        `${l.missing} missing): p50 ${p(l.page, 50)} ms, p95 ${p(l.page, 95)} ms, ` +
        `max ${Math.max(...l.page).toFixed(1)} ms`,
    );
    console.log(
      `reference, runtime change → ctl wait reply (control socket, ${l.ctl.length} samples): ` +
        `p50 ${p(l.ctl, 50)} ms, p95 ${p(l.ctl, 95)} ms, max ${Math.max(...l.ctl).toFixed(1)} ms`,
    );
    console.log(`load: ${load()}`);
    if (CPU) {
      const c = await cpu(browser);
      const m = (xs: number[]) => median(xs);
      const f = (xs: number[]) => xs.map((x) => x.toFixed(2)).join(", ");
      console.log(
        `server CPU, 8 spinners, ${SECONDS} s × ${ROUNDS} rounds (% of a core): no page ` +
          `${m(c.none).toFixed(2)} [${f(c.none)}]; 4 pages on the list ${m(c.list).toFixed(2)} ` +
          `[${f(c.list)}] = ${(m(c.list) / m(c.none)).toFixed(2)}×; 4 pages each watching a ` +
          `spinner's screen ${m(c.screens).toFixed(2)} [${f(c.screens)}] = ` +
          `${(m(c.screens) / m(c.none)).toFixed(2)}×, receiving ${f(c.watching)} messages/s`,
      );
      console.log(`load after: ${load()}`);
    }
  } finally {
    await browser.close();
  }
}
