/**
 * The web view in a real browser (headless Chromium driven by
 * playwright-core), against a real runtime with fake agents in real PTYs
 * that draw captured prompts (tests/testdata/prompt_agent.ts): the list
 * updates when an agent becomes blocked, the page shows its options, a
 * click answers it and the receipt appears, a prompt that changed since
 * the page showed it is refused with nothing typed, read-only has no
 * controls (and the server refuses a write all the same), and a page
 * without the token, with a wrong one, from a foreign Origin or through a
 * foreign Host name gets nothing. The page has no horizontal scroll at
 * 390×844 and 1440×900; the screenshots in docs/ are taken here
 * (`LAZYSHELL_SCREENSHOTS=docs deno test -A tests/web_browser_test.ts`).
 */

import assert from "node:assert/strict";
import type { Page } from "playwright-core";
import { type Instance, startInstance } from "./control_helpers.ts";
import { WebView } from "../src/web/view.ts";
import { launch, NO_BROWSER } from "./web_browser.ts";
import { waitFor } from "../src/session/test_util.ts";

const FAKE = new URL("./testdata/prompt_agent.ts", import.meta.url).pathname;
const CAPTURES = new URL("../fixtures/captures/", import.meta.url).pathname;
/**
 * Where the screenshots go: docs/ when LAZYSHELL_SCREENSHOTS=docs (to refresh the README's
 * pictures), else a temporary folder, so a test run leaves the checkout as it was.
 */
const DOCS = Deno.env.get("LAZYSHELL_SCREENSHOTS") === "docs"
  ? new URL("../docs/", import.meta.url).pathname
  : `${Deno.makeTempDirSync({ prefix: "lazyshell-web-shots-" })}/`;
const WAIT = 30_000;

if (NO_BROWSER) console.log(NO_BROWSER);

/** A fake Claude Code blocked on its tool prompt; SIGUSR1 redraws another prompt. */
function fakeClaude(t: Instance, log: string): string {
  const script = `${t.base}/claude.ts`;
  Deno.copyFileSync(FAKE, script);
  return `exec ${Deno.execPath()} run -A --quiet ${script} ${CAPTURES}claude-tool 13978 ${log} ` +
    `${CAPTURES}claude-firststart-osc7501 2382`;
}

function keysIn(log: string): string[] {
  let text = "";
  try {
    text = Deno.readTextFileSync(log);
  } catch { /* not started yet */ }
  return text.split("\n").filter(Boolean).map((l) => JSON.parse(l)).filter((e) => "key" in e)
    .map((e) => e.key);
}

async function blocked(t: Instance, name: string, question: RegExp): Promise<string> {
  const session = t.runtime.store.find(name)!;
  await waitFor(
    session,
    () => {
      const v = t.runtime.view(session.id);
      return v?.agentStatus?.state === "blocked" && question.test(v.prompt?.question ?? "");
    },
    WAIT,
    `${name} blocked on ${question}`,
  );
  return session.id;
}

async function noHorizontalScroll(page: Page): Promise<void> {
  const { scroll, width } = await page.evaluate(() => ({
    scroll: Math.max(document.documentElement.scrollWidth, document.body.scrollWidth),
    width: document.documentElement.clientWidth,
  }));
  assert.ok(scroll <= width, `page scrolls sideways: ${scroll} > ${width}`);
}

const WEB = (readOnly: boolean) => `web:\n  enabled: true\n  port: 0\n  read_only: ${readOnly}\n`;

