/**
 * The lasting server's attach socket (docs/architecture.md, "Server and
 * clients"): any number of clients attach, each with its own TUI state
 * (selection, tab, mode, marks) drawn here at its own size, on the client's
 * terminal itself (client_tty.ts) or sent as terminal bytes; keys are read
 * there or come back, sizes come back. A client that leaves — detach,
 * a closed window, SIGKILL, an SSH drop — only takes its TUI with it.
 *
 * Owns: the listener, one TuiApp per attached client, the plugin tabs (one
 * set of plugin processes, shown by every client), and the notification
 * sink (OSC 9/777 to each attached client's terminal). Must never die of a
 * client: a bad frame or a client that stops reading closes that client,
 * and each client's input, frames, listeners and timers are entry points of
 * that client (util/guard.ts, client_faults.ts): a failure there redraws it
 * from scratch, a second one disconnects it with the reason. A connection's
 * hello is checked in hello.ts, the ones that ask one thing are answered in
 * one_shot.ts, an attached client's frames are read in client_input.ts.
 */

import { messageOf } from "../errors.ts";
import { listenPrivate } from "../ipc/runtime_dir.ts";
import { tmuxWrap } from "../notify/policy.ts";
import type { Runtime } from "../runtime/runtime.ts";
import type { HostSource } from "./hosts.ts";
import { attachOnClient, selectedFirst } from "./remote_attach.ts";
import { parseRemoteKey } from "../model/hosts.ts";
import type { SessionRestore } from "../restore/restore.ts";
import { TuiApp, type ViewPlace } from "../tui/app.ts";
import { layout } from "../tui/core/layout.ts";
import { startPluginTabs, type WiredPluginTabs } from "./plugin_feed.ts";
import { pluginClientHooks } from "./plugin_clients.ts";
import type { Link } from "./link.ts";
import { ClientOutput, dropOverflow } from "./client_output.ts";
import { Admission } from "./admission.ts";
import { ATTACH_LIMITS, type AttachLimits } from "./attach_limits.ts";
import { checkHello } from "./hello.ts";
import { answerOneShot } from "./one_shot.ts";
import { clampSize } from "../session/size_limit.ts";
import { ClientTty } from "./client_tty.ts";
import { readFrames } from "./client_input.ts";
import { libc } from "../session/libc.ts";
import { within } from "../util/async.ts";
import { type ExitMessage, FrameType, SERVER_PROTOCOL } from "../wire/protocol.ts";
import type { HelloMessage, WebRequest } from "../wire/protocol.ts";
import { clientOwner } from "./client_faults.ts";
import { dataDir } from "../config/paths.ts";
import { crashLogFile } from "../util/crash_log.ts";
import { fault, guard, type Owner } from "../util/guard.ts";
import type { ReloadReport } from "./reload.ts";
import { rehearse } from "./rehearsal.ts";
import { readOnlyRuntime } from "../runtime/read_only.ts";

export interface AttachServerOptions {
  readonly runtime: Runtime;
  /** The server's name (`-L`), for messages. */
  readonly name: string;
  readonly socket: string;
  readonly version: string;
  readonly log: (line: string) => void;
  /** The bounds of the attach socket (default: ATTACH_LIMITS, docs/architecture.md). */
  readonly limits?: Partial<AttachLimits>;
  /** Start the plugin tabs (off in tests that need none). */
  readonly plugins?: boolean;
  /** With no client attached, notifications go to this process's stdout when it is a terminal. */
  readonly stdoutSink?: boolean;
  /** The sessions saved by an earlier server (docs/restore.md), offered to each attach. */
  readonly restore?: SessionRestore;
  /** `lazyshell reload` (src/server/reload.ts); absent: this server cannot reload. */
  readonly reload?: () => Promise<ReloadReport>;
  /**
   * This server's sockets directory: a client whose session's hook socket
   * is in it runs inside this server (src/server/nesting.ts).
   */
  readonly instanceDir?: string;
  /** `lazyshell web` (src/web/view.ts); absent: this server has no web view. */
  readonly web?: (request: WebRequest) => Promise<{ text: string; code: number }>;
  /** The hosts the server watches: their sessions in every client's list (docs/remote.md). */
  readonly hosts?: HostSource;
}

/** How the server was asked to end. */
export type EndRequest =
  | { readonly why: "quit"; readonly by: string }
  | { readonly why: "kill-server" }
  /** Started by `lazyshell restore` only to answer it, and it runs no session. */
  | { readonly why: "restore-only" };

