/**
 * The web view's HTTP side, against a real runtime and real sockets (no
 * browser: tests/web_browser_test.ts drives the page): the token is
 * exchanged once for an HttpOnly SameSite=Strict cookie; a request without
 * it, with a wrong or rotated token, with a foreign Host (DNS rebinding) or
 * a foreign Origin (cross-site) is refused; the live connection is bounded;
 * and `lazyshell web` turns it on in a running `lazyshell serve`, prints
 * the URL, rotates and turns off.
 */

import assert from "node:assert/strict";
import { startInstance } from "./control_helpers.ts";
import { WebView } from "../src/web/view.ts";
import { lazyshell, startServe } from "../tools/abuse/server.ts";
import { parseConfig } from "../src/config/config.ts";
import { TEST_SHELL } from "../src/session/test_util.ts";

/** One raw HTTP/1.1 request (headers as given: Host and Origin included); the response head. */
async function raw(port: number, path: string, headers: Record<string, string>) {
  const conn = await Deno.connect({ hostname: "127.0.0.1", port });
  const lines = [`GET ${path} HTTP/1.1`, ...Object.entries(headers).map(([k, v]) => `${k}: ${v}`)];
  await conn.write(new TextEncoder().encode(lines.join("\r\n") + "\r\n\r\n"));
  let text = "";
  const buf = new Uint8Array(4096);
  while (!text.includes("\r\n\r\n")) {
    const n = await conn.read(buf);
    if (n === null) break;
    text += new TextDecoder().decode(buf.subarray(0, n));
  }
  const status = Number(/^HTTP\/1\.1 (\d+)/.exec(text)?.[1]);
  return { status, head: text, conn };
}

async function get(port: number, path: string, headers: Record<string, string>) {
  const r = await raw(port, path, headers);
  r.conn.close();
  return r;
}

const WS = {
  upgrade: "websocket",
  connection: "Upgrade",
  "sec-websocket-version": "13",
  "sec-websocket-key": "dGhlIHNhbXBsZSBub25jZQ==",
};

Deno.test("web: token → cookie; no cookie, wrong token, foreign Host or Origin refused", async () => {
  await using t = await startInstance({ extraConfig: "web:\n  enabled: true\n  port: 0\n" });
  await using web = await WebView.start(t.runtime, () => {}, { maxConnections: 2 });
  const port = web.server.port;
  const host = `127.0.0.1:${port}`;
  const token = new URL(web.server.url()).searchParams.get("token")!;

  assert.equal((await get(port, "/", { host })).status, 401);
  assert.equal((await get(port, "/assets/app.js", { host })).status, 401);
  assert.equal((await get(port, `/?token=${token.slice(1)}x`, { host })).status, 403);
  const entered = await get(port, `/?token=${token}`, { host });
  assert.equal(entered.status, 200);
  const setCookie = /^set-cookie: (.*)$/im.exec(entered.head)![1]!;
  assert.match(setCookie, /HttpOnly; SameSite=Strict/);
  assert.ok(!setCookie.includes(token), "the cookie is not the token");
  const cookie = setCookie.split(";")[0]!;

  assert.equal((await get(port, "/", { host, cookie })).status, 200);
  assert.equal((await get(port, "/assets/xterm.mjs", { host, cookie })).status, 200);
  assert.equal((await get(port, "/", { host, cookie: "lazyshell_web=forged" })).status, 401);
  // DNS rebinding: a name that resolves here is not a name this server answers to.
  assert.equal((await get(port, "/", { host: `evil.example:${port}`, cookie })).status, 403);
  assert.equal((await get(port, "/", { host: `localhost:${port}`, cookie })).status, 200);
  // Cross-site: a foreign page's fetch, and a WebSocket without or with a foreign Origin.
  assert.equal(
    (await get(port, "/", {
      host,
      cookie,
      "sec-fetch-site": "cross-site",
      "sec-fetch-mode": "no-cors",
    })).status,
    403,
  );
  assert.equal((await get(port, "/live", { host, cookie, ...WS })).status, 403);
  assert.equal(
    (await get(port, "/live", { host, cookie, origin: "http://evil.example", ...WS })).status,
    403,
  );
  assert.equal(
    (await get(port, "/live", { host, origin: `http://${host}`, ...WS })).status,
    401,
  );

  // The live connection is bounded: two open, the third refused.
  const origin = `http://${host}`;
  const a = await raw(port, "/live", { host, cookie, origin, ...WS });
  const b = await raw(port, "/live", { host, cookie, origin, ...WS });
  assert.deepEqual([a.status, b.status], [101, 101]);
  const c = await get(port, "/live", { host, cookie, origin, ...WS });
  assert.equal(c.status, 503);
  a.conn.close();
  b.conn.close();

  // Rotated: the old token and the cookie it gave are void.
  web.server.rotate();
  assert.equal((await get(port, "/", { host, cookie })).status, 401);
  assert.equal((await get(port, `/?token=${token}`, { host })).status, 403);
  assert.ok(web.server.stats().refused >= 10);
});

