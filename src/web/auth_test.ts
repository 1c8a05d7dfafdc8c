import assert from "node:assert/strict";
import {
  cookieValue,
  hostAllowed,
  hostName,
  isLoopback,
  newToken,
  originRefusal,
  readCookie,
  sameSecret,
  setCookie,
} from "./auth.ts";
import { exposureWarning } from "./server.ts";
import { parseConfig } from "../config/config.ts";

Deno.test("tokens are long, random, URL-safe; the cookie is derived, not the token", () => {
  const a = newToken();
  const b = newToken();
  assert.match(a, /^[A-Za-z0-9_-]{43}$/);
  assert.notEqual(a, b);
  assert.notEqual(cookieValue(a), a);
  assert.equal(cookieValue(a), cookieValue(a));
  assert.notEqual(cookieValue(a), cookieValue(b));
  assert.ok(sameSecret(a, a));
  assert.ok(!sameSecret(b, a));
  assert.ok(!sameSecret(a.slice(1), a));
  assert.ok(!sameSecret(null, a));
  assert.match(setCookie(a, false), /^lazyshell_web=[^;]+; Path=\/; HttpOnly; SameSite=Strict$/);
  assert.match(setCookie(a, true), /; Secure$/);
  assert.equal(readCookie("x=1; lazyshell_web=abc; y=2", "lazyshell_web"), "abc");
  assert.equal(readCookie("x=1", "lazyshell_web"), null);
});

Deno.test("Host: IP literals, localhost, listen and web.hosts; never another name", () => {
  assert.equal(hostName("[::1]:7690"), "::1");
  assert.equal(hostName("LocalHost:8080"), "localhost");
  assert.equal(hostName("a b"), null);
  assert.equal(hostName("x:y"), null);
  for (const h of ["127.0.0.1:7690", "localhost:8080", "[::1]:7690", "192.168.1.5:7690"]) {
    assert.ok(hostAllowed(h, "127.0.0.1", []), h);
  }
  // DNS rebinding: a name of the attacker's that resolves to 127.0.0.1.
  assert.ok(!hostAllowed("evil.example:7690", "127.0.0.1", []));
  assert.ok(!hostAllowed(null, "127.0.0.1", []));
  assert.ok(!hostAllowed("localhost.evil.example", "127.0.0.1", []));
  assert.ok(hostAllowed("box.tail1.ts.net", "127.0.0.1", ["box.tail1.ts.net"]));
  assert.ok(hostAllowed("devbox:7690", "devbox", []));
});

Deno.test("Origin: the page's own only; cross-site fetches refused, links allowed", () => {
  const base = { host: "127.0.0.1:7690", fetchSite: null, fetchMode: null };
  assert.equal(originRefusal({ ...base, origin: "http://127.0.0.1:7690" }, true), null);
  assert.equal(originRefusal({ ...base, origin: "https://127.0.0.1:7690" }, true), null);
  assert.equal(originRefusal({ ...base, origin: "http://evil.example" }, true), "foreign Origin");
  assert.equal(
    originRefusal({ ...base, origin: "http://127.0.0.1:7691" }, false),
    "foreign Origin",
  );
  assert.equal(originRefusal({ ...base, origin: null }, true), "no Origin");
  assert.equal(originRefusal({ ...base, origin: null }, false), null);
  assert.equal(
    originRefusal({ ...base, origin: null, fetchSite: "cross-site", fetchMode: "no-cors" }, false),
    "cross-site request (cross-site)",
  );
  assert.equal(
    originRefusal({ ...base, origin: null, fetchSite: "cross-site", fetchMode: "navigate" }, false),
    null,
  );
});

Deno.test("loopback listen addresses", () => {
  for (const l of ["127.0.0.1", "localhost", "::1", "[::1]", "127.0.0.2"]) assert.ok(isLoopback(l));
  for (const l of ["0.0.0.0", "::", "100.64.0.1", "devbox"]) assert.ok(!isLoopback(l));
});

Deno.test("listening beyond loopback is warned about, with what to do", () => {
  const web = { enabled: true, listen: "127.0.0.1", port: 7690, read_only: false, hosts: [] };
  assert.equal(exposureWarning(web), null);
  assert.match(
    exposureWarning({ ...web, listen: "0.0.0.0" })!,
    /^Warning: web\.listen is 0\.0\.0\.0, not loopback: .* unencrypted\. Put it behind TLS \(an SSH tunnel, Tailscale: docs\/web\.md\)/,
  );
});

Deno.test("web.hosts takes host names only: a URL or a port would never match a Host", () => {
  assert.throws(
    () => parseConfig('web:\n  hosts: ["https://box.ts.net:443"]\n', "config.yml"),
    /config\.yml:2: web\.hosts\[0\]: a host name, without scheme or port/,
  );
  assert.deepEqual(parseConfig("web:\n  hosts: [box.tail1.ts.net]\n", "c").config.web.hosts, [
    "box.tail1.ts.net",
  ]);
  assert.deepEqual(parseConfig("", "c").config.web, {
    enabled: false,
    listen: "127.0.0.1",
    port: 7690,
    read_only: false,
    hosts: [],
  });
});
