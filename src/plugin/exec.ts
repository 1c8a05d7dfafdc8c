/**
 * A plugin's `exec` requests (docs/plugin-protocol.md).
 *
 * Non-interactive: runs in the background in its own process group (job on
 * Windows), stdout and stderr kept up to MAX_EXEC_OUTPUT_BYTES each (the
 * rest is read and dropped), cancelled (group SIGTERM, SIGKILL 2 s later)
 * when the plugin stops or lazyshell quits.
 *
 * Interactive: the TUI hands over the terminal (TerminalHandover.run): it
 * stops drawing, the command owns the terminal, the TUI is restored after,
 * whatever happens. src/tui/plugin_handover.ts is the TUI's implementation
 * (a PTY, so no keystroke is split between two readers of the tty);
 * inheritHandover() is the plain one (stdio inherited) for simpler hosts.
 */

import { messageOf } from "../errors.ts";
import type { GroupSpawner } from "./procgroup.ts";
import { type ExecRequest, MAX_EXEC_OUTPUT_BYTES } from "./protocol.ts";
import { FROM_TERM } from "../model/teardown.ts";
import { escalate } from "../util/escalate.ts";

export interface ExecOutcome {
  readonly code: number | null;
  readonly stdout: string;
  readonly stderr: string;
  readonly error: string | null;
}

export interface ExecOptions {
  readonly cwd?: string;
  readonly env: Record<string, string>;
  readonly signal: AbortSignal;
}

/** What the TUI implements so a plugin can run an editor or a CLI in the real terminal. */
export interface TerminalHandover {
  /** Runs `argv` owning the terminal; never throws (errors go in the outcome). */
  run(
    argv: readonly string[],
    options: { readonly cwd?: string; readonly env: Record<string, string> },
  ): Promise<ExecOutcome>;
}

/** Suspend/resume hooks for inheritHandover(). */
export interface Suspendable {
  /** Leave raw mode / alternate screen / mouse so a child can own the terminal. */
  suspend(): Promise<void> | void;
  /** Take the terminal back and redraw everything. */
  resume(): Promise<void> | void;
}

/** A handover that runs the command with lazyshell's own stdio between suspend() and resume(). */
export function inheritHandover(terminal: Suspendable): TerminalHandover {
  return { run: (argv, options) => runInteractive(terminal, argv, options) };
}

async function readCapped(stream: ReadableStream<Uint8Array>, cap: number): Promise<string> {
  const chunks: Uint8Array[] = [];
  let kept = 0;
  for await (const chunk of stream) {
    if (kept >= cap) continue;
    const part = chunk.subarray(0, cap - kept);
    chunks.push(part.slice());
    kept += part.length;
  }
  const all = new Uint8Array(kept);
  let at = 0;
  for (const c of chunks) {
    all.set(c, at);
    at += c.length;
  }
  return new TextDecoder().decode(all);
}

function notRunnable(argv: readonly string[], error: unknown): ExecOutcome {
  const reason = error instanceof Deno.errors.NotFound
    ? `Command not found: ${argv[0]}`
    : `Cannot run ${argv[0]}: ${messageOf(error)}`;
  return { code: null, stdout: "", stderr: "", error: reason };
}

/** Runs `argv` in its own group and collects its output; never throws. */
export async function runCaptured(
  spawn: GroupSpawner,
  argv: readonly string[],
  options: ExecOptions,
): Promise<ExecOutcome> {
  if (options.signal.aborted) return { code: null, stdout: "", stderr: "", error: "Cancelled" };
  let child;
  try {
    child = spawn(argv, {
      env: options.env,
      stdin: "null",
      ...(options.cwd !== undefined ? { cwd: options.cwd } : {}),
    });
  } catch (error) {
    return notRunnable(argv, error);
  }
  let exited = false;
  // The shared escalation from SIGTERM on (util/escalate.ts), to the command's whole group.
  const cancel = () =>
    void escalate({
      signal: (signal) => child.signal(signal === "SIGKILL" ? "SIGKILL" : "SIGTERM"),
      alive: () => !exited,
    }, FROM_TERM);
  options.signal.addEventListener("abort", cancel, { once: true });
  try {
    // Never throws: a broken pipe still ends in an outcome (the group is killed below).
    const [stdout, stderr, status] = await Promise.all([
      readCapped(child.stdout, MAX_EXEC_OUTPUT_BYTES),
      readCapped(child.stderr, MAX_EXEC_OUTPUT_BYTES),
      child.status.finally(() => {
        exited = true;
        child.killLeftovers();
      }),
    ]);
    const error = options.signal.aborted
      ? "Cancelled"
      : status.signal !== null
      ? `Killed by ${status.signal}`
      : null;
    return { code: status.code, stdout, stderr, error };
  } catch (error) {
    child.signal("SIGKILL");
    return { code: null, stdout: "", stderr: "", error: `Exec failed: ${messageOf(error)}` };
  } finally {
    options.signal.removeEventListener("abort", cancel);
  }
}

/** Runs `argv` in the real terminal between handover.suspend() and resume(); never throws. */
export async function runInteractive(
  handover: Suspendable,
  argv: readonly string[],
  options: Omit<ExecOptions, "signal">,
): Promise<ExecOutcome> {
  const [program, ...args] = argv;
  await handover.suspend();
  try {
    const child = new Deno.Command(program!, {
      args,
      ...(options.cwd !== undefined ? { cwd: options.cwd } : {}),
      env: options.env,
      clearEnv: true,
      stdin: "inherit",
      stdout: "inherit",
      stderr: "inherit",
    }).spawn();
    const status = await child.status;
    return {
      code: status.signal === null ? status.code : null,
      stdout: "",
      stderr: "",
      error: status.signal === null ? null : `Killed by ${status.signal}`,
    };
  } catch (error) {
    return notRunnable(argv, error);
  } finally {
    await handover.resume();
  }
}

/** One plugin's exec requests: background ones cancellable together, interactive ones one at a time. */
export class ExecRunner {
  #cancel = new AbortController();
  #interactive: Promise<unknown> = Promise.resolve();

  constructor(
    private readonly spawn: GroupSpawner,
    private readonly handover: TerminalHandover | undefined,
  ) {}

  /** Resolves when no interactive command holds the terminal. */
  get idle(): Promise<unknown> {
    return this.#interactive;
  }

  /** Cancels every running and future background exec (the plugin is going away). */
  cancel(): void {
    this.#cancel.abort();
  }

  /** Runs one request with the plugin's environment; never throws. */
  async run(request: ExecRequest, env: Record<string, string>): Promise<ExecOutcome> {
    const cwd = request.dir !== undefined ? { cwd: request.dir } : {};
    if (!request.interactive) {
      return await runCaptured(this.spawn, request.argv, {
        env,
        signal: this.#cancel.signal,
        ...cwd,
      });
    }
    const handover = this.handover;
    if (!handover) {
      return {
        code: null,
        stdout: "",
        stderr: "",
        error: "Interactive exec needs the TUI (no terminal to hand over)",
      };
    }
    // One interactive command at a time: the terminal has one owner.
    const mine = this.#interactive.then(() => handover.run(request.argv, { env, ...cwd }));
    this.#interactive = mine.catch(() => {});
    return await mine;
  }
}
