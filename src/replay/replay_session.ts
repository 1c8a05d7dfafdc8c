/**
 * A captured session as the detection engine reads it (detector_context.ts
 * `DetectedSession`): the real emulator fed the capture's bytes, the keys
 * typed, its resizes and its exit, each reported as a live Session reports
 * them. Nothing is answered (no PTY behind it).
 *
 * Its foreground process stands in for the capture's agent as its package
 * runs it (`standIn`: the manifest's process name, or its script under
 * node), so the engine identifies it from the process table as it would live
 * (S4). A raw file with no agent named has no process to read: the
 * manifests' title and screen hints name the program instead.
 */

import type { ProcessInfo, ScreenView } from "../model/snapshot.ts";
import type { SessionStatus } from "../model/session.ts";
import { identifyByHints } from "../detect/rules.ts";
import type { Manifest } from "../detect/manifest.ts";
import type { DetectedSession } from "../runtime/detector_context.ts";
import type { SessionEvent } from "../session/session_events.ts";
import { terminalView } from "../session/screen_view.ts";
import { HeadlessTerminal } from "../session/terminal.ts";

/** The replayed child's pid: a number no live process table hands out twice in one replay. */
export const REPLAY_PID = 0;

export interface ReplaySessionOptions {
  readonly id: string;
  readonly cols: number;
  readonly rows: number;
  /** The program in the foreground (argv), or null: named by the screen's hints. */
  readonly argv: readonly string[] | null;
  /** For the hints when `argv` is null. */
  readonly manifests: readonly Manifest[];
  /** Report the program's OSC 7501 records and query (false: screen rules alone). */
  readonly declared: boolean;
}

export class ReplaySession implements DetectedSession, Disposable {
  readonly id: string;
  readonly pid = REPLAY_PID;
  readonly terminal: HeadlessTerminal;
  #status: SessionStatus = "running";
  #listeners = new Set<(e: SessionEvent) => void>();
  readonly #process: ProcessInfo | null;
  readonly #manifests: readonly Manifest[];
  /** The stand-in process per agent the hints named (the same object while it is the same). */
  #hinted = new Map<string, ProcessInfo>();

  constructor(options: ReplaySessionOptions) {
    this.id = options.id;
    this.#manifests = options.manifests;
    this.#process = options.argv && processOf(options.argv);
    this.terminal = new HeadlessTerminal({ cols: options.cols, rows: options.rows });
    this.terminal.on((e) => {
      const record = e.type === "osc7501" || e.type === "osc7501-query";
      if (options.declared || !record) this.#emit(e);
    });
  }

  get status(): SessionStatus {
    return this.#status;
  }

  /** Every chunk is parsed as it arrives: nothing waits behind it. */
  get outputBehind(): boolean {
    return false;
  }

  get midUpdate(): boolean {
    return this.terminal.midUpdate;
  }

  screenView(): ScreenView {
    return terminalView(this.terminal);
  }

  foreground(): ProcessInfo | null {
    if (this.#status !== "running") return null;
    if (this.#process) return this.#process;
    const agent = identifyByHints(this.#manifests, this.screenView());
    if (agent === null) return null;
    let p = this.#hinted.get(agent);
    const manifest = this.#manifests.find((m) => m.id === agent);
    if (!p && manifest) this.#hinted.set(agent, p = processOf(standIn(manifest)));
    return p ?? null;
  }

  on(listener: (e: SessionEvent) => void): Disposable {
    this.#listeners.add(listener);
    return { [Symbol.dispose]: () => this.#listeners.delete(listener) };
  }

  /** Output read from the PTY: parsed, then reported (resolves once it is on screen). */
  output(bytes: Uint8Array): Promise<void> {
    const parsed = Promise.withResolvers<void>();
    this.terminal.write(bytes, () => {
      this.#emit({ type: "output" });
      parsed.resolve();
    });
    return parsed.promise;
  }

  /** Keys the user typed. */
  type(data: string): void {
    if (this.#status === "running") this.#emit({ type: "input", data, typed: true });
  }

  resize(cols: number, rows: number): void {
    if (cols === this.terminal.cols && rows === this.terminal.rows) return;
    this.terminal.resize(cols, rows);
    this.#emit({ type: "resize", cols, rows });
  }

  exit(exitCode: number | null, signal: number | null): void {
    if (this.#status !== "running") return;
    this.#status = "exited";
    this.#emit({ type: "exit", exitCode, signal });
  }

  [Symbol.dispose](): void {
    this.#listeners.clear();
    this.terminal[Symbol.dispose]();
  }

  #emit(e: SessionEvent): void {
    for (const listener of this.#listeners) listener(e);
  }
}

/**
 * The command line an agent runs as, from its manifest's identity: its
 * executable, or its script (or package) under node, as npm installs it.
 */
export function standIn(manifest: Manifest): readonly string[] {
  const { processes, scripts, packages } = manifest.identity;
  if (processes[0]) return [processes[0]];
  if (scripts[0]) return ["node", `/usr/lib/node_modules/.bin/${scripts[0]}`];
  if (packages[0]) return ["node", `/usr/lib/node_modules/${packages[0]}/cli.js`];
  return [manifest.id];
}

function processOf(argv: readonly string[]): ProcessInfo {
  const comm = (argv[0] ?? "").split("/").pop()!.slice(0, 15);
  return { pid: REPLAY_PID, startTime: 0, comm, argv, exe: null };
}
