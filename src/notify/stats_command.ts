/**
 * `agent_stats_command` (docs/notifications.md): run for the selected session only, at
 * most every `intervalMs` (5 s), through `sh -c` in the session's cwd with
 * `LAZYSHELL_SESSION_ID` set; the first line of its stdout is the session's
 * stats line. lazyshell counts no tokens itself.
 *
 * Invariants: one run at a time; a run past `timeoutMs` is killed; a
 * failure (non-zero exit, command not found, timeout) becomes a one-word
 * marker (`stats:err`, `stats:timeout`) the screen draws dim — never an
 * exception. Must not import tui/ or runtime/.
 */

import { within } from "../util/async.ts";
import { sanitize } from "./policy.ts";
import { readText } from "../util/streams.ts";

export const STATS_INTERVAL_MS = 5000;

export interface StatsLine {
  /** The first line, or the marker when `failed`. */
  readonly text: string;
  readonly failed: boolean;
  /** Epoch ms of the run. */
  readonly at: number;
}

export interface StatsTarget {
  readonly id: string;
  readonly cwd: string;
}

export interface StatsOptions {
  /** null: no command configured, nothing runs. */
  readonly command: string | null;
  readonly env?: Readonly<Record<string, string | undefined>>;
  readonly intervalMs?: number;
  readonly timeoutMs?: number;
  readonly now?: () => number;
}

export class StatsCommand implements AsyncDisposable {
  #options: StatsOptions;
  #lines = new Map<string, StatsLine>();
  #selected: StatsTarget | null = null;
  #timer: ReturnType<typeof setTimeout> | undefined;
  #running: Promise<void> | null = null;
  #child: Deno.ChildProcess | null = null;
  #disposed = false;
  #listeners = new Set<(id: string, line: StatsLine) => void>();

  constructor(options: StatsOptions) {
    this.#options = options;
  }

  /** The last stats line of a session, if it was ever selected. */
  line(id: string): StatsLine | null {
    return this.#lines.get(id) ?? null;
  }

  /** Called on every result (the TUI redraws, the stats tab updates). */
  on(listener: (id: string, line: StatsLine) => void): Disposable {
    this.#listeners.add(listener);
    return { [Symbol.dispose]: () => this.#listeners.delete(listener) };
  }

  /**
   * A new `agent_stats_command` (a reload; null: none). Lines of the old
   * command are forgotten; the selected session's runs again once the one
   * running now (if any) ends.
   */
  setCommand(command: string | null): void {
    if (command === this.#options.command) return;
    this.#options = { ...this.#options, command };
    this.#lines.clear();
    this.#schedule();
  }

  /** The selected session changed (null: none). Runs at once if its line is stale. */
  select(target: StatsTarget | null): void {
    if (target?.id === this.#selected?.id) return;
    this.#selected = target;
    this.#schedule();
  }

  forget(id: string): void {
    this.#lines.delete(id);
    if (this.#selected?.id === id) this.select(null);
  }

  async [Symbol.asyncDispose](): Promise<void> {
    this.#disposed = true;
    clearTimeout(this.#timer);
    try {
      this.#child?.kill("SIGKILL");
    } catch { /* gone */ }
    await this.#running;
    this.#listeners.clear();
  }

  #now(): number {
    return (this.#options.now ?? Date.now)();
  }

  #schedule(): void {
    clearTimeout(this.#timer);
    this.#timer = undefined;
    const target = this.#selected;
    if (this.#disposed || !this.#options.command || !target || this.#running) return;
    const last = this.#lines.get(target.id)?.at;
    const interval = this.#options.intervalMs ?? STATS_INTERVAL_MS;
    const wait = last === undefined ? 0 : Math.max(0, last + interval - this.#now());
    this.#timer = setTimeout(() => {
      this.#timer = undefined;
      this.#running = this.#run(target).finally(() => {
        this.#running = null;
        this.#schedule();
      });
    }, wait);
  }

  async #run(target: StatsTarget): Promise<void> {
    const at = this.#now();
    const line = await this.#exec(target).catch(() => ({ text: "stats:err", failed: true }));
    if (this.#disposed) return;
    const result = { ...line, at };
    this.#lines.set(target.id, result);
    for (const listener of this.#listeners) {
      try {
        listener(target.id, result);
      } catch { /* a listener must not stop the loop */ }
    }
  }

  async #exec(target: StatsTarget): Promise<{ text: string; failed: boolean }> {
    const env: Record<string, string> = {};
    for (const [k, v] of Object.entries(this.#options.env ?? Deno.env.toObject())) {
      if (v !== undefined) env[k] = v;
    }
    env.LAZYSHELL_SESSION_ID = target.id;
    const child = new Deno.Command("sh", {
      args: ["-c", this.#options.command!],
      cwd: target.cwd,
      env,
      clearEnv: true,
      stdin: "null",
      stdout: "piped",
      stderr: "null",
    }).spawn();
    this.#child = child;
    const stdout = readText(child.stdout, { max: 65536, firstLine: true });
    try {
      const timeoutMs = this.#options.timeoutMs ?? 3000;
      if (!(await within(child.status, timeoutMs))) {
        try {
          child.kill("SIGKILL");
        } catch { /* exited meanwhile */ }
        await child.status;
        stdout.cancel();
        await stdout.text;
        return { text: "stats:timeout", failed: true };
      }
      const status = await child.status;
      // A backgrounded grandchild may hold stdout open: do not wait for it.
      if (!(await within(stdout.text, 200))) stdout.cancel();
      const text = await stdout.text;
      // Stopping after the first line may end a chatty command with SIGPIPE: that is fine.
      if (!status.success && !(status.signal === "SIGPIPE" && text !== "")) {
        return { text: "stats:err", failed: true };
      }
      return { text: sanitize(text, 200), failed: false };
    } finally {
      this.#child = null;
    }
  }
}
