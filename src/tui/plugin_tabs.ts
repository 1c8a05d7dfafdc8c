/**
 * Plugin tabs wired to the runtime (docs/plugin-protocol.md): discovers the
 * plugins, feeds them sessions, turn stats, the selected session's
 * environment, watchers and agents from the Runtime, performs their host
 * requests (arm/disarm a watcher, select a session), and presents each as
 * a TUI Tab (src/tui/tab.ts). The TUI loop (./tui/main.ts) owns the
 * instance and disposes it on quit.
 */

import { pluginTheme } from "./view/theme.ts";
import type { KeyEvent } from "./keys.ts";
import type { StyledLine } from "./frame.ts";
import type { Tab, TabCommand, TabMouse } from "./tab.ts";
import { UserError } from "../errors.ts";
import { detectAgents, toAgentEntry } from "../plugin/agents.ts";
import { discoverPlugins } from "../plugin/discovery.ts";
import type { TerminalHandover } from "../plugin/exec.ts";
import type { PluginHost } from "../plugin/host.ts";
import { groupSpawner } from "../plugin/procgroup.ts";
import type { HostRequest, SessionEntry, WatcherEntry } from "../plugin/protocol.ts";
import { processEnvironment } from "../plugin/session_env.ts";
import { type PluginFeed, PluginTabs } from "../plugin/tabs.ts";
import { sanitizeView, toSpans } from "../plugin/view.ts";
import type { SessionView } from "../model/session.ts";
import type { Runtime } from "../runtime/runtime.ts";

export interface PluginTabsOptions {
  /** The tab body size. */
  readonly width: number;
  readonly height: number;
  /** Selects a session in the TUI (`select_session` requests). */
  readonly select: (id: string) => void;
  /** The session selected in the sidebar (default: the runtime's focus). */
  readonly selected?: () => string | null;
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
  selectedOf: () => string | null = () => runtime.focus.selected,
  copy: (text: string) => void = () => {
    throw new UserError("No terminal to copy to");
  },
): PluginFeed {
  const notifications = runtime.notifications;
  return {
    sessions(): SessionEntry[] {
      const selected = selectedOf();
      return runtime.state.sessions.map((s) => pluginSession(s, s.id === selected));
    },
    environment(id) {
      const view = runtime.view(id);
      return view ? processEnvironment(view.pid) : null;
    },
    selected: selectedOf,
    watchers(): WatcherEntry[] {
      return notifications.watchers.list().map((w) => ({
        session: w.sessionId,
        pattern: w.pattern,
        source: w.source,
        notify: w.notify,
        matches: w.matches,
      }));
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
          return notifications.arm(request.session, request.pattern);
        case "disarm_watcher":
          return notifications.arm(request.session, "");
        case "select_session":
          return select(runtime.store.resolve(request.session).id);
        case "copy":
          return copy(request.text);
        default:
          throw new UserError(`Unknown request`);
      }
    },
  };
}

/** One session as the plugin protocol's `sessions` message carries it (docs/plugin-protocol.md). */
export function pluginSession(s: SessionView, selected: boolean): SessionEntry {
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
    feed: runtimeFeed(runtime, options.select, options.selected, options.copy),
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
  const subs: Disposable[] = [
    runtime.onFocus(() => plugins.selectionChanged()),
    runtime.subscribe((change) => {
      if (change.type === "problems") return;
      if (change.type !== "updated" || pluginFieldsDiffer(change.session, change.previous)) {
        plugins.sessionsChanged();
      }
    }),
    runtime.notifications.watchers.on(() => plugins.watchersChanged()),
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

const WHEEL: Record<number, string> = { [-1]: "up", 1: "down" };
const CLICK: Record<number, string> = { 0: "left", 1: "middle", 2: "right" };

/** One plugin host as a TUI tab: its frame, or its error and stderr tail. */
export class PluginTab implements Tab {
  #listeners = new Set<() => void>();
  /** Shown now: every frame redraws. Hidden: only title, capturing or commands changes do. */
  active = false;
  #bar = "";

  constructor(
    readonly host: PluginHost,
    private readonly onReload: () => void = () => {},
    /** Its plugin is needed now (a command for it): started if it sleeps. */
    private readonly onUse: () => void = () => host.wake(),
  ) {}

  get id(): string {
    return this.host.id;
  }

  get title(): string {
    const state = this.host.state;
    const title = this.host.manifest?.title ?? this.host.id;
    if (state.phase === "failed") return `${title} ✗`;
    // The frame's counter (P3) rides on the title: the tab bar draws titles only.
    const count = state.frame?.count;
    return typeof count === "number" ? `${title} (${count})` : title;
  }

  get capturing(): boolean {
    return this.host.state.phase === "running" && this.host.state.frame?.capturing === true;
  }

  get commands(): readonly TabCommand[] {
    const own = (this.host.manifest?.commands ?? []).map((c) => ({
      name: c.name,
      help: c.desc,
    }));
    return [...own, { name: "reload", help: "Reload the plugin (restart it if it failed)" }];
  }

  render(width: number, height: number): readonly StyledLine[] {
    const state = this.host.state;
    if (state.phase === "failed" || (state.phase === "stopped" && state.error)) {
      return this.#error(width, height);
    }
    if (state.frame === null) {
      // Starting, or about to (an on-demand plugin wakes when its tab is shown).
      return [[{ text: `Starting ${this.id}…`, style: { attrs: 2 } }]];
    }
    return sanitizeView(state.frame.view, { width, height }).map(toSpans);
  }

  #error(width: number, height: number): StyledLine[] {
    const state = this.host.state;
    const lines: StyledLine[] = [
      [{ text: `${this.id}: ${state.error ?? "stopped"}`, style: { fg: 1, attrs: 1 } }],
      [{ text: `:${this.id} reload restarts it`, style: { attrs: 2 } }],
    ];
    const tail = this.host.stderrTail.replace(/\s+$/, "");
    if (tail !== "") {
      lines.push([], [{ text: "stderr (last 4 KiB):", style: { attrs: 1 } }]);
      const rows = sanitizeView(tail, { width, height: Number.MAX_SAFE_INTEGER });
      lines.push(...rows.slice(Math.max(0, rows.length - (height - lines.length))).map(toSpans));
    }
    return lines.slice(0, height);
  }

  key(key: KeyEvent): void {
    this.host.key(key.name, key.text);
  }

  paste(text: string): void {
    this.host.paste(text);
  }

  mouse(event: TabMouse): void {
    const button = event.kind === "wheel" ? WHEEL[event.button] : CLICK[event.button];
    if (button === undefined) return;
    this.host.mouse({ kind: event.kind, x: event.x, y: event.y, button });
  }

  command(name: string): void {
    if (name === "reload") {
      this.onReload();
      void this.host.reload().then(() => this.changed());
    } else {
      this.onUse();
      this.host.command(name);
    }
  }

  resize(width: number, height: number): void {
    this.host.resize(width, height);
  }

  onChange(listener: () => void): Disposable {
    this.#listeners.add(listener);
    return { [Symbol.dispose]: () => this.#listeners.delete(listener) };
  }

  /** The host says the tab changed; a hidden tab's frames cost the TUI nothing. */
  changed(): void {
    const bar = JSON.stringify([this.title, this.capturing, this.commands]);
    if (!this.active && bar === this.#bar) return;
    this.#bar = bar;
    for (const l of this.#listeners) l();
  }
}
