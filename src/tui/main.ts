/**
 * `lazyshell` (no command): the TUI. Sets up the host terminal and the
 * runtime, runs the loop until quit, and always restores the terminal —
 * on quit, SIGTERM, SIGHUP, SIGINT and on an uncaught error, which is logged to
 * `<data dir>/crash.log` and reported in one line (STYLE.md 11).
 */

import { dataDir } from "../config/paths.ts";
import { messageOf, UserError } from "../errors.ts";
import { sessionSize } from "./layout.ts";
import { logTo } from "../runtime/notifications.ts";
import { startProject } from "../runtime/project.ts";
import { type Approval, approveProject } from "../runtime/project_trust.ts";
import { askOnTerminal } from "./trust_prompt.ts";
import { Runtime } from "../runtime/runtime.ts";
import { startSockets } from "../runtime/sockets.ts";
import { TuiApp } from "./app.ts";
import { reportCrash } from "./crash.ts";
import { HostTerminal } from "./host.ts";
import { startPluginTabs, type WiredPluginTabs } from "./plugin_tabs.ts";
import { ptyHandover } from "./plugin_handover.ts";
import { layout } from "./layout.ts";
import { leaveSplash, splashHandedOver } from "./splash.ts";

const SIGNAL_CODES = { SIGTERM: 143, SIGHUP: 129, SIGINT: 130 } as const;

export interface TuiOptions {
  /** `--project FILE` (default: ./lazyshell.yml when present). */
  readonly project?: string | undefined;
  /** `--yes`: trust ./lazyshell.yml as it is now. */
  readonly yes?: boolean | undefined;
}

export async function runTui(options: TuiOptions = {}): Promise<number> {
  if (!Deno.stdin.isTerminal() || !Deno.stdout.isTerminal()) {
    throw new UserError("lazyshell needs a terminal; use `lazyshell serve` without one");
  }
  const host = new HostTerminal();
  const size = host.size;
  const pane = sessionSize(size.cols, size.rows);
  let runtime: Runtime;
  let approval: Approval;
  try {
    // Before anything starts: a new or changed ./lazyshell.yml is shown and asked about.
    approval = approveProject({
      cwd: Deno.cwd(),
      file: options.project,
      yes: options.yes,
      env: Deno.env.toObject(),
      ask: askOnTerminal,
    });
    runtime = new Runtime(pane);
  } catch (error) {
    leaveSplash();
    throw error;
  }
  try {
    await startSockets(runtime, logTo(runtime.env));
    if (approval.project) startProject(runtime, approval.project);
    for (const s of runtime.store.list()) s.resize(pane.cols, pane.rows);
  } catch (error) {
    leaveSplash();
    await runtime[Symbol.asyncDispose]();
    throw error;
  }
  return await run(host, runtime, approval.note);
}

async function run(host: HostTerminal, runtime: Runtime, note: string | null): Promise<number> {
  const size = host.size;
  const env = runtime.env;
  const crash = (error: unknown) => {
    console.error(reportCrash(() => host.restore(), dataDir(env), error));
    Deno.exit(70);
  };
  const onError = (e: ErrorEvent) => {
    e.preventDefault();
    crash(e.error);
  };
  const onRejection = (e: PromiseRejectionEvent) => {
    e.preventDefault();
    crash(e.reason);
  };
  globalThis.addEventListener("error", onError);
  globalThis.addEventListener("unhandledrejection", onRejection);
  // Plugin tabs (P7): interactive exec pauses drawing and diverts stdin to the command.
  let paused = false;
  let divert: ((text: string) => void) | null = null;
  const app = new TuiApp({
    runtime,
    write: (t) => {
      if (!paused) host.write(t);
    },
    ...size,
  });
  // Started after the first frame: their processes need not delay it.
  const plugins: { wired: WiredPluginTabs | null } = { wired: null };
  const startTabs = async () => {
    const body = layout(size.cols, size.rows).body;
    try {
      plugins.wired = await startPluginTabs(runtime, {
        width: body.width,
        height: body.height,
        select: (id) => app.dispatch({ type: "select", id }),
        selected: () => app.state.selected,
        handover: ptyHandover({
          write: (t) => host.write(t),
          size: () => host.size,
          divert: (sink) => (divert = sink),
          pause: () => (paused = true),
          resume: () => {
            paused = false;
            app.redraw();
          },
        }),
      });
    } catch (error) {
      logTo(env)(`plugin tabs: ${messageOf(error)}`);
      return;
    }
    app.setTabs(plugins.wired.tabs);
    const problem = plugins.wired.problems[0];
    if (problem) app.dispatch({ type: "message", text: problem, error: true });
  };
  const onWinch = () => {
    const { cols, rows } = host.size;
    app.resize(cols, rows);
  };
  const signals = Object.entries(SIGNAL_CODES).map(([name, code]) => {
    const handler = () => app.quit(code);
    Deno.addSignalListener(name as Deno.Signal, handler);
    return [name as Deno.Signal, handler] as const;
  });
  Deno.addSignalListener("SIGWINCH", onWinch);
  let tabsStarted: Promise<void> = Promise.resolve();
  try {
    host.enter(dataDir(env));
    splashHandedOver();
    runtime.notifications.setSink((bytes) => host.write(bytes));
    app.start();
    if (note) app.dispatch({ type: "message", text: note, error: true });
    tabsStarted = startTabs();
    const input = {
      feed: (text: string) => {
        if (divert) return divert(text);
        app.feed(text);
        plugins.wired?.follow(app.state.tab, app.state.selected);
      },
      quit: (code: number) => app.quit(code),
    };
    void readInput(input).catch(crash);
    return await app.done;
  } catch (error) {
    crash(error);
    return 70;
  } finally {
    runtime.notifications.setSink(null);
    app[Symbol.dispose]();
    host.restore();
    await tabsStarted;
    await plugins.wired?.[Symbol.asyncDispose]();
    Deno.removeSignalListener("SIGWINCH", onWinch);
    for (const [name, handler] of signals) Deno.removeSignalListener(name, handler);
    await runtime[Symbol.asyncDispose]();
    globalThis.removeEventListener("error", onError);
    globalThis.removeEventListener("unhandledrejection", onRejection);
  }
}

/** Feeds stdin to the app until EOF (then quits: nobody can type any more). */
async function readInput(app: Pick<TuiApp, "feed" | "quit">): Promise<void> {
  const decoder = new TextDecoder();
  const buf = new Uint8Array(64 * 1024);
  for (;;) {
    const n = await Deno.stdin.read(buf);
    if (n === null) return app.quit(0);
    app.feed(decoder.decode(buf.subarray(0, n), { stream: true }));
  }
}
