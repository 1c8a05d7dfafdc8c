/**
 * One plugin host as a TUI tab (docs/plugin-protocol.md; src/tui/core/tab.ts): its
 * frame, or its error and stderr tail, and the keys, pastes, mouse and
 * commands of the client showing it. The plugins themselves, and the feed
 * they read of the runtime, are the server's (src/server/plugin_feed.ts).
 */

import type { KeyEvent } from "./core/keys.ts";
import type { StyledLine } from "./core/frame.ts";
import type { Tab, TabCommand, TabMouse } from "./core/tab.ts";
import type { PluginHost } from "../plugin/host.ts";
import { sanitizeView, toSpans } from "../plugin/view.ts";

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
