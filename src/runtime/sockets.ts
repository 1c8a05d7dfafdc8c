/**
 * Wires the hook sockets (H1) and the control socket (C1) into the
 * runtime: one private directory for this instance, a hook socket opened
 * for every session before its child starts (LAZYSHELL_SOCK), the control
 * socket when `control.enabled` (LAZYSHELL_CONTROL in every session started
 * while it listens; a reload starts or stops it), and Claude Code's hooks
 * added for a launch when `agents.claude.inject_hooks` (H3). Everything is
 * closed and the directory removed with the runtime.
 */

import { ControlServer } from "../control/server.ts";
import type { ControlLimits } from "../control/limits.ts";
import { HookServer } from "../ipc/hook_server.ts";
import { otherSessionSender } from "../ipc/peer.ts";
import { claudeSettings, isPlainClaudeCommand, shellQuote } from "../ipc/integrations.ts";
import { CONTROL_SOCKET, createInstanceDir, removeInstanceDir } from "../ipc/runtime_dir.ts";
import { stableCommand } from "../plugin/self.ts";
import type { Runtime } from "./runtime.ts";
import type { HostView } from "../model/hosts.ts";
import { launchAgent } from "./launch.ts";
import { promptHost, promptText } from "./first_prompt.ts";

export interface Sockets {
  /** This instance's runtime directory. */
  readonly dir: string;
  readonly hooks: HookServer;
  /** Null unless control.enabled (a reload starts or stops it). */
  readonly control: ControlServer | null;
}

export async function startSockets(
  runtime: Runtime,
  log: (line: string) => void = () => {},
  controlLimits: Partial<ControlLimits> = {},
  /** The hosts the server watches (`ctl hosts`, docs/remote.md). */
  hosts?: () => readonly HostView[],
): Promise<Sockets> {
  const dir = await createInstanceDir(runtime.env);
  const hooks = new HookServer(dir, {
    hook: (id, event) => runtime.hook(id, event),
    conversation: (id, conversation) => runtime.noteConversation(id, conversation),
    // A process of another session does not speak for this one (docs/hooks.md, the trust model).
    refuseSender: (id, path) => {
      const running = runtime.sessions.list().filter((s) => s.status === "running");
      const other = otherSessionSender(path, id, running);
      return other === null ? null : `Refused: pid ${other.pid} belongs to ${other.session}, ` +
        `not ${id}: a hook speaks only for its own session`;
    },
  });
  let control: ControlServer | null = null;
  const startControl = async () => {
    control = await ControlServer.listen(`${dir}/${CONTROL_SOCKET}`, {
      sessions: runtime.sessions,
      worktrees: runtime.worktrees,
      ...promptHost(runtime),
      createSession: (spec) => runtime.createSession(spec),
      resumes: runtime.resumes,
      ...(hosts ? { hosts } : {}),
      launchAgent: (spec) =>
        launchAgent(runtime, {
          ...spec,
          onPrompt: (o) => log(promptText(runtime.view(o.id)?.name ?? o.id, o)),
        }),
    }, { log, limits: controlLimits });
  };
  try {
    if (runtime.config.control.enabled) await startControl();
  } catch (error) {
    await hooks[Symbol.asyncDispose]();
    removeInstanceDir(dir);
    throw error;
  }
  // A reload turns the control socket on or off; sessions started from then on are told.
  const reloads = runtime.onReconfigure(async ({ loaded: { config } }) => {
    if (config.control.enabled && !control) await startControl();
    else if (!config.control.enabled && control) {
      const stopping = control;
      control = null;
      await stopping[Symbol.asyncDispose]();
    }
  });
  const claudeFile = `${dir}/claude-settings.json`;
  const launches = runtime.store.addLaunchHook((launch) => {
    const env: Record<string, string> = { ...launch.env, LAZYSHELL_SOCK: hooks.open(launch.id) };
    // Not another instance's, inherited (a server started inside a session of another).
    if (control) env.LAZYSHELL_CONTROL = control.path;
    else delete env.LAZYSHELL_CONTROL;
    let command = launch.command;
    // Read at each launch: a reload changes it for the next one.
    if (runtime.config.agents.claude.inject_hooks && isPlainClaudeCommand(command)) {
      writeClaudeSettings(claudeFile);
      command = `${command} --settings ${shellQuote(claudeFile)}`;
    }
    return { ...launch, command, env };
  });
  const removals = runtime.store.on((event) => {
    if (event.type === "removed") void hooks.close(event.id);
  });
  runtime.own(async () => {
    reloads[Symbol.dispose]();
    removals[Symbol.dispose]();
    launches[Symbol.dispose]();
    const open = control as ControlServer | null;
    control = null;
    if (open) await open[Symbol.asyncDispose]();
    await hooks[Symbol.asyncDispose]();
    removeInstanceDir(dir);
  });
  return {
    dir,
    hooks,
    get control() {
      return control;
    },
  };
}

function writeClaudeSettings(file: string): void {
  const text = JSON.stringify(claudeSettings(stableCommand().command), null, 2);
  Deno.writeTextFileSync(file, text, { mode: 0o600 });
}
