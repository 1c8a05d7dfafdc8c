/**
 * The web view's HTTP server (docs/web.md), run by the lasting server:
 * off unless `web.enabled` or `lazyshell web` turned it on; it serves the
 * page and its assets (compiled in: src/web/assets/bundle.gen.ts) and the
 * live connection (/live, a WebSocket: live.ts). Every request is checked
 * (auth.ts): its Host, its Origin, and the cookie the URL's token was
 * exchanged for. Nothing here may end the server: a request that throws
 * is answered 500 and logged.
 */

import { messageOf } from "../errors.ts";
import type { Config } from "../config/config.ts";
import {
  COOKIE,
  cookieValue,
  hostAllowed,
  isLoopback,
  newToken,
  originRefusal,
  readCookie,
  sameSecret,
  setCookie,
} from "./auth.ts";
import { ASSETS } from "./assets/bundle.gen.ts";
import { WEB_LIMITS, type WebLimits } from "./limits.ts";
import { LiveConnection, type WebRuntime } from "./live.ts";

export type WebSettings = Config["web"];

export interface WebServerOptions {
  readonly runtime: WebRuntime;
  readonly log: (line: string) => void;
  readonly limits?: Partial<WebLimits>;
}

/** What the server did with a request (tests, the bench). */
export interface WebStats {
  readonly connections: number;
  readonly refused: number;
}

const SECURITY_HEADERS: Record<string, string> = {
  "content-security-policy": "default-src 'none'; script-src 'self'; " +
    "style-src 'self' 'unsafe-inline'; connect-src 'self'; img-src 'self' data:; " +
    "font-src 'self'; frame-ancestors 'none'; base-uri 'none'; form-action 'none'",
  "x-frame-options": "DENY",
  "x-content-type-options": "nosniff",
  "referrer-policy": "no-referrer",
  "cache-control": "no-store",
  "cross-origin-opener-policy": "same-origin",
  "cross-origin-resource-policy": "same-origin",
};

export class WebServer implements AsyncDisposable {
  readonly #runtime: WebRuntime;
  readonly #log: (line: string) => void;
  readonly #limits: WebLimits;
  #token = newToken();
  #cookie = cookieValue(this.#token);
  #settings: WebSettings | null = null;
  #server: Deno.HttpServer<Deno.NetAddr> | null = null;
  #port = 0;
  readonly #live = new Set<LiveConnection>();
  #refused = 0;

  constructor(options: WebServerOptions) {
    this.#runtime = options.runtime;
    this.#log = options.log;
    this.#limits = { ...WEB_LIMITS, ...options.limits };
  }

  get running(): boolean {
    return this.#server !== null;
  }

  /** The port it listens on (the one asked, or the one given for port 0). */
  get port(): number {
    return this.#port;
  }

  get settings(): WebSettings | null {
    return this.#settings;
  }

  stats(): WebStats {
    return { connections: this.#live.size, refused: this.#refused };
  }

  /** The URL to open, token included (`lazyshell web`). */
  url(): string {
    const s = this.#settings;
    const host = !s || s.listen === "0.0.0.0" || s.listen === "::" ? "127.0.0.1" : s.listen;
    const name = host.includes(":") ? `[${host}]` : host;
    return `http://${name}:${this.#port}/?token=${this.#token}`;
  }

  /**
   * Listens as `settings` say (null: stops). A new address or port starts
   * it anew; a read-only change ends the pages open (they reconnect as the
   * new mode). Throws with one line when it cannot listen.
   */
  async apply(settings: WebSettings | null): Promise<void> {
    const old = this.#settings;
    const same = old && settings && old.listen === settings.listen &&
      (old.port === settings.port || settings.port === 0 && this.#server !== null);
    if (!settings) {
      this.#settings = null;
      return await this.#stop("The web view was turned off");
    }
    if (!same || !this.#server) {
      await this.#stop("The web view moved");
      const addr = settings.listen.replace(/^\[|\]$/g, "");
      try {
        this.#server = Deno.serve({
          hostname: addr,
          port: settings.port,
          onListen: () => {},
          onError: (error) => {
            this.#log(`web: ${messageOf(error)}`);
            return new Response("Internal error", { status: 500 });
          },
        }, (request, info) => this.#handle(request, info));
      } catch (error) {
        this.#settings = null;
        throw new Error(`Cannot listen on ${addr}:${settings.port}: ${messageOf(error)}`);
      }
      this.#port = this.#server.addr.port;
    }
    const modeChanged = old !== null && old.read_only !== settings.read_only;
    this.#settings = settings;
    if (modeChanged) this.#byeAll("The web view's mode changed: reload the page");
  }

  /** A new token: every cookie and open page of the old one is void. */
  rotate(): void {
    this.#token = newToken();
    this.#cookie = cookieValue(this.#token);
    this.#byeAll("The web view's token was rotated: open the new URL");
  }

  async [Symbol.asyncDispose](): Promise<void> {
    await this.#stop("The lazyshell server is ending");
  }

  async #stop(reason: string): Promise<void> {
    this.#byeAll(reason);
    const server = this.#server;
    this.#server = null;
    this.#port = 0;
    if (server) {
      await server.shutdown().catch(() => {});
    }
  }

