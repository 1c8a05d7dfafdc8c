/**
 * One plugin tab (docs/plugin-protocol.md): runs its process (plugin_process.ts: its own
 * group, stdin queue, stdout lines, a 4 KiB stderr tail), speaks JSON Lines v1 over it,
 * and performs the effects of the pure lifecycle (lifecycle.ts): timers, signals, execs,
 * extension requests. Start, sleep/wake, reload and close are here.
 *
 * Invariants: nothing a plugin does throws out of this class; a failed
 * plugin shows its reason and stderr until `reload`; a bug of ours while
 * handling what it sent (its lines, exit, timers, requests) is the plugin's
 * failure alone (util/guard.ts): logged with its stack, the plugin failed
 * with the reason, every other tab and session untouched; `close()` returns only
 * once the process group is gone and every stream, timer and exec is done
 * (tests run with sanitizers on). Must not import tui/.
 */

import type { Env } from "../config/paths.ts";
import { messageOf, ProtocolError } from "../errors.ts";
import { pluginDirs, type PluginEntry, pluginEnv } from "./discovery.ts";
import { ExecRunner, type TerminalHandover } from "./exec.ts";
import {
  type Effect,
  initialState,
  type LifeEvent,
  receivesKey,
  step,
  type TabState,
  type Timer,
  wants,
} from "./lifecycle.ts";
import { TailBuffer } from "./lines.ts";
import { faults } from "../util/fault_injection.ts";
import { fault, guarded, type Owner } from "../util/guard.ts";
import { PluginProcess, spawnPlugin } from "./plugin_process.ts";
import type { GroupSpawner } from "./procgroup.ts";
import {
  encodeMessage,
  type ExecRequest,
  type HostMessage,
  type HostRequest,
  type Manifest,
  MAX_QUEUED_MESSAGES,
  type Mouse,
  parsePluginMessage,
  type PluginMessage,
  STDERR_TAIL_BYTES,
  type Theme,
  UnknownTypeError,
} from "./protocol.ts";

export const DEFAULT_THEME: Theme = { id: "default", colors: {} };

export interface HostOptions {
  readonly entry: PluginEntry;
  readonly env: Env;
  /** The plugin's `<id>:` section of config.yml (omitted from init when undefined). */
  readonly config?: unknown;
  readonly width: number;
  readonly height: number;
  readonly theme?: Theme;
  readonly spawn: GroupSpawner;
  /** For interactive exec; without it an interactive exec fails with a clear error. */
  readonly handover?: TerminalHandover;
  /** Extension requests (arm/disarm watcher, select session); throw to refuse. */
  readonly onRequest?: (request: HostRequest) => Promise<void> | void;
  /** The manifest arrived (or changed): send the subscribed extension data now. */
  readonly onReady?: (manifest: Manifest) => void;
  /** Anything the tab draws changed. */
  readonly onChange?: () => void;
}

export class PluginHost implements AsyncDisposable {
  #state: TabState;
  #run: PluginProcess | null = null;
  #timers = new Map<Timer, ReturnType<typeof setTimeout>>();
  #stderr = new TailBuffer(STDERR_TAIL_BYTES);
  #execs = new Set<Promise<void>>();
  #runner: ExecRunner;
  #width: number;
  #height: number;
  #closed = false;
  /** The last manifest it sent (kept while it sleeps), else its entry's. */
  #known: Manifest | null;
  #launched = false;
  /** A sleep() under way: a wake() waits for it. */
  #sleeping: Promise<void> | null = null;
  /** Whose failures its callbacks are: a bug of ours there fails the plugin with the reason. */
  readonly #owner: Owner;

  /** Its config.yml section, as sent in `init` (a reload may change it: setConfig). */
  #config: unknown;