Deno.test({
  name: "web page: live list, options, answer with receipt, changed prompt refused, sizes",
  ignore: NO_BROWSER !== null,
  sanitizeOps: false,
  sanitizeResources: false,
}, async () => {
  await using t = await startInstance({ extraConfig: WEB(false) });
  await using web = await WebView.start(t.runtime, () => {});
  const browser = await launch();
  try {
    const context = await browser.newContext({ viewport: { width: 1440, height: 900 } });
    // Notifications allowed, and the ones the page shows recorded.
    await context.grantPermissions(["notifications"]);
    await context.addInitScript(() => {
      const Real = globalThis.Notification;
      const shown: [string, string | undefined][] = [];
      Object.assign(globalThis, { shown });
      globalThis.Notification = class extends Real {
        constructor(title: string, options?: NotificationOptions) {
          super(title, options);
          shown.push([title, options?.body]);
        }
      };
    });
    const page = await context.newPage();
    // What the server sends the page can be held back (a slow network): the page then shows a
    // prompt the agent no longer shows.
    let hold = false;
    const held: string[] = [];
    let release = () => {};
    await page.routeWebSocket(/\/live$/, (ws) => {
      const server = ws.connectToServer();
      server.onMessage((m) => {
        // Replies still come: only the list's changes are late.
        if (hold && typeof m === "string" && JSON.parse(m).t === "session") held.push(m);
        else ws.send(m);
      });
      release = () => {
        hold = false;
        for (const m of held.splice(0)) ws.send(m);
      };
    });
    await t.ok("new", {
      name: "build",
      command: "printf '\\033[1;32mcompiled\\033[0m 42 files\\n'; exec sleep 600",
    });
    await t.ok("new", { name: "notes", group: "docs", command: "exec sleep 600" });
    await page.goto(web.server.url());
    await page.waitForSelector("#sessions li[data-id]");
    assert.equal(new URL(page.url()).search, "", "the token left the address bar");

    // A fake agent becomes blocked: the list shows it first, with its question.
    const log = `${t.base}/claude.log`;
    await t.ok("new", { name: "agent", group: "agents", command: fakeClaude(t, log) });
    const id = await blocked(t, "agent", /^Do you want to proceed\?$/);
    const row = page.locator(`#sessions li[data-id="${id}"][data-state="blocked"]`);
    await row.waitFor({ timeout: WAIT });
    assert.equal(await page.locator("#sessions li").first().getAttribute("data-id"), id);
    assert.equal(await page.title(), "(1) lazyshell");
    assert.match(await row.innerText(), /Do you want to proceed\?/);
    await page.waitForFunction(
      () => (globalThis as unknown as { shown: unknown[] }).shown.length > 0,
      null,
      { timeout: WAIT },
    );
    assert.deepEqual(
      await page.evaluate(() => (globalThis as unknown as { shown: unknown[] }).shown),
      [["agent: blocked", "Do you want to proceed?"]],
    );
    // A turn that ends, a command that fails: notified too.
    await t.ok("new", {
      name: "job",
      command: "printf '\\033]7501;state=working\\033\\\\'; sleep 1; " +
        "printf '\\033]7501;state=done\\033\\\\'; exec sleep 600",
    });
    await t.ok("new", { name: "fails", command: "sleep 1; exit 3" });
    await page.waitForFunction(
      () => (globalThis as unknown as { shown: unknown[] }).shown.length >= 3,
      null,
      { timeout: WAIT },
    );
    assert.deepEqual(
      (await page.evaluate(() => (globalThis as unknown as { shown: string[][] }).shown)).slice(1)
        .sort(),
      [["fails: failed", "exited with 3"], ["job: done", "finished its turn"]],
    );

    // Its options, as the runtime read them.
    await row.click();
    const options = page.locator("#options button.option");
    await options.first().waitFor({ timeout: WAIT });
    const labels = t.runtime.view(id)!.prompt!.options.map((o, i) => `${i + 1}. ${o.label}`);
    assert.deepEqual(await options.allInnerTexts(), labels);
    await page.locator("#screen .xterm-rows").waitFor({ timeout: WAIT });
    await page.waitForFunction(
      () => document.querySelector("#screen .xterm-rows")?.textContent?.includes("proceed"),
      null,
      { timeout: WAIT },
    );
    await noHorizontalScroll(page);
    await page.screenshot({ path: `${DOCS}web-desktop.png` });

    // A phone: the list, then the blocked session; no sideways scroll on either.
    const phone = await browser.newContext({
      viewport: { width: 390, height: 844 },
      deviceScaleFactor: 2,
      isMobile: true,
      hasTouch: true,
    });
    const small = await phone.newPage();
    await small.goto(web.server.url());
    await small.waitForSelector("#sessions li[data-id]");
    await noHorizontalScroll(small);
    await small.locator(`#sessions li[data-id="${id}"]`).click();
    await small.locator("#options button.option").first().waitFor({ timeout: WAIT });
    await small.waitForFunction(
      () => document.querySelector("#screen .xterm-rows")?.textContent?.includes("proceed"),
      null,
      { timeout: WAIT },
    );
    await noHorizontalScroll(small);
    await small.screenshot({ path: `${DOCS}web-phone.png` });
    await small.locator("#back").click();
    await small.locator("#sessions li", { hasText: "build" }).click();
    await small.waitForFunction(
      () => document.querySelector("#screen .xterm-rows")?.textContent?.includes("compiled"),
      null,
      { timeout: WAIT },
    );
    await noHorizontalScroll(small);
    await phone.close();

    // Changed since the page showed it: refused, nothing typed.
    hold = true;
    Deno.kill(t.runtime.view(id)!.pid, "SIGUSR1");
    await blocked(t, "agent", /^Try the new fullscreen renderer\?$/);
    await page.locator("#options button.option").first().click();
    const receipt = page.locator("#receipt");
    await page.waitForFunction(
      () => /nothing typed/.test(document.querySelector("#receipt")?.textContent ?? ""),
      null,
      { timeout: WAIT },
    );
    assert.match(
      await receipt.innerText(),
      /^The prompt of session-\d \(agent\) changed since it was read \(now: "Try the new fullscreen renderer\?"\): nothing typed$/,
    );
    assert.equal(await receipt.getAttribute("class"), "bad");
    assert.deepEqual(keysIn(log), []);

    // The page catches up and shows the new prompt; a click answers it, the receipt follows.
    release();
    await page.locator("#question", { hasText: "Try the new fullscreen renderer?" })
      .waitFor({ timeout: WAIT });
    const newLabels = t.runtime.view(id)!.prompt!.options.map((o) => o.label);
    const notNow = newLabels.indexOf("Not now") + 1;
    assert.ok(notNow > 0, `options: ${newLabels.join(", ")}`);
    await page.locator("#options button.option", { hasText: "Not now" }).click();
    await page.waitForFunction(
      () => /^Answered /.test(document.querySelector("#receipt")?.textContent ?? ""),
      null,
      { timeout: WAIT },
    );
    assert.match(
      await receipt.innerText(),
      new RegExp(
        `^Answered session-\\d \\(agent\\) with ${notNow}\\. Not now: it left the prompt in \\d+ ms, now `,
      ),
    );
    assert.deepEqual(keysIn(log), [String(notNow)]);

    // The line at the bottom types into the session shown, then Enter.
    await t.ok("new", { name: "echo", command: "exec cat" });
    await page.locator("#sessions li", { hasText: "echo" }).click();
    await page.locator("#line").fill("typed from the page");
    await page.locator("#input button").click();
    await page.waitForFunction(
      () => /^Sent to /.test(document.querySelector("#receipt")?.textContent ?? ""),
      null,
      { timeout: WAIT },
    );
    await page.waitForFunction(
      () =>
        (document.querySelector("#screen .xterm-rows")?.textContent ?? "")
          .split("typed from the page").length >= 3, // the echo, and cat's line
      null,
      { timeout: WAIT },
    );
    assert.equal(await page.locator("#line").inputValue(), "");

    // The token rotated: the open page is told, tries again, and says it is signed out.
    web.server.rotate();
    await page.waitForFunction(
      () => /Signed out/.test(document.querySelector("#status")?.textContent ?? ""),
      null,
      { timeout: WAIT },
    );
    assert.match(
      await page.locator("#status").innerText(),
      /^The web view's token was rotated: open the new URL\. Signed out \(a new server or token\)/,
    );
  } finally {
    await browser.close();
  }
});

