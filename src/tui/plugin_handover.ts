/**
 * Interactive `exec` for plugins (docs/plugin-protocol.md): the TUI stops drawing and
 * leaves its alternate screen, the command runs in a PTY of its own whose
 * output goes straight to the terminal and which receives every byte the
 * user types (lazyshell's stdin reader is diverted, so no keystroke is
 * split between two readers of one tty), and the TUI comes back with a
 * full redraw when it exits. Resizes follow the terminal.
 */

import { messageOf } from "../errors.ts";
import type { ExecOutcome, TerminalHandover } from "../plugin/exec.ts";
import { spawnPty } from "../session/pty.ts";
import { ENTER_SCREEN, LEAVE_SCREEN } from "./core/terminal_modes.ts";

/** The terminal as the child expects it, and the TUI's modes back after it. */
const LEAVE_FOR_CHILD = LEAVE_SCREEN;
const BACK_FROM_CHILD = ENTER_SCREEN;

export interface HandoverHost {
  /** Writes to the terminal even while the TUI is paused. */
  write(text: string): void;
  size(): { cols: number; rows: number };
  /** Routes stdin text to `sink` instead of the TUI (null: back to the TUI). */
  divert(sink: ((text: string) => void) | null): void;
  /** Stops / restarts TUI drawing; resume() must redraw everything. */
  pause(): void;
  resume(): void;
  /** The terminal's size changes (default: this process's SIGWINCH). */
  onResize?(listener: (cols: number, rows: number) => void): Disposable;
  /** Aborted when the terminal is gone (its client left): the command is ended (SIGHUP). */
  readonly gone?: AbortSignal;
}

export function ptyHandover(host: HandoverHost): TerminalHandover {
  async function run(
    argv: readonly string[],
    options: { cwd?: string; env: Record<string, string> },
  ): Promise<ExecOutcome> {
    const [file, ...args] = argv;
    host.pause();
    host.write(LEAVE_FOR_CHILD);
    const onWinch = () => {
      const { cols, rows } = host.size();
      pty?.resize(cols, rows);
    };
    let resizes: Disposable | null = null;
    let pty: ReturnType<typeof spawnPty> | null = null;
    try {
      const { cols, rows } = host.size();
      pty = spawnPty({
        file: file!,
        args,
        cwd: options.cwd ?? Deno.cwd(),
        env: options.env,
        cols,
        rows,
      });
      const exited = new Promise<{ exitCode: number; signal: number }>((resolve) =>
        pty!.onExit(resolve)
      );
      pty.onData((data) => host.write(data));
      // No terminal any more: the command goes as it would when its terminal hangs up.
      host.gone?.addEventListener("abort", () => pty?.kill("SIGHUP"), { once: true });
      if (host.gone?.aborted) pty.kill("SIGHUP");
      host.divert((text) => pty?.write(text));
      if (host.onResize) resizes = host.onResize((cols, rows) => pty?.resize(cols, rows));
      else if (Deno.build.os !== "windows") Deno.addSignalListener("SIGWINCH", onWinch);
      const exit = await exited;
      return {
        code: exit.signal === 0 ? exit.exitCode : null,
        stdout: "",
        stderr: "",
        error: exit.signal === 0 ? null : `Killed by signal ${exit.signal}`,
      };
    } catch (error) {
      return {
        code: null,
        stdout: "",
        stderr: "",
        error: `Cannot run ${file}: ${messageOf(error)}`,
      };
    } finally {
      if (resizes) resizes[Symbol.dispose]();
      else if (Deno.build.os !== "windows") Deno.removeSignalListener("SIGWINCH", onWinch);
      host.divert(null);
      host.write(BACK_FROM_CHILD);
      host.resume();
    }
  }
  return { run };
}