interface Client {
  readonly id: string;
  /** Whose failures its entry points are: reset, then dropped (client_faults.ts). */
  readonly owner: Owner;
  readonly link: Link;
  readonly hello: HelloMessage;
  readonly app: TuiApp;
  /** Bytes for the client's terminal: on it directly (client_tty.ts), else in Output frames. */
  readonly out: (bytes: string | Uint8Array) => void;
  /** The terminal the server draws on itself, or null (the client relays). */
  readonly tty: ClientTty | null;
  /** Typed bytes go here instead of the app while a plugin command holds the terminal. */
  divert: ((text: string) => void) | null;
  paused: boolean;
  resizeListeners: Set<(cols: number, rows: number) => void>;
  lastActive: number;
  /** Its output, bounded (client_output.ts). */
  readonly output: ClientOutput;
  /** Aborted once it left (what runs on its terminal ends: server/remote_attach.ts). */
  readonly gone: AbortSignal;
  /** The host its terminal is attached to from the list, or null (server/remote_attach.ts). */
  attachedTo: string | null;
}

export class AttachServer implements AsyncDisposable {
  readonly socket: string;
  readonly #options: AttachServerOptions;
  readonly #listener: Deno.UnixListener;
  readonly #clients = new Map<string, Client>();
  readonly #handlers = new Set<Promise<void>>();
  readonly #ended = Promise.withResolvers<EndRequest>();
  readonly #admission: Admission;
  #plugins: WiredPluginTabs | null = null;
  #pluginsStarted: Promise<void> = Promise.resolve();
  #nextClient = 1;
  #reloads: Disposable | null = null;
  /** Where the last client to leave was looking: the next attach starts there. */
  #place: ViewPlace | null = null;
  #closed = false;
  #rehearsed = false;

  private constructor(options: AttachServerOptions, listener: Deno.UnixListener) {
    this.#options = options;
    this.socket = options.socket;
    this.#listener = listener;
    this.#admission = new Admission({ ...ATTACH_LIMITS, ...options.limits }, options.log);
  }

