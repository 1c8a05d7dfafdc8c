/** Helpers for tests that run real plugin processes: wait on state changes, never sleep. */

import { type HostOptions, PluginHost } from "./host.ts";
import { spawnGroup } from "./procgroup_posix.ts";
import type { TabState } from "./lifecycle.ts";
import type { InitMessage, SessionEntry } from "./protocol.ts";

export const FIXTURES = new URL("../../fixtures/plugins/", import.meta.url).pathname;

/** A host with a change notifier that tests can wait on. */
export class TestHost extends PluginHost {
  #waiters = new Set<() => void>();

  constructor(options: Partial<HostOptions> & { path: string; id?: string }) {
    const notify = () => {
      for (const w of [...this.#waiters]) w();
    };
    super({
      entry: {
        id: options.id ?? "fixture",
        command: [options.path],
        builtin: false,
        source: options.path,
      },
      env: options.env ?? { HOME: Deno.env.get("HOME") ?? "/", PATH: Deno.env.get("PATH") ?? "" },
      width: 80,
      height: 24,
      spawn: spawnGroup,
      ...options,
      onChange: () => {
        options.onChange?.();
        notify();
      },
    });
  }

  /** Resolves when `predicate(state)` holds; rejects after `ms` with the state in the message. */
  until(predicate: (state: TabState) => boolean, ms = 30_000, what = "condition"): Promise<void> {
    return new Promise((resolve, reject) => {
      if (predicate(this.state)) return resolve();
      const check = () => {
        if (!predicate(this.state)) return;
        clearTimeout(timer);
        this.#waiters.delete(check);
        resolve();
      };
      const timer = setTimeout(() => {
        this.#waiters.delete(check);
        reject(new Error(`Timed out waiting for ${what}: ${JSON.stringify(this.state)}`));
      }, ms);
      this.#waiters.add(check);
    });
  }

  view(): string {
    return this.state.frame?.view ?? "";
  }
}

export function fixture(name: string): string {
  return `${FIXTURES}${name}`;
}

/** The `init` message the host sends plugin `id` first: 100x30, the default theme, every folder `/`. */
export function initMessage(id: string): InitMessage {
  return {
    type: "init",
    protocol: 1,
    id,
    home: "/",
    configDir: "/",
    dataDir: "/",
    libraryDir: "/",
    theme: { id: "default", colors: {} },
    width: 100,
    height: 30,
  };
}

/** A `sessions` entry as the host sends it: a running plain session, selected, unless told. */
export function sessionEntry(over: Partial<SessionEntry> = {}): SessionEntry {
  return {
    id: "session-1",
    name: "api",
    group: null,
    status: "running",
    agent: null,
    state: null,
    since: null,
    stats: null,
    turns: 0,
    turnStartedAt: null,
    lastTurnMs: null,
    selected: true,
    cwd: "/",
    kind: null,
    resetsAt: null,
    limitResume: null,
    ...over,
  };
}