Deno.test("web: `lazyshell web` turns it on in the running server, rotates, turns off", async () => {
  await using server = await startServe({ config: "web:\n  port: 0\n" });
  const on = await lazyshell(server.env, ["web"]);
  assert.equal(on.code, 0, on.stderr);
  const url = /^Open (http:\/\/127\.0\.0\.1:\d+\/\?token=[\w-]{43})$/m.exec(on.stdout)?.[1];
  assert.ok(url, on.stdout);
  assert.match(on.stdout, /ssh -L \d+:127\.0\.0\.1:\d+/);
  assert.doesNotMatch(on.stdout, /▀|▄/, "no QR code when stdout is not a terminal");
  const page = await fetch(url);
  await page.body?.cancel();
  assert.equal(page.status, 200);
  assert.match(page.headers.get("set-cookie") ?? "", /HttpOnly; SameSite=Strict/);

  const rotated = await lazyshell(server.env, ["web", "--rotate"]);
  assert.equal(rotated.code, 0, rotated.stderr);
  const next = /^Open (\S+)$/m.exec(rotated.stdout)![1]!;
  assert.notEqual(next, url);
  assert.equal(new URL(next).port, new URL(url).port);
  const old = await fetch(url);
  await old.body?.cancel();
  assert.equal(old.status, 403);

  const bad = await lazyshell(server.env, ["web", "--bogus"]);
  assert.deepEqual(
    [bad.code, bad.stderr.trim()],
    [2, "lazyshell: Unknown option for web: --bogus (expected --rotate, --off)"],
  );
  const off = await lazyshell(server.env, ["web", "--off"]);
  assert.equal(off.code, 0, off.stderr);
  await assert.rejects(fetch(next));
});

Deno.test("web: a reload starts, moves to read-only (pages told) and stops it", async () => {
  await using t = await startInstance();
  await using web = await WebView.start(t.runtime, () => {});
  assert.equal(web.server.running, false);
  const reload = async (yaml: string) => {
    const loaded = parseConfig(`shell: ${TEST_SHELL}\n${yaml}`, "config.yml");
    return await t.runtime.reconfigure({ loaded, catalog: t.runtime.catalog });
  };
  assert.deepEqual(await reload("web:\n  enabled: true\n  port: 0\n"), []);
  assert.ok(web.server.running);
  const port = web.server.port;
  const host = `127.0.0.1:${port}`;
  const entered = await get(
    port,
    `/?token=${new URL(web.server.url()).searchParams.get("token")}`,
    {
      host,
    },
  );
  const cookie = /^set-cookie: ([^;]*)/im.exec(entered.head)![1]!;
  const page = await raw(port, "/live", { host, cookie, origin: `http://${host}`, ...WS });
  assert.equal(page.status, 101);
  assert.equal(web.server.stats().connections, 1);
  // Read-only from now on: the page open is closed with the reason (a close frame, opcode 8).
  assert.deepEqual(await reload("web:\n  enabled: true\n  port: 0\n  read_only: true\n"), []);
  assert.equal(web.server.port, port, "same address: the same listener");
  const frames = await readUntil(page.conn, "The web view's mode changed");
  assert.ok(frames.includes("The web view's mode changed"), frames);
  assert.equal(web.server.stats().connections, 0);
  // A port another program holds: the reload says so, the server goes on.
  using holder = Deno.listen({ hostname: "127.0.0.1", port: 0 });
  const busy = (holder.addr as Deno.NetAddr).port;
  const failed = await reload(`web:\n  enabled: true\n  port: ${busy}\n`);
  assert.equal(failed.length, 1);
  assert.match(failed[0]!, new RegExp(`^Cannot listen on 127\\.0\\.0\\.1:${busy}: .*in use`, "i"));
  assert.equal(web.server.running, false);
  assert.deepEqual(await reload("web:\n  enabled: false\n  port: 0\n"), []);
  assert.equal(web.server.running, false);
  // `lazyshell web` turns it on whatever the config says, and a reload leaves it on.
  const cmd = await web.command({ rotate: false, off: false, qr: true });
  assert.equal(cmd.code, 0, cmd.text);
  assert.match(
    cmd.text,
    // deno-lint-ignore no-control-regex -- the QR code is drawn in colours
    /^Open http:\/\/127\.0\.0\.1:\d+\/\?token=[\w-]{43}\n\n\x1b\[97;40m[█▀▄ ]+/,
  );
  assert.deepEqual(await reload("web:\n  enabled: false\n  port: 0\n"), []);
  assert.ok(web.server.running);
  await web.command({ rotate: false, off: true, qr: false });
  assert.equal(web.server.running, false);
});

/** What a connection receives until it holds `text` (the close frame's reason), at most 30 s. */
async function readUntil(conn: Deno.Conn, text: string): Promise<string> {
  let got = "";
  const buf = new Uint8Array(65536);
  const deadline = Date.now() + 30_000;
  while (!got.includes(text) && Date.now() < deadline) {
    const n = await Promise.race([
      conn.read(buf).catch(() => null),
      new Promise<null>((r) => setTimeout(() => r(null), 1000)),
    ]);
    if (n === null) continue;
    got += new TextDecoder().decode(buf.subarray(0, n));
  }
  conn.close();
  return got;
}
