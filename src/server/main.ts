/**
 * The lasting server (`lazyshell serve`, and what `lazyshell` starts in the
 * background when none runs): the runtime — sessions, emulators, detection,
 * hook and control sockets, watchers, notifications, plugin children — and
 * the attach socket clients draw through. It runs until SIGTERM or SIGINT,
 * `lazyshell kill-server`, or a client's quit; then it tells every client
 * why, ends every session's processes and removes its sockets. SIGHUP,
 * as daemons do, and `lazyshell reload` read the config again
 * (src/server/reload.ts): nothing ends.
 *
 * Prints one `ready` line on stderr once everything listens (tests and
 * scripts wait on it). A failure is contained where it happens and ends
 * only its owner (util/guard.ts; docs/architecture.md, "A failure ends its
 * owner, never its neighbours"), logged with its stack to
 * `<data dir>/crash.log`; one that no entry point caught is logged there
 * too, and the server goes on.
 */

import { legacyResumesFile } from "../restore/legacy_resumes.ts";
import { dataDir } from "../config/paths.ts";
import { messageOf, UserError } from "../errors.ts";
import { ensureRuntimeRoot, writeServerName, writeServerProject } from "../ipc/runtime_dir.ts";
import { startProject } from "../runtime/project.ts";
import { approveProject } from "../runtime/project_trust.ts";
import { logTo } from "../runtime/notifications.ts";
import { Runtime } from "../runtime/runtime.ts";
import { sessionSize } from "../tui/core/layout.ts";
import { startSockets } from "../runtime/sockets.ts";
import { SessionRestore, stateFile } from "../restore/restore.ts";
import { crashLogSink } from "../util/crash_log.ts";
import { armFaults } from "../util/fault_injection.ts";
import { fault, guard, type Owner, setFaultSink } from "../util/guard.ts";
import { AttachServer, type EndRequest } from "./server.ts";
import { serverName, serverPaths } from "../wire/paths.ts";
import type { ExitMessage } from "../wire/protocol.ts";
import { canConnect } from "../wire/spawn.ts";
import { runtimeProblems } from "./problems.ts";
import { type ProjectSource, reload, type ReloadReport, serialized } from "./reload.ts";
import { Trimmer } from "../util/memory_trim.ts";
import { ticker } from "../util/ticker.ts";
import { WebView } from "../web/view.ts";
import { WatchedHosts } from "./hosts.ts";
import { warmDraw } from "./warm_draw.ts";
import { later } from "../util/async.ts";

export interface ServerOptions {
  readonly project?: string | undefined;
  /** `--yes`: trust the nearest lazyshell.yml as it is now. */
  readonly yes?: boolean | undefined;
  /** `--no-project`: start no project file (its user said no). */
  readonly noProject?: boolean | undefined;
  /** `-L NAME` (default: $LAZYSHELL_SERVER or `default`). */
  readonly name?: string | undefined;
  readonly version: string;
}

/** The signals that end the server (SIGHUP reloads its config). */
const SIGNALS: readonly Deno.Signal[] = ["SIGTERM", "SIGINT"];

/** When the server draws a frame ahead (warm_draw.ts): after its sessions' first output. */
const WARM_DRAW_MS = 500;

/** What no entry point caught (a bug in a guard, a library's own callback): logged, kept. */
const UNCAUGHT: Owner = { name: "server" };