  static async listen(options: AttachServerOptions): Promise<AttachServer> {
    const listener = await listenPrivate(options.socket);
    const server = new AttachServer(options, listener);
    server.#updateSink();
    // A reload: every client's keys and motion follow at once (announce() says so).
    server.#reloads = options.runtime.onReconfigure(({ loaded: { config } }) => {
      for (const client of server.#clients.values()) client.app.reconfigure(config);
    });
    if (options.plugins !== false) server.#pluginsStarted = server.#startPlugins();
    server.#track(server.#accept());
    return server;
  }

  /** Resolves when a client asks for the end of everything (`q` then `y`, kill-server). */
  get ended(): Promise<EndRequest> {
    return this.#ended.promise;
  }

  get clientCount(): number {
    return this.#clients.size;
  }

  /** Each attached client's output: bytes waiting, frames drawn and skipped (tests, benchmarks). */
  clientStats(): { id: string; queued: number; frames: number; skipped: number }[] {
    return [...this.#clients.values()].map(({ id, output, app }) => ({
      id,
      queued: output.queued,
      frames: app.frames,
      skipped: app.skipped,
    }));
  }

  /** A status-line message on every attached client (a reload's outcome). */
  announce(message: { readonly text: string; readonly error: boolean }): void {
    for (const client of this.#clients.values()) {
      try {
        client.app.dispatch({ type: "message", text: message.text, error: message.error });
      } catch (error) {
        this.#options.log(`client ${client.id}: ${messageOf(error)}`);
      }
    }
  }

  /** Tells every client why the server ends, and closes their connections. */
  async goodbye(message: (client: string) => ExitMessage): Promise<void> {
    const clients = [...this.#clients.values()];
    const links = clients.map((c) => c.link);
    // A terminal drawn on here is let go (last frame written) before its client restores it.
    await Promise.all(clients.map((c) => c.tty?.close()));
    for (const c of clients) c.link.send(FrameType.Exit, message(c.id));
    await Promise.all(links.map((l) => within(l.flush(), 500)));
    for (const link of links) link.close();
  }

  async [Symbol.asyncDispose](): Promise<void> {
    if (this.#closed) return;
    this.#closed = true;
    this.#reloads?.[Symbol.dispose]();
    try {
      this.#listener.close();
    } catch { /* closed */ }
    for (const client of this.#clients.values()) client.link.close();
    this.#admission[Symbol.dispose]();
    await Promise.allSettled([...this.#handlers]);
    this.#options.runtime.notifyTo(null);
    await this.#pluginsStarted;
    await this.#plugins?.[Symbol.asyncDispose]();
  }

  #track(p: Promise<void>): void {
    const task = p.catch((error) => fault(CONNECTION, "attach connection", error));
    this.#handlers.add(task);
    task.finally(() => this.#handlers.delete(task));
  }

  async #accept(): Promise<void> {
    for (;;) {
      let conn: Deno.UnixConn;
      try {
        conn = await this.#listener.accept();
      } catch {
        return; // closed
      }
      const link = this.#admission.admit(conn);
      if (link) this.#track(this.#serve(link));
    }
  }

  /**
   * The first attach rehearsed with nothing attached (rehearsal.ts): false when a client is
   * attached, the server is closing or it was rehearsed already.
   */
  async rehearse(size: { readonly cols: number; readonly rows: number }): Promise<boolean> {
    if (this.#rehearsed || this.#closed || this.#clients.size > 0) return false;
    this.#rehearsed = true;
    const run = rehearse((link) => this.#serve(link, true), {
      version: this.#options.version,
      cols: size.cols,
      rows: size.rows,
      cwd: this.#options.runtime.sessions.cwd,
    });
    // The server's end waits for it (at most rehearsal.ts's bound); its failure is the caller's.
    this.#track(run.then(() => {}, () => {}));
    return (await run) > 0;
  }

  /** `rehearsal`: the in-memory client of rehearse(), counted nowhere. */
  async #serve(link: Link, rehearsal = false): Promise<void> {
    const frames = link.frames();
    const first = await frames.next();
    this.#admission.helloed(link);
    if (first.done) return;
    const options = this.#options;
    const welcome = { protocol: SERVER_PROTOCOL, version: options.version, pid: Deno.pid };
    const hello = await checkHello(link, first.value, {
      runtime: options.runtime,
      name: options.name,
      welcome,
      instanceDir: options.instanceDir,
      clients: this.#clients.size,
      limits: this.#admission.limits,
    });
    if (!hello) return;
    // The client's terminal, when it names one the server may draw on itself.
    const tty = hello.mode === "attach" && hello.tty ? ClientTty.open(hello.tty) : null;
    link.send(FrameType.Welcome, tty ? { ...welcome, tty: true } : welcome);
    if (hello.mode === "attach") return await this.#attach(link, hello, frames, tty, rehearsal);
    const end = await answerOneShot(link, { ...hello, mode: hello.mode }, {
      ...options,
      clients: this.#clients.size,
    });
    if (end) this.#ended.resolve({ why: end });
  }

  async #attach(
    link: Link,
    hello: HelloMessage,
    frames: AsyncGenerator<{ type: number; payload: Uint8Array }>,
    tty: ClientTty | null,
    rehearsal = false,
  ): Promise<void> {
    const id = rehearsal ? "rehearsal" : `client-${this.#nextClient++}`;
    const runtime = rehearsal ? readOnlyRuntime(this.#options.runtime) : this.#options.runtime;
    let client: Client | null = null;
    // tmux's update-environment: new sessions take these from the client that attached last.
    if (hello.env) runtime.clientAttached(hello.env);
    // Drawn at once, written once the client has its terminal in raw mode on the alternate
    // screen (Ready): the first frame is built while the client finishes starting.
    const output = new ClientOutput(link, tty, {
      log: (line) => this.#options.log(`client ${id}: ${line}`),
      written: () => dropOverflow(this.#clients, this.#admission.limits),
      stalledMs: this.#admission.limits.stalledMs,
    }, hello.acks === true);
    const out = (bytes: string | Uint8Array) => output.write(bytes);
    /** The client leaves, the sessions stay: its terminal is let go before it hears why. */
    const leave = async (exit: ExitMessage = DETACHED): Promise<void> => {
      await tty?.close();
      link.send(FrameType.Exit, exit);
      await link.flush();
      link.close();
    };
    const owner = clientOwner(id, {
      reset: () => app.reset(),
      drop: (message) => {
        app[Symbol.dispose](); // no frame, timer or listener of it runs any more
        void leave({ reason: "error", message, code: 1 });
      },
    }, crashLogFile(dataDir(runtime.env)));
    const input = (t: string) => {
      if (!client || output.gone) return;
      client.lastActive = performance.now();
      if (client.divert) client.divert(t);
      else {
        app.feed(t);
        this.#plugins?.follow(app.state.tab, app.state.selected, id);
      }
    };
    const size = clampSize(hello.cols, hello.rows);
    const app = new TuiApp({
      runtime,
      client: id,
      cols: size.cols,
      rows: size.rows,
      cwd: hello.cwd,
      tmux: hello.tmux,
      write: (t) => {
        if (!client?.paused) out(t);
      },
      // The kernel passes the echo to the terminal before the parse and the rest run.
      afterEcho: () => libc()?.yieldCpu(),
      // As tmux says it: what the client was attached to, on its terminal once it is given back.
      detach: () => {
        const selected = app.state.selected === null ? null : runtime.view(app.state.selected);
        const from = selected ? `session ${selected.name}, ` : "";
        void leave({
          ...DETACHED,
          message: `[detached (from ${from}server ${this.#options.name})]`,
        });
      },
      // A rehearsal touches no plugin tab (their sizes) nor the restore offer (said once).
      ...(this.#plugins && !rehearsal ? { tabs: this.#plugins.tabs } : {}),
      ...(this.#options.restore && !rehearsal ? { restore: this.#options.restore } : {}),
      resume: selectedFirst(hello, runtime.state.sessions) ?? this.#place,
      owner,
      // Frames coalesce while the client is behind (client_output.ts).
      backlog: { behind: () => output.behind, drained: () => output.drained() },
      ...(this.#options.hosts && !rehearsal ? { hosts: this.#options.hosts } : {}),
      attachRemote: (host, sid) => attachOnClient(client!, host, sid, runtime.env),
    });
    const left = new AbortController();
    client = {
      gone: left.signal,
      attachedTo: null,
      id,
      owner,
      link,
      hello,
      app,
      out,
      tty,
      divert: null,
      paused: false,
      resizeListeners: new Set(),
      lastActive: performance.now(),
      output,
    };
    if (!rehearsal) {
      this.#clients.set(id, client);
      this.#updateSink();
    }
    void app.done.then(() => {
      // `q` (and `y` while sessions run): the end of the server, for every client.
      if (!link.closed && !link.leaving) this.#ended.resolve({ why: "quit", by: id });
    });
    try {
      // Drawing on the client's terminal waits until the client has it in raw mode.
      guard(owner, "start", () => app.start());
      await readFrames(frames, {
        owner,
        app,
        output,
        tty,
        size: hello,
        input,
        leave: () => leave(),
        resizeListeners: client.resizeListeners,
        active: () => client!.lastActive = performance.now(),
      });
    } catch (error) {
      this.#options.log(`client ${id}: ${messageOf(error)}`);
    } finally {
      await tty?.close();
      link.close();
      left.abort();
      app[Symbol.dispose]();
      if (!rehearsal) {
        this.#clients.delete(id);
        this.#place = app.place;
        this.#plugins?.forget(id);
        runtime.forgetClient(id);
        this.#updateSink();
      }
    }
  }

  /** OSC 9/777 to every attached client's terminal (none attached: no channel). */
  #updateSink(): void {
    const runtime = this.#options.runtime;
    if (this.#clients.size === 0) {
      return runtime.notifyTo(this.#options.stdoutSink ? "stdout" : null);
    }
    runtime.notifyTo((osc, about) => {
      // A terminal attached to that host from the list hears it from the host itself.
      const host = about ? parseRemoteKey(about.sessionId)?.host : undefined;
      for (const client of this.#clients.values()) {
        if (host !== undefined && client.attachedTo === host) continue;
        guard(
          client.owner,
          "notification",
          () => client.out(client.hello.tmux ? tmuxWrap(osc) : osc),
        );
      }
    });
  }

  async #startPlugins(): Promise<void> {
    const runtime = this.#options.runtime;
    const cols = runtime.config.default_size.cols;
    const rows = runtime.config.default_size.rows;
    const body = layout(cols, rows).body;
    try {
      this.#plugins = await startPluginTabs(runtime, {
        width: body.width,
        height: body.height,
        ...pluginClientHooks(this.#clients, { cols, rows }),
      });
    } catch (error) {
      this.#options.log(`plugin tabs: ${messageOf(error)}`);
      return;
    }
    for (const client of this.#clients.values()) client.app.setTabs(this.#plugins.tabs);
    for (const problem of this.#plugins.problems) this.#options.log(`plugin tabs: ${problem}`);
  }
}

/** A client leaving without a word (its signal, its terminal hung up); `d` says where from. */
const DETACHED: ExitMessage = { reason: "detached", message: "", code: 0 };

/** An attach connection's handler failed: the connection is closed (its client, if any, left). */
const CONNECTION: Owner = { name: "attach connection" };
