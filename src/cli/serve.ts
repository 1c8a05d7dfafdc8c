/**
 * `lazyshell serve` (SPEC I1): the runtime — sessions, detection, hooks,
 * notifications, watchers and the control API — with no TUI, until SIGTERM
 * or SIGINT, then every child is ended cleanly. For CI, scripts and
 * orchestrator agents; it keeps session state separable from the TUI.
 *
 * Prints one `ready` line on stderr once the sockets listen (tests and
 * scripts wait on it); stdout carries only notifications (OSC 9/777) when
 * it is a terminal.
 */

import { Runtime } from "../runtime/runtime.ts";
import { startProject } from "../runtime/project.ts";
import { approveProject } from "../runtime/project_trust.ts";
import { startSockets } from "../runtime/sockets.ts";

export interface ServeOptions {
  readonly project?: string | undefined;
  /** `--yes`: trust ./lazyshell.yml as it is now. */
  readonly yes?: boolean | undefined;
}

export async function serve(options: ServeOptions): Promise<number> {
  // Before anything starts: an untrusted ./lazyshell.yml is refused (nobody to ask).
  const { project } = approveProject({
    cwd: Deno.cwd(),
    file: options.project,
    yes: options.yes ?? false,
    env: Deno.env.toObject(),
    ask: null,
  });
  await using runtime = new Runtime();
  for (const warning of runtime.loaded.warnings) console.error(`lazyshell: ${warning}`);
  // A broken manifest is skipped, not fatal: say which and why (a pattern refused at load).
  for (const error of runtime.catalog.errors) {
    console.error(`lazyshell: ${error.message} (skipped)`);
  }
  const sockets = await startSockets(runtime, (line) => console.error(line));
  runtime.notifications.useStdout();
  // After the sockets: project sessions get LAZYSHELL_SOCK like any other.
  const started = project ? startProject(runtime, project) : [];
  const stop = Promise.withResolvers<string>();
  const signals: Deno.Signal[] = ["SIGTERM", "SIGINT", "SIGHUP"];
  const handlers = signals.map((signal) => {
    const handler = () => stop.resolve(signal);
    Deno.addSignalListener(signal, handler);
    return [signal, handler] as const;
  });
  console.error(
    `lazyshell serve: ready (pid ${Deno.pid}, ${
      sockets.control ? `control: ${sockets.control.path}` : "control API off"
    }, ${started.length} project session${started.length === 1 ? "" : "s"})`,
  );
  const signal = await stop.promise;
  for (const [s, handler] of handlers) Deno.removeSignalListener(s, handler);
  console.error(`lazyshell serve: ${signal}, ending every session`);
  return 0;
}
