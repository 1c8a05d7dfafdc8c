/**
 * The plugins and their feed, server-wide (docs/plugin-protocol.md): discovers
 * the plugins, feeds them the runtime's sessions, turn stats, the selected
 * session's environment, the watchers and the agents, performs their host
 * requests (arm/disarm a watcher, select a session, copy), and presents each
 * as a TUI tab (src/tui/plugin_tabs.ts) to every client. It follows the
 * runtime's change stream only: a session change plugins see, the latest
 * client's focus, the watcher list (src/model/runtime.ts). The server owns the
 * instance and disposes it when it ends.
 */

import { pluginTheme } from "../tui/core/view/theme.ts";
import { PluginTab } from "../tui/plugin_tabs.ts";
import { UserError } from "../errors.ts";
import { latestFocus } from "../model/runtime.ts";
import type { SessionView } from "../model/session.ts";
import { detectAgents, toAgentEntry } from "../plugin/agents.ts";
import { discoverPlugins } from "../plugin/discovery.ts";
import type { TerminalHandover } from "../plugin/exec.ts";
import { groupSpawner } from "../plugin/procgroup.ts";
import type { HostRequest, SessionEntry, WatcherEntry } from "../plugin/protocol.ts";
import { processEnvironment } from "../plugin/session_env.ts";
import { type PluginFeed, PluginTabs } from "../plugin/tabs.ts";
import type { Runtime } from "../runtime/runtime.ts";

export interface PluginTabsOptions {
  /** The tab body size. */
  readonly width: number;
  readonly height: number;
  /** Selects a session in the TUI (`select_session` requests). */
  readonly select: (id: string) => void;
  /** Interactive exec: hand the terminal to a command. */
  readonly handover?: TerminalHandover;
  /** Commands the CLI registers (ids may not collide). */
  readonly commands?: readonly string[];
  /** Puts text on the user's clipboard (`copy` requests); throws UserError when it cannot. */
  readonly copy?: (text: string) => void;
}

export interface WiredPluginTabs extends AsyncDisposable {
  readonly tabs: readonly PluginTab[];
  readonly plugins: PluginTabs;
  /** Discovery problems, one line each (shown once as a message). */
  readonly problems: readonly string[];
  /**
   * What a client's TUI shows: tab index (0 Sessions, 1.. the plugin tabs)
   * and the selected session; visibility, `env` and which on-demand plugins
   * run follow (call after each input).
   */
  follow(tab: number, selected: string | null, client?: string): void;
  /** A client left (its tab is no longer shown). */
  forget(client: string): void;
}

/** Builds the feed the plugin tabs read from the runtime. */
export function runtimeFeed(
  runtime: Runtime,
  select: (id: string) => void,
  copy: (text: string) => void = () => {
    throw new UserError("No terminal to copy to");
  },
): PluginFeed {
  const selectedOf = () => latestFocus(runtime.state).selected;
  return {
    sessions(): SessionEntry[] {
      const selected = selectedOf();
      return runtime.state.sessions.map((s) =>
        pluginSession(s, s.id === selected, runtime.resumes.summary(s.id))
      );
    },
    environment(id) {
      const view = runtime.view(id);
      return view ? processEnvironment(view.pid) : null;
    },
    selected: selectedOf,
    watchers(): WatcherEntry[] {
      return [...runtime.state.watchers];
    },
    async agents() {
      const reports = await detectAgents(runtime.catalog.detectable(runtime.env), {
        env: runtime.env,
        injectClaude: runtime.config.agents.claude.inject_hooks,
      });
      return reports.map(toAgentEntry);
    },
    request(request: HostRequest) {
      switch (request.type) {
        case "arm_watcher":
          return runtime.arm(request.session, request.pattern);
        case "disarm_watcher":
          return runtime.arm(request.session, "");
        case "select_session":
          return select(runtime.sessions.resolve(request.session).id);
        case "copy":
          return copy(request.text);
        default:
          throw new UserError(`Unknown request`);
      }
    },
  };
}

/** One session as the plugin protocol's `sessions` message carries it (docs/plugin-protocol.md). */
export function pluginSession(
  s: SessionView,
  selected: boolean,
  limitResume: SessionEntry["limitResume"] = null,
): SessionEntry {
  return {
    id: s.id,
    name: s.name,
    group: s.group,
    status: s.status,
    agent: s.agent,
    state: s.agentStatus?.state ?? null,
    since: s.agentStatus?.since ?? null,
    stats: s.stats,
    turns: s.turn.count,
    turnStartedAt: s.turn.startedAt,
    lastTurnMs: s.turn.lastMs,
    selected,
    cwd: s.cwd,
    kind: s.agentStatus?.kind ?? null,
    resetsAt: s.agentStatus?.resetsAt ?? null,
    limitResume,
  };
}

/** A change plugins see (output alone is not one: they get no `sessions` message for it). */
function pluginFieldsDiffer(a: SessionView, b: SessionView): boolean {
  return a.name !== b.name || a.group !== b.group || a.status !== b.status ||
    a.agent !== b.agent || a.agentStatus !== b.agentStatus || a.stats !== b.stats ||
    a.turn !== b.turn;
}

/** Starts every plugin tab and keeps them fed until disposed. */
export async function startPluginTabs(
  runtime: Runtime,
  options: PluginTabsOptions,
): Promise<WiredPluginTabs> {
  const discovered = discoverPlugins({
    env: runtime.env,
    ...(options.commands ? { commands: options.commands } : {}),
  });
  const tabsById = new Map<string, PluginTab>();
  const plugins = new PluginTabs({
    theme: pluginTheme(),
    env: runtime.env,
    sections: runtime.loaded.sections,
    width: options.width,
    height: options.height,
    spawn: await groupSpawner(),
    feed: runtimeFeed(runtime, options.select, options.copy),
    ...(options.handover ? { handover: options.handover } : {}),
    onChange: (id) => tabsById.get(id)?.changed(),
  });
  plugins.start(discovered.plugins);
  // `<id> reload` also re-detects agents: a CLI installed meanwhile shows up.
  const tabs = plugins.hosts.map((host) =>
    new PluginTab(host, () => plugins.refreshAgents(), () => plugins.use(host.id))
  );
  for (const tab of tabs) tabsById.set(tab.id, tab);

  let lastSelected: string | null = null;
  // The runtime's change stream, and nothing else.
  const subs: Disposable[] = [
    runtime.subscribe((change) => {
      if (change.type === "focus") plugins.selectionChanged();
      else if (change.type === "watchers") plugins.watchersChanged();
      else if (change.type === "problems") return;
      else if (change.type !== "updated" || pluginFieldsDiffer(change.session, change.previous)) {
        plugins.sessionsChanged();
      }
    }),
    // A resume at a usage limit changed (its phase, policy, counts): the stats tab shows it.
    runtime.resumes.onChanged(() => plugins.sessionsChanged()),
    // A reload: a plugin whose config.yml section changed starts again with it.
    runtime.onReconfigure(async ({ loaded }) => {
      await plugins.setSections(loaded.sections);
    }),
  ];
  return {
    tabs,
    plugins,
    problems: discovered.problems,
    follow(index: number, selected: string | null, client = "") {
      tabs.forEach((t, i) => (t.active = i === index - 1));
      plugins.show(client, index > 0 ? tabs[index - 1]?.id ?? null : null);
      if (selected !== lastSelected) {
        lastSelected = selected;
        plugins.selectionChanged();
      }
    },
    forget(client: string) {
      plugins.forget(client);
    },
    async [Symbol.asyncDispose]() {
      for (const s of subs) s[Symbol.dispose]();
      await plugins.close();
    },
  };
}