Deno.test({
  name:
    "web page: read-only has no controls; no token, wrong token, foreign Origin or Host: nothing",
  ignore: NO_BROWSER !== null,
  sanitizeOps: false,
  sanitizeResources: false,
}, async () => {
  await using t = await startInstance({ extraConfig: WEB(true) });
  await using web = await WebView.start(t.runtime, () => {});
  const port = web.server.port;
  // The rebinding attacker's name resolves to this machine.
  const browser = await launch([`--host-resolver-rules=MAP evil.test 127.0.0.1`]);
  try {
    const log = `${t.base}/claude.log`;
    await t.ok("new", { name: "agent", command: fakeClaude(t, log) });
    const id = await blocked(t, "agent", /^Do you want to proceed\?$/);
    const context = await browser.newContext({ viewport: { width: 1440, height: 900 } });
    const page = await context.newPage();

    // No token, a wrong one: nothing but the refusal.
    const base = `http://127.0.0.1:${port}/`;
    let r = await page.goto(base);
    assert.equal(r?.status(), 401);
    r = await page.goto(`${base}?token=${"x".repeat(43)}`);
    assert.equal(r?.status(), 403);
    assert.doesNotMatch(await page.content(), /sessions/);

    // Read-only: the question and its options are shown, with nothing to press or type.
    await page.goto(web.server.url());
    await page.locator(`#sessions li[data-id="${id}"]`).click();
    await page.locator("#question", { hasText: "Do you want to proceed?" }).waitFor();
    assert.equal(await page.locator("#options button").count(), 0);
    assert.ok(await page.locator("#options div").count() > 0);
    assert.equal(await page.locator("#input").isVisible(), false);
    // A write sent anyway (the page's own socket, its cookie): refused by the server.
    const reply = await page.evaluate(async (sid) => {
      const ws = new WebSocket(`ws://${location.host}/live`);
      await new Promise((resolve) => (ws.onopen = resolve));
      const answered = new Promise<string>((resolve) => {
        ws.onmessage = (e) => {
          const m = JSON.parse(e.data);
          if (m.t === "reply") resolve(m.text);
        };
      });
      ws.send(JSON.stringify({
        t: "answer",
        req: 1,
        id: sid,
        option: 1,
        question: "Do you want to proceed?",
        options: [],
      }));
      ws.send(JSON.stringify({ t: "send", req: 2, id: sid, text: "1", enter: true }));
      return await answered;
    }, id);
    assert.equal(reply, "The web view is read-only");
    await new Promise((r) => setTimeout(r, 500));
    assert.deepEqual(keysIn(log), []);

    // A foreign page (another origin) tries the live connection and a fetch: refused.
    const refusedBefore = web.server.stats().refused;
    const foreign = Deno.serve(
      { hostname: "127.0.0.1", port: 0, onListen: () => {} },
      () =>
        new Response("<!doctype html><title>evil</title>", {
          headers: { "content-type": "text/html" },
        }),
    );
    try {
      const evil = await context.newPage();
      await evil.goto(`http://localhost:${foreign.addr.port}/`);
      const outcome = await evil.evaluate(async (p) => {
        const ws = await new Promise<string>((resolve) => {
          const s = new WebSocket(`ws://127.0.0.1:${p}/live`);
          s.onopen = () => resolve("open");
          s.onerror = () => resolve("refused");
        });
        const got = await fetch(`http://127.0.0.1:${p}/`, {
          credentials: "include",
          mode: "no-cors",
        })
          .then((r) => r.type, () => "failed");
        return { ws, got };
      }, port);
      assert.equal(outcome.ws, "refused");
      assert.ok(web.server.stats().refused > refusedBefore);
    } finally {
      await foreign.shutdown();
    }

    // A foreign Host: the same server reached by a name that resolves to it (DNS rebinding).
    r = await page.goto(web.server.url().replace("127.0.0.1", "evil.test"));
    assert.equal(r?.status(), 403);
    assert.match(await page.innerText("body"), /Host not allowed/);
  } finally {
    await browser.close();
  }
});

