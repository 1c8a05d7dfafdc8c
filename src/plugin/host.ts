/**
 * One plugin tab's process (docs/plugin-protocol.md): spawns it in its own group,
 * speaks JSON Lines v1 over its stdin/stdout, keeps the last 4 KiB of its
 * stderr, and performs the effects of the pure lifecycle (lifecycle.ts).
 *
 * Invariants: nothing a plugin does throws out of this class; a failed
 * plugin shows its reason and stderr until `reload`; `close()` returns only
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
import { LineSplitter } from "../util/lines.ts";
import type { GroupProcess, GroupSpawner } from "./procgroup.ts";
import {
  encodeMessage,
  type ExecRequest,
  type HostMessage,
  type HostRequest,
  type Manifest,
  MAX_LINE_BYTES,
  MAX_QUEUED_MESSAGES,
  type Mouse,
  parsePluginMessage,
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

interface Run {
  readonly generation: number;
  readonly child: GroupProcess;
  readonly writer: WritableStreamDefaultWriter<Uint8Array> | null;
  readonly queue: string[];
  writing: boolean;
  stdinClosed: boolean;
  readonly readers: ReadableStreamDefaultReader<Uint8Array>[];
  readonly done: Promise<void>;
}

const encoder = new TextEncoder();

export class PluginHost implements AsyncDisposable {
  #state: TabState;
  #run: Run | null = null;
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

  constructor(private readonly options: HostOptions) {
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
    if (run.stdinClosed || run.writer === null) return false;
    run.queue.push(encodeMessage(message) + "\n");
    if (run.queue.length >= MAX_QUEUED_MESSAGES) {
      this.#dispatch({ type: "queue_full", queued: run.queue.length });
      return false;
    }
    this.#pump(run);
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
    const entry = this.options.entry;
    const env = pluginEnv(this.options.env, entry.id);
    try {
      Deno.mkdirSync(env.LAZYSHELL_DATA_DIR!, { recursive: true });
    } catch { /* the plugin will say if it needs it */ }
    let child: GroupProcess;
    try {
      child = this.options.spawn([...entry.command, "serve"], { env, stdin: "piped" });
    } catch (error) {
      const reason = error instanceof Deno.errors.NotFound
        ? `${entry.command[0]} not found`
        : messageOf(error);
      this.#dispatch({ type: "spawn_failed", reason });
      return;
    }
    const generation = this.#state.generation;
    const readers = [child.stdout.getReader(), child.stderr.getReader()];
    const run: Run = {
      generation,
      child,
      writer: child.stdin?.getWriter() ?? null,
      queue: [],
      writing: false,
      stdinClosed: false,
      readers,
      done: Promise.resolve(),
    };
    const stdoutDone = this.#readStdout(run, readers[0]!);
    const stderrDone = this.#readStderr(readers[1]!);
    const exited = child.status.then((exit) => {
      if (this.#state.generation === generation) this.#dispatch({ type: "exited", exit });
      else child.killLeftovers();
    });
    (run as { done: Promise<void> }).done = Promise.all([exited, stdoutDone, stderrDone])
      .then(() => run.writer?.releaseLock());
    this.#run = run;
    this.#dispatch({ type: "started" });
  }

  async #stop(): Promise<void> {
    const run = this.#run;
    if (run === null) return;
    this.#dispatch({ type: "stop" });
    // After the leader exits, leftovers are killed; a descendant that escaped
    // the group (setsid) may still hold stdout: stop reading it then.
    await run.child.status;
    const settled = await Promise.race([
      run.done.then(() => true),
      new Promise<false>((resolve) => {
        const t = setTimeout(() => resolve(false), 500);
        run.done.finally(() => clearTimeout(t));
      }),
    ]);
    if (!settled) {
      for (const reader of run.readers) reader.cancel().catch(() => {});
      await run.done;
    }
    this.#closeStdin(run);
    this.#clearTimers();
    this.#run = null;
  }

  async #readStdout(run: Run, reader: ReadableStreamDefaultReader<Uint8Array>): Promise<void> {
    const splitter = new LineSplitter(MAX_LINE_BYTES);
    const current = () => this.#state.generation === run.generation;
    try {
      while (true) {
        const { value, done } = await reader.read();
        const items = done ? splitter.end() : splitter.push(value);
        for (const item of items) {
          if (!current()) continue;
          if (item.type === "oversize") {
            this.#dispatch({
              type: "bad_line",
              reason: `Line over 1 MiB (no newline in the first ${item.bytes} bytes)`,
            });
          } else {
            this.#onLine(item.text);
          }
        }
        if (done) break;
        if (current() && this.#state.phase === "failed") {
          // Nothing it says counts any more: stop reading (a flood then blocks on
          // its full pipe instead of burning our CPU) until the kill lands.
          await reader.cancel().catch(() => {});
          break;
        }
      }
    } catch { /* cancelled or broken pipe: the exit event says the rest */ }
  }

  #onLine(text: string): void {
    if (text.trim() === "") return;
    try {
      this.#dispatch({ type: "message", message: parsePluginMessage(text) });
    } catch (error) {
      if (error instanceof UnknownTypeError) return; // a newer plugin: skip, stay compatible
      const reason = error instanceof ProtocolError ? error.message : messageOf(error);
      this.#dispatch({ type: "bad_line", reason });
    }
  }

  async #readStderr(reader: ReadableStreamDefaultReader<Uint8Array>): Promise<void> {
    try {
      while (true) {
        const { value, done } = await reader.read();
        if (done) break;
        this.#stderr.push(value);
      }
    } catch { /* cancelled */ }
  }

  #pump(run: Run): void {
    if (run.writing || run.writer === null) return;
    run.writing = true;
    const writer = run.writer;
    (async () => {
      while (run.queue.length > 0 && !run.stdinClosed) {
        try {
          await writer.write(encoder.encode(run.queue[0]!));
        } catch {
          run.queue.length = 0; // the plugin is gone; its exit is reported separately
          break;
        }
        run.queue.shift();
      }
      run.writing = false;
    })();
  }

  #closeStdin(run: Run): void {
    if (run.stdinClosed || run.writer === null) return;
    run.stdinClosed = true;
    const pending = run.writing || run.queue.length > 0;
    run.queue.length = 0;
    // A write stuck on a full pipe would block close(); abort drops it and closes the fd.
    (pending ? run.writer.abort() : run.writer.close()).catch(() => {});
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
          setTimeout(() => {
            this.#timers.delete(effect.timer);
            if (this.#state.generation === generation) {
              this.#dispatch({ type: "timeout", timer: effect.timer });
            }
          }, effect.ms),
        );
        break;
      }
      case "cancel_timer":
        clearTimeout(this.#timers.get(effect.timer));
        this.#timers.delete(effect.timer);
        break;
      case "close_stdin":
        if (run) this.#closeStdin(run);
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
      ...(this.options.config !== undefined ? { config: this.options.config } : {}),
      width: this.#width,
      height: this.#height,
    };
  }

  /** Keeps an exec/request until it settles; nothing a plugin asks for may reject unhandled. */
  #track(work: Promise<void>): void {
    const safe = work.catch(() => {}).finally(() => this.#execs.delete(safe));
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