  #byeAll(reason: string): void {
    for (const live of this.#live) live.bye(reason);
    this.#live.clear();
  }

  #handle(request: Request, _info: Deno.ServeHandlerInfo): Response {
    const settings = this.#settings;
    if (!settings) return refuse(503, "The web view is off");
    const url = new URL(request.url);
    const host = request.headers.get("host");
    if (!hostAllowed(host, settings.listen, settings.hosts)) {
      this.#refused++;
      return refuse(403, "Host not allowed (add it to web.hosts)");
    }
    const live = url.pathname === "/live";
    const from = originRefusal({
      host,
      origin: request.headers.get("origin"),
      fetchSite: request.headers.get("sec-fetch-site"),
      fetchMode: request.headers.get("sec-fetch-mode"),
    }, live || (request.method !== "GET" && request.method !== "HEAD"));
    if (from) {
      this.#refused++;
      return refuse(403, `Refused: ${from}`);
    }
    if (request.method !== "GET" && request.method !== "HEAD") {
      return refuse(405, "Method not allowed");
    }
    // The token, once: exchanged for the cookie, then out of the address bar.
    const token = url.searchParams.get("token");
    if (url.pathname === "/" && token !== null) {
      if (!sameSecret(token, this.#token)) {
        this.#refused++;
        return refuse(403, "Wrong or old token: run `lazyshell web` for the current URL");
      }
      const secure = request.headers.get("x-forwarded-proto") === "https";
      return new Response(ENTER_PAGE, {
        headers: {
          ...SECURITY_HEADERS,
          "content-type": "text/html; charset=utf-8",
          "set-cookie": setCookie(this.#token, secure),
        },
      });
    }
    if (!sameSecret(readCookie(request.headers.get("cookie"), COOKIE), this.#cookie)) {
      this.#refused++;
      return refuse(401, "Not signed in: open the URL `lazyshell web` prints");
    }
    if (live) return this.#upgrade(request, settings);
    const asset = ASSETS[url.pathname === "/" ? "/index.html" : url.pathname];
    if (!asset) return refuse(404, "Not found");
    return new Response(asset.body, {
      headers: { ...SECURITY_HEADERS, "content-type": asset.type },
    });
  }

  #upgrade(request: Request, settings: WebSettings): Response {
    if (request.headers.get("upgrade")?.toLowerCase() !== "websocket") {
      return refuse(400, "Expected a WebSocket");
    }
    if (this.#live.size >= this.#limits.maxConnections) {
      this.#refused++;
      return refuse(503, `Too many pages open (${this.#limits.maxConnections}): close one`);
    }
    const { socket, response } = Deno.upgradeWebSocket(request, { idleTimeout: 60 });
    const live = new LiveConnection(this.#runtime, socket, {
      limits: this.#limits,
      readOnly: settings.read_only,
      log: this.#log,
    });
    this.#live.add(live);
    const gone = () => {
      this.#live.delete(live);
      live[Symbol.dispose]();
    };
    socket.onopen = () => guarded(this.#log, () => live.open());
    socket.onmessage = (e) => {
      if (typeof e.data === "string") guarded(this.#log, () => live.message(e.data));
    };
    socket.onclose = gone;
    socket.onerror = gone;
    return response;
  }
}

/** A page's handler failed (a bug): logged; the page and the server go on. */
function guarded(log: (line: string) => void, f: () => void): void {
  try {
    f();
  } catch (error) {
    log(`web: ${messageOf(error)}`);
  }
}

function refuse(status: number, text: string): Response {
  return new Response(`${text}\n`, {
    status,
    headers: { ...SECURITY_HEADERS, "content-type": "text/plain; charset=utf-8" },
  });
}

/**
 * Sets the cookie, then goes to `/` from the page itself: a same-site
 * navigation, so the SameSite=Strict cookie is sent even when the URL was
 * opened from another app (a QR scanner, a chat).
 */
const ENTER_PAGE = `<!doctype html><meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta http-equiv="refresh" content="0; url=/">
<title>lazyshell</title><p><a href="/">Open lazyshell</a></p>`;

/** Warnings `lazyshell web` prints for these settings. */
export function exposureWarning(settings: WebSettings): string | null {
  if (isLoopback(settings.listen)) return null;
  return `Warning: web.listen is ${settings.listen}, not loopback: the page, its token and ` +
    "everything your sessions show travel unencrypted. Put it behind TLS (an SSH tunnel, " +
    "Tailscale: docs/web.md) or set web.listen back to 127.0.0.1";
}