  constructor(private readonly options: HostOptions) {
    this.#owner = {
      name: `plugin ${options.entry.id}`,
      fault: (error, where) => {
        this.#dispatch({
          type: "host_fault",
          reason: `Internal error while handling its ${where}: ${messageOf(error)}`,
        });
        return `failed (\`:${this.id} reload\` restarts it)`;
      },
    };
    this.#config = options.config;
    this.#state = initialState(options.entry.id);
    this.#known = options.entry.manifest ?? null;
    this.#width = options.width;
    this.#height = options.height;
    this.#runner = new ExecRunner(options.spawn, options.handover);
  }

  get id(): string {
    return this.options.entry.id;
  }

  get state(): TabState {
    return this.#state;
  }

  /** Whether the plugin takes messages of `type` (its manifest's subscriptions). */
  wants(type: HostMessage["type"]): boolean {
    return wants(this.#state, type);
  }

  /** The last 4 KiB of the plugin's stderr (shown with a failure). */
  get stderrTail(): string {
    return this.#stderr.text();
  }

  get pid(): number | null {
    return this.#run?.child.pid ?? null;
  }

  /** Its manifest: the running process's, else the last one it sent, else its entry's. */
  get manifest(): Manifest | null {
    return this.#state.manifest ?? this.#known;
  }

  /** It may sleep while hidden: a built-in, or a plugin whose manifest opts in. */
  get onDemand(): boolean {
    return this.options.entry.onDemand === true || this.manifest?.onDemand === true;
  }

  /** Its process runs (or starts). */
  get awake(): boolean {
    return this.#run !== null &&
      (this.#state.phase === "starting" || this.#state.phase === "running");
  }

  /** Something it asked for (an exec, a request) has not finished. */
  get busy(): boolean {
    return this.#execs.size > 0;
  }

  /** Starts the plugin (once; use reload() afterwards). */
  start(): void {
    if (this.#run !== null || this.#closed) return;
    this.#launch();
  }

  /**
   * Starts it if it does not run: the first time it is needed, or again
   * after sleep() (a fresh init). A failed plugin waits for `reload`.
   */
  wake(): void {
    if (this.#closed || this.#state.phase === "failed") return;
    if (this.#sleeping) {
      void this.#sleeping.then(() => this.wake());
      return;
    }
    if (this.#run !== null) return;
    if (!this.#launched) return this.start();
    this.#stderr.clear();
    this.#state = initialState(this.id, this.#state.generation + 1);
    this.#launch();
  }

  /** Stops it on purpose (hidden, idle): its stdin closes as at quit; wake() starts it again. */
  sleep(): Promise<void> {
    if (this.#closed || this.#run === null || this.#sleeping) {
      return this.#sleeping ?? Promise.resolve();
    }
    this.#sleeping = this.#stop().finally(() => (this.#sleeping = null));
    return this.#sleeping;
  }

  /** Sends a host message if this plugin wants it (v1 always; extensions when subscribed). */
  send(message: HostMessage): boolean {
    const run = this.#run;
    if (run === null || !wants(this.#state, message.type)) return false;
    if (this.#state.phase !== "starting" && this.#state.phase !== "running") return false;
    if (!run.writable) return false;
    if (!run.write(encodeMessage(message) + "\n", MAX_QUEUED_MESSAGES)) {
      this.#dispatch({ type: "queue_full", queued: run.queued });
      return false;
    }
    return true;
  }

  /** A key in the active tab; false when it is not the plugin's (a global key, not capturing). */
  key(key: string, text = ""): boolean {
    if (!receivesKey(this.#state, key)) return false;
    return this.send({ type: "key", key, text });
  }

  paste(text: string): boolean {
    return this.send({ type: "paste", text });
  }

  mouse(mouse: Mouse): boolean {
    return this.send({ type: "mouse", mouse });
  }

  command(name: string): boolean {
    return this.send({ type: "command", name });
  }

  resize(width: number, height: number): void {
    if (width === this.#width && height === this.#height) return;
    this.#width = width;
    this.#height = height;
    this.send({ type: "resize", width, height });
  }

  /**
   * `:reload`: a running plugin gets a `reload` message; a failed or stopped
   * one is restarted (a new generation, a fresh init).
   */
  async reload(): Promise<void> {
    if (this.#closed) return;
    if (this.#state.phase === "running") {
      this.send({ type: "reload" });
      return;
    }
    await this.restart();
  }

  /**
   * Its config.yml section changed (a reload): a running plugin restarts
   * with it (a fresh init); one that is not running gets it when it starts.
   */
  async setConfig(config: unknown): Promise<void> {
    this.#config = config;
    if (this.#closed || !this.awake) return;
    await this.restart();
  }

  /** Stops the current process (if any) and starts a new one. */
  async restart(): Promise<void> {
    await this.#stop();
    if (this.#closed) return;
    this.#stderr.clear();
    this.#state = initialState(this.id, this.#state.generation + 1);
    this.#launch();
  }

  /** Stops the plugin and every exec it started; resolves when all is gone. */
  async close(): Promise<void> {
    this.#closed = true;
    this.#runner.cancel();
    await this.#stop();
    await Promise.all([...this.#execs]);
    await this.#runner.idle;
  }

  async [Symbol.asyncDispose](): Promise<void> {
    await this.close();
  }

  // ------------------------------------------------------------ process

  #launch(): void {
    this.#launched = true;
    const generation = this.#state.generation;
    const env = pluginEnv(this.options.env, this.id);
    const run = spawnPlugin(this.options.spawn, this.options.entry.command, env, this.#stderr, {
      current: () => this.#state.generation === generation,
      deaf: () => this.#state.phase === "failed",
      line: guarded(this.#owner, "message", (text: string) => this.#onLine(text)),
      oversize: guarded(this.#owner, "message", (bytes: number) =>
        this.#dispatch({
          type: "bad_line",
          reason: `Line over 1 MiB (no newline in the first ${bytes} bytes)`,
        })),
      exited: guarded(this.#owner, "exit", (exit) => this.#dispatch({ type: "exited", exit })),
    });
    if (!(run instanceof PluginProcess)) {
      this.#dispatch({ type: "spawn_failed", reason: run.reason });
      return;
    }
    this.#run = run;
    this.#dispatch({ type: "started" });
  }

  async #stop(): Promise<void> {
    const run = this.#run;
    if (run === null) return;
    this.#dispatch({ type: "stop" });
    await run.stopped();
    this.#clearTimers();
    this.#run = null;
  }

  #onLine(text: string): void {
    if (text.trim() === "") return;
    let message: PluginMessage;
    try {
      message = parsePluginMessage(text);
    } catch (error) {
      if (error instanceof UnknownTypeError) return; // a newer plugin: skip, stay compatible
      const reason = error instanceof ProtocolError ? error.message : messageOf(error);
      return this.#dispatch({ type: "bad_line", reason });
    }
    // What the message does is ours: a throw there is a bug (the owner's), not a bad line.
    if (faults) faults.hit("plugin", this.id);
    this.#dispatch({ type: "message", message });
  }

  // ------------------------------------------------------------ lifecycle effects

  #dispatch(event: LifeEvent): void {
    const { state, effects } = step(this.#state, event);
    this.#state = state;
    for (const effect of effects) this.#perform(effect);
  }

  #perform(effect: Effect): void {
    const run = this.#run;
    switch (effect.type) {
      case "send_init":
        this.send(this.#init());
        break;
      case "start_timer": {
        clearTimeout(this.#timers.get(effect.timer));
        const generation = this.#state.generation;
        this.#timers.set(
          effect.timer,
          setTimeout(
            guarded(this.#owner, "timer", () => {
              this.#timers.delete(effect.timer);
              if (this.#state.generation === generation) {
                this.#dispatch({ type: "timeout", timer: effect.timer });
              }
            }),
            effect.ms,
          ),
        );
        break;
      }
      case "cancel_timer":
        clearTimeout(this.#timers.get(effect.timer));
        this.#timers.delete(effect.timer);
        break;
      case "close_stdin":
        run?.closeStdin();
        break;
      case "signal":
        run?.child.signal(effect.signal);
        break;
      case "kill_leftovers":
        run?.child.killLeftovers();
        break;
      case "ready":
        this.#known = effect.manifest;
        this.options.onReady?.(effect.manifest);
        break;
      case "exec":
        this.#track(this.#exec(effect.request));
        break;
      case "request":
        this.#track(this.#request(effect.request));
        break;
      case "changed":
        this.options.onChange?.();
        break;
    }
  }

  #clearTimers(): void {
    for (const t of this.#timers.values()) clearTimeout(t);
    this.#timers.clear();
  }

  #init(): HostMessage {
    const dirs = pluginDirs(this.options.env, this.id);
    return {
      type: "init",
      protocol: 1,
      id: this.id,
      ...dirs,
      theme: this.options.theme ?? DEFAULT_THEME,
      ...(this.#config !== undefined ? { config: this.#config } : {}),
      width: this.#width,
      height: this.#height,
    };
  }

  /** Keeps an exec/request until it settles; nothing a plugin asks for may reject unhandled. */
  #track(work: Promise<void>): void {
    const safe = work.catch((error) => fault(this.#owner, "request", error))
      .finally(() => this.#execs.delete(safe));
    this.#execs.add(safe);
  }

  async #exec(request: ExecRequest): Promise<void> {
    const outcome = await this.#runner.run(request, pluginEnv(this.options.env, this.id));
    this.send({ type: "exec_result", execId: request.execId, ...outcome });
  }

  async #request(request: HostRequest): Promise<void> {
    let error: string | null = null;
    try {
      if (!this.options.onRequest) throw new Error(`This host does not support ${request.type}`);
      await this.options.onRequest(request);
    } catch (e) {
      error = messageOf(e);
    }
    if (request.requestId !== undefined) {
      this.send({ type: "result", requestId: request.requestId, ok: error === null, error });
    }
  }
}
