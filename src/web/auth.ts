/**
 * Who may use the web view (docs/web.md, "Security"): one long random
 * token per server, sent once in the URL and exchanged for a cookie
 * (HttpOnly, SameSite=Strict) derived from it; the Host header must name
 * this machine as the page knows it (a loopback name, an IP literal, the
 * `listen` address or a `web.hosts` name: no DNS rebinding), and a request
 * a page makes must come from the page's own origin (no cross-site
 * requests). Pure but for the random bytes and the hash.
 */

import { createHash, timingSafeEqual } from "node:crypto";

/** The cookie's name (its value is derived from the token, never the token itself). */
export const COOKIE = "lazyshell_web";

/** 32 random bytes, base64url: 43 characters. */
export function newToken(): string {
  const bytes = crypto.getRandomValues(new Uint8Array(32));
  return btoa(String.fromCharCode(...bytes)).replace(/\+/g, "-").replace(/\//g, "_")
    .replace(/=+$/, "");
}

/** The cookie value a token grants: rotating the token voids every cookie. */
export function cookieValue(token: string): string {
  return createHash("sha256").update(`lazyshell web cookie\0${token}`).digest("base64url");
}

/** Equal secrets, compared in constant time. */
export function sameSecret(a: string | null | undefined, b: string): boolean {
  if (typeof a !== "string") return false;
  const x = new TextEncoder().encode(a);
  const y = new TextEncoder().encode(b);
  return x.length === y.length && timingSafeEqual(x, y);
}

/** The value of cookie `name` in a Cookie header, or null. */
export function readCookie(header: string | null, name: string): string | null {
  if (!header) return null;
  for (const part of header.split(";")) {
    const eq = part.indexOf("=");
    if (eq > 0 && part.slice(0, eq).trim() === name) return part.slice(eq + 1).trim();
  }
  return null;
}

/** `Set-Cookie` for a token (a session cookie: it ends with the browser's session). */
export function setCookie(token: string, secure: boolean): string {
  return `${COOKIE}=${cookieValue(token)}; Path=/; HttpOnly; SameSite=Strict` +
    (secure ? "; Secure" : "");
}

/** The host part of a Host header (`[::1]:7690` → `::1`), lower case; null when malformed. */
export function hostName(host: string | null): string | null {
  if (!host || host.length > 300 || /[\s/@\\]/.test(host)) return null;
  const h = host.toLowerCase();
  if (h.startsWith("[")) {
    const end = h.indexOf("]");
    if (end < 0) return null;
    const rest = h.slice(end + 1);
    if (rest !== "" && !/^:\d{1,5}$/.test(rest)) return null;
    return h.slice(1, end);
  }
  const colon = h.indexOf(":");
  if (colon < 0) return h;
  if (!/^:\d{1,5}$/.test(h.slice(colon))) return null;
  return h.slice(0, colon);
}

const IPV4 = /^(25[0-5]|2[0-4]\d|1?\d?\d)(\.(25[0-5]|2[0-4]\d|1?\d?\d)){3}$/;

/** An IP literal: no name a DNS answer could point elsewhere. */
export function isIpLiteral(name: string): boolean {
  return IPV4.test(name) || (name.includes(":") && /^[0-9a-f:.]+$/.test(name));
}

/** `listen` stays on this machine. */
export function isLoopback(listen: string): boolean {
  const name = listen.toLowerCase().replace(/^\[|\]$/g, "");
  return name === "localhost" || name === "::1" || /^127\./.test(name);
}

/**
 * The Host header names this server: an IP literal (loopback, or an
 * address it listens on; a name could be rebound to 127.0.0.1 by its
 * DNS), `localhost`, the `listen` name, or one of `hosts`.
 */
export function hostAllowed(host: string | null, listen: string, hosts: readonly string[]) {
  const name = hostName(host);
  if (name === null) return false;
  if (isIpLiteral(name) || name === "localhost") return true;
  const allowed = [listen, ...hosts].map((h) => h.toLowerCase());
  return allowed.includes(name);
}

/** What a request tells of where it comes from. */
export interface RequestOrigin {
  readonly host: string | null;
  /** The Origin header (browsers send it on every WebSocket and POST). */
  readonly origin: string | null;
  /** Sec-Fetch-Site, when the browser sends it. */
  readonly fetchSite: string | null;
  /** Sec-Fetch-Mode: `navigate` for a page opened from a link, a bookmark, the address bar. */
  readonly fetchMode: string | null;
}

/**
 * Null when the request may go on, else why not. `needsOrigin`: the live
 * connection and every write must name their origin, the page's own.
 */
export function originRefusal(r: RequestOrigin, needsOrigin: boolean): string | null {
  if (r.origin !== null) {
    const ok = r.host !== null &&
      (r.origin.toLowerCase() === `http://${r.host.toLowerCase()}` ||
        r.origin.toLowerCase() === `https://${r.host.toLowerCase()}`);
    if (!ok) return "foreign Origin";
  } else if (needsOrigin) {
    return "no Origin";
  }
  // A page of another site may link here (a navigation), never fetch from here.
  if (
    r.fetchSite !== null && !["same-origin", "none"].includes(r.fetchSite) &&
    r.fetchMode !== "navigate"
  ) {
    return `cross-site request (${r.fetchSite})`;
  }
  return null;
}