/** A screen's rows as text, trailing blanks and blank rows cut. */
function screenText(rows: readonly string[]): string {
  return rows.map((r) => r.replaceAll("\u00a0", " ").trimEnd()).join("\n").trimEnd();
}

Deno.test({
  name: "web page: a screen changing faster than frames go ends as exactly the session's screen",
  ignore: NO_BROWSER !== null,
  sanitizeOps: false,
  sanitizeResources: false,
}, async () => {
  await using t = await startInstance({ extraConfig: WEB(false) });
  await using web = await WebView.start(t.runtime, () => {});
  const browser = await launch();
  try {
    // On "go": 3000 lines scrolling by, a counter rewritten in place, then a last line drawn
    // in two parts: many frames' worth of changes, coalesced, the last of them kept.
    const s = await t.ok<{ id: string }>("new", {
      name: "burst",
      command:
        "read x; for i in $(seq 1 3000); do echo \"line $i of $x\"; printf '\\r%s' $i; done; " +
        "printf 'end of %s' \"$x\"; sleep 0.05; printf ' (final)'; exec sleep 600",
    });
    const page = await (await browser.newContext({ viewport: { width: 1440, height: 900 } }))
      .newPage();
    await page.goto(web.server.url());
    await page.locator("#sessions li", { hasText: "burst" }).click();
    await page.locator("#screen .xterm-rows").waitFor({ timeout: WAIT });
    const session = t.runtime.sessions.get(s.id)!;
    session.write("go\r", false);
    await waitFor(
      session,
      () => session.visibleLines().some((l) => l.includes("end of go (final)")),
      WAIT,
      "the burst's last line",
    );
    const expected = screenText(session.visibleLines());
    const shown = () =>
      page.evaluate(() =>
        [...document.querySelectorAll("#screen .xterm-rows > div")].map((d) => d.textContent ?? "")
      );
    const deadline = Date.now() + WAIT;
    let last = "";
    while ((last = screenText(await shown())) !== expected && Date.now() < deadline) {
      await new Promise((r) => setTimeout(r, 50));
    }
    assert.equal(last, expected);
  } finally {
    await browser.close();
  }
});
