/**
 * The web view as the lasting server runs it: started at start-up when
 * `web.enabled`, following a reload (enabled, address, port, read-only),
 * and turned on, rotated or off by `lazyshell web` (a client mode of the
 * attach socket: webCommand) — on until `lazyshell web --off`, whatever a
 * reload says.
 */

import { messageOf } from "../errors.ts";
import type { Config } from "../config/config.ts";
import { isLoopback } from "./auth.ts";
import type { WebLimits } from "./limits.ts";
import type { WebRuntime } from "./live.ts";
import { qrText } from "./qr.ts";
import { exposureWarning, WebServer, type WebSettings } from "./server.ts";

/** `lazyshell web [--rotate] [--off]`, as the client sends it. */
export interface WebRequest {
  readonly rotate: boolean;
  readonly off: boolean;
  /** The client's stdout is a terminal: draw the QR code. */
  readonly qr: boolean;
}

export interface WebViewRuntime extends WebRuntime {
  readonly config: Config;
  onReconfigure(listener: (next: { loaded: { config: Config } }) => Promise<void>): Disposable;
}

export class WebView implements AsyncDisposable {
  readonly server: WebServer;
  readonly #runtime: WebViewRuntime;
  readonly #log: (line: string) => void;
  readonly #reload: Disposable;
  /** Turned on by `lazyshell web` (stays on across reloads until `--off`). */
  #forced = false;

  private constructor(
    runtime: WebViewRuntime,
    log: (line: string) => void,
    limits?: Partial<WebLimits>,
  ) {
    this.#runtime = runtime;
    this.#log = log;
    this.server = new WebServer({ runtime, log, ...(limits ? { limits } : {}) });
    this.#reload = runtime.onReconfigure(async ({ loaded: { config } }) => {
      await this.#follow(config.web);
    });
  }

  /** Starts it when the config says so; a failure to listen is logged, the server runs on. */
  static async start(
    runtime: WebViewRuntime,
    log: (line: string) => void,
    limits?: Partial<WebLimits>,
  ): Promise<WebView> {
    const view = new WebView(runtime, log, limits);
    try {
      await view.#follow(runtime.config.web);
    } catch (error) {
      log(`lazyshell web: ${messageOf(error)}`);
    }
    return view;
  }

  async #follow(web: WebSettings): Promise<void> {
    const on = web.enabled || this.#forced;
    const before = this.server.running ? this.server.port : null;
    await this.server.apply(on ? { ...web, enabled: true } : null);
    const after = this.server.running ? this.server.port : null;
    if (after !== before) {
      this.#log(
        after === null
          ? "lazyshell web: off"
          : `lazyshell web: listening on ${web.listen}:${after} (\`lazyshell web\` prints the URL)`,
      );
    }
    if (on) {
      const warning = exposureWarning(web);
      if (warning) this.#log(`lazyshell web: ${warning}`);
    }
  }

  /** What `lazyshell web` prints, and its exit code. */
  async command(request: WebRequest): Promise<{ text: string; code: number }> {
    const web = this.#runtime.config.web;
    if (request.off) {
      this.#forced = false;
      await this.server.apply(null);
      return {
        text: "The web view is off" +
          (web.enabled ? " (web.enabled in config.yml turns it on again at the next start)" : "") +
          "\n",
        code: 0,
      };
    }
    this.#forced = true;
    try {
      await this.#follow(web);
    } catch (error) {
      this.#forced = false;
      return { text: `lazyshell web: ${messageOf(error)}\n`, code: 1 };
    }
    if (request.rotate) this.server.rotate();
    const url = this.server.url();
    const lines = [
      `Open ${url}`,
      ...(request.qr ? ["", ...qrText(url), ""] : []),
      ...(web.read_only
        ? ["Read-only (web.read_only): the page shows, it cannot answer or type."]
        : []),
      "The token in it is a password: who has the URL can " +
      (web.read_only ? "read your sessions" : "type into your sessions") +
      ". `lazyshell web --rotate` voids it; `lazyshell web --off` stops the view.",
    ];
    const warning = exposureWarning(web);
    if (warning) lines.push(warning);
    else if (isLoopback(web.listen)) {
      lines.push(
        `From a phone or another machine: through TLS, e.g. \`ssh -L ${this.server.port}:` +
          `127.0.0.1:${this.server.port} THIS-HOST\` or \`tailscale serve ${this.server.port}\` ` +
          "(docs/web.md)",
      );
    }
    return { text: lines.join("\n") + "\n", code: 0 };
  }

  async [Symbol.asyncDispose](): Promise<void> {
    this.#reload[Symbol.dispose]();
    await this.server[Symbol.asyncDispose]();
  }
}