export async function runServer(options: ServerOptions): Promise<number> {
  const env = Deno.env.toObject();
  armFaults(env.LAZYSHELL_FAULT);
  const name = serverName(env, options.name);
  const paths = serverPaths(env, name);
  ensureRuntimeRoot(env);
  if (await canConnect(paths.socket)) {
    const flag = name === "default" ? "" : ` -L ${name}`;
    throw new UserError(
      `A lazyshell server${flag ? ` named ${name}` : ""} is already running ` +
        `(${paths.socket}): attach with \`lazyshell${flag}\`, or end it with ` +
        `\`lazyshell${flag} kill-server\``,
    );
  }
  // Before anything starts: an implicit lazyshell.yml runs only once trusted (nobody to ask here;
  // the client that starts a server asks on its terminal first: `lazyshell trust --ask`).
  const { project } = options.noProject
    ? { project: null }
    : approveProject({ cwd: Deno.cwd(), file: options.project, yes: options.yes, env, ask: null });
  // A session starts at the pane a terminal of default_size shows: a first client of that size
  // resizes nothing (a resize reflows the whole scrollback: ~40 % of a first attach's time).
  await using runtime = new Runtime({ paneSize: sessionSize });
  // stderr may be a terminal that closed (a foreground serve outlives it: SIGHUP reloads).
  const log = (line: string) => {
    try {
      console.error(line);
    } catch { /* nowhere to print */ }
  };
  const logFile = logTo(env);
  setFaultSink(crashLogSink(dataDir(env)));
  const onError = (e: ErrorEvent) => {
    e.preventDefault();
    fault(UNCAUGHT, "an uncaught error", e.error);
  };
  const onRejection = (e: PromiseRejectionEvent) => {
    e.preventDefault();
    fault(UNCAUGHT, "an unhandled rejection", e.reason);
  };
  globalThis.addEventListener("error", onError);
  globalThis.addEventListener("unhandledrejection", onRejection);
  // One list for the log, every attached TUI and doctor (src/server/problems.ts).
  runtime.setProblems(runtimeProblems(runtime));
  for (const problem of runtime.state.problems) log(`lazyshell: ${problem}`);
  // Other hosts' sessions, followed over ssh (docs/remote.md, "Hosts watched").
  await using hosts = new WatchedHosts(runtime, options.version, logTo(runtime.env));
  const sockets = await startSockets(runtime, logTo(runtime.env), {}, () => hosts.table());
  // `lazyshell -L NAME ctl …` finds this instance's control socket by it (src/ctl/find.ts).
  writeServerName(sockets.dir, name);
  if (project) writeServerProject(sockets.dir, project.file);
  // After the sockets: project sessions get LAZYSHELL_SOCK like any other.
  const started = project ? startProject(runtime, project) : [];
  // After the project: its sessions run, so their saved copies are not offered (docs/restore.md).
  // Disposed with the runtime, before its sessions end: the file keeps them for the next server.
  const restore = SessionRestore.start(runtime, {
    file: stateFile(env, name),
    // Pending resumes at usage limits are in the state file; an older server's file is read once.
    legacyResumes: legacyResumesFile(env, name),
    log: (line) => log(`lazyshell: ${line}`),
  });
  runtime.own(() => restore[Symbol.asyncDispose]());
  if (restore.problem) log(`lazyshell: ${restore.problem}`);
  // `lazyshell reload` and SIGHUP: one at a time, each line logged, every client told.
  const source: ProjectSource | null = project
    ? { file: project.file, named: options.project !== undefined }
    : null;
  let clients: AttachServer | null = null;
  const reloadNow = serialized(async () => {
    const report = await reload(runtime, source).catch((error) => failedReload(error, log));
    for (const line of report.lines) {
      log(`lazyshell reload: ${line}`);
      logFile(`lazyshell reload: ${line}`);
    }
    clients?.announce(report.message);
    return report;
  });
  // The web view (docs/web.md): on when web.enabled, or once `lazyshell web` asks.
  await using web = await WebView.start(runtime, logTo(runtime.env));
  await using attach = await AttachServer.listen({
    runtime,
    name,
    socket: paths.socket,
    version: options.version,
    log: logTo(runtime.env),
    stdoutSink: true,
    restore,
    reload: reloadNow,
    instanceDir: sockets.dir,
    web: (request) => web.command(request),
    hosts,
  });
  clients = attach;
  // Freed memory back to the system, after start-up and 10 s after activity: the grid fires
  // whenever a session prints, a client draws or detection runs (util/memory_trim.ts).
  using trimmer = new Trimmer();
  using _active = ticker.onWake(() => trimmer.poke());
  const stop = Promise.withResolvers<EndRequest | { why: "signal"; signal: Deno.Signal }>();
  const handlers = SIGNALS.map((signal) => {
    const handler = () => stop.resolve({ why: "signal", signal });
    Deno.addSignalListener(signal, handler);
    return [signal, handler] as const;
  });
  // The first attach's frame drawn once ahead, after start-up, unless a client came first.
  const size = runtime.config.default_size;
  const cancelWarm = later(WARM_DRAW_MS, () => {
    if (attach.clientCount > 0) return;
    guard(UNCAUGHT, "drawing a frame ahead", () => warmDraw(runtime, size.cols, size.rows));
    // Then the rest of a first attach, over a connection in memory (rehearsal.ts).
    attach.rehearse(size).catch((error) => fault(UNCAUGHT, "rehearsing an attach", error));
  });
  const onHangup = () => void reloadNow();
  Deno.addSignalListener("SIGHUP", onHangup);
  void attach.ended.then((end) => stop.resolve(end));
  console.error(
    `lazyshell serve: ready (pid ${Deno.pid}, server ${name}: ${paths.socket}, ${
      sockets.control ? `control: ${sockets.control.path}` : "control API off"
    }, ${started.length} project session${
      started.length === 1 ? "" : "s"
    }, ${restore.pendingCount} saved session${restore.pendingCount === 1 ? "" : "s"} to restore)`,
  );
  const end = await stop.promise;
  cancelWarm();
  for (const [s, handler] of handlers) Deno.removeSignalListener(s, handler);
  Deno.removeSignalListener("SIGHUP", onHangup);
  const how = end.why === "signal" ? end.signal : end.why;
  log(`lazyshell serve: ${how}, ending every session`);
  await attach.goodbye((client) => goodbye(end, client));
  globalThis.removeEventListener("error", onError);
  globalThis.removeEventListener("unhandledrejection", onRejection);
  setFaultSink(null);
  removeLock(paths.lock);
  return 0;
}

/** A reload that failed on a bug, not on the user's files: nothing was applied, the server runs on. */
function failedReload(error: unknown, log: (line: string) => void): ReloadReport {
  const stack = error instanceof Error && error.stack ? error.stack : messageOf(error);
  log(`lazyshell reload: internal error: ${stack}`);
  const line = `Reload failed: internal error: ${messageOf(error)} (see server.log)`;
  return { ok: false, lines: [line], message: { text: line, error: true } };
}

/** A starting client recreates it; leaving it would leave a file behind for nothing. */
function removeLock(path: string): void {
  try {
    Deno.removeSync(path);
  } catch { /* gone already */ }
}

function goodbye(
  end: EndRequest | { why: "signal"; signal: Deno.Signal },
  client: string,
): ExitMessage {
  switch (end.why) {
    case "quit":
      return end.by === client ? { reason: "server-exit", message: "", code: 0 } : {
        reason: "server-exit",
        message: "The lazyshell server was ended from another terminal (quit); " +
          "its sessions ended with it",
        code: 0,
      };
    case "restore-only":
      return { reason: "server-exit", message: "", code: 0 };
    case "kill-server":
      return {
        reason: "killed",
        message: "The lazyshell server was ended by kill-server; its sessions ended with it",
        code: 0,
      };
    case "signal":
      return {
        reason: "server-exit",
        message: `The lazyshell server ended on ${end.signal}; its sessions ended with it`,
        code: 1,
      };
  }
}
