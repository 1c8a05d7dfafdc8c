/**
 * Built-in tab "watchers" (docs/plugin-protocol.md, docs/notifications.md): every session's watchers (from the
 * project file and armed live), arm a pattern on a session, disarm it.
 * Data: the `sessions` and `watchers` subscriptions; actions: the
 * `arm_watcher` / `disarm_watcher` requests, answered by `result`.
 */

import type { HostMessage, SessionEntry, WatcherEntry } from "../_wire.ts";
import { BUILTIN_MANIFESTS } from "../../src/plugin/builtins.ts";
import { cell, type FrameData, navigate, type Outgoing, style, type TabPlugin } from "../_sdk.ts";

export class WatchersTab implements TabPlugin {
  readonly manifest = BUILTIN_MANIFESTS.watchers;
  sessions: SessionEntry[] = [];
  watchers: WatcherEntry[] = [];
  index = 0;
  /** The pattern being typed, or null when not editing. */
  input: string | null = null;
  status = "";
  #next = 1;

  handle(message: HostMessage, send: (m: Outgoing) => void): void {
    switch (message.type) {
      case "sessions":
        this.sessions = message.sessions;
        this.index = Math.min(this.index, Math.max(0, this.sessions.length - 1));
        break;
      case "watchers":
        this.watchers = message.watchers;
        break;
      case "key":
        this.#key(message.key, message.text, send);
        break;
      case "paste":
        if (this.input !== null) this.input += message.text.replace(/\n/g, " ");
        break;
      case "command":
        if (message.name === "disarm-all") {
          for (const w of this.watchers.filter((w) => w.source === "live")) {
            send({ type: "disarm_watcher", requestId: this.#id(), session: w.session });
          }
        }
        break;
      case "result":
        this.status = message.ok ? "Done" : `Refused: ${message.error ?? "unknown reason"}`;
        break;
      default:
        break;
    }
  }

  #id(): string {
    return `w${this.#next++}`;
  }

  #key(key: string, text: string, send: (m: Outgoing) => void): void {
    const session = this.sessions[this.index];
    if (this.input !== null) {
      if (key === "esc") this.input = null;
      else if (key === "enter") {
        if (session && this.input !== "") {
          send({
            type: "arm_watcher",
            requestId: this.#id(),
            session: session.id,
            pattern: this.input,
          });
          this.status = `Arming /${this.input}/ on ${session.name}…`;
        }
        this.input = null;
      } else if (key === "backspace") this.input = [...this.input].slice(0, -1).join("");
      else if (text !== "" && !key.startsWith("ctrl+") && !key.startsWith("alt+")) {
        this.input += text;
      }
      return;
    }
    const next = navigate(key, this.index, this.sessions.length);
    if (next !== null) {
      this.index = next;
      return;
    }
    if (!session) return;
    if (key === "a") {
      this.input = "";
      this.status = "";
    } else if (key === "x") { // d is lazyshell's (detach), not sent to a tab
      send({ type: "disarm_watcher", requestId: this.#id(), session: session.id });
      this.status = `Disarming ${session.name}…`;
    }
  }

  frame(): FrameData {
    if (this.sessions.length === 0) {
      return { view: style.dim("No sessions. Watchers are armed per session."), count: null };
    }
    const lines = [
      style.bold(`${cell("SESSION", 20)}${cell("SOURCE", 8)}${cell("MATCHES", 12)}PATTERN`),
      "",
    ];
    this.sessions.forEach((s, i) => {
      const mine = this.watchers.filter((w) => w.session === s.id);
      const name = i === this.index ? style.inverse(cell(s.name, 19)) + " " : cell(s.name, 20);
      if (mine.length === 0) lines.push(name + style.dim("none"));
      mine.forEach((w, j) => {
        const count = `${w.matches ?? 0}${w.notify ? "" : " (quiet)"}`;
        lines.push(
          `${j === 0 ? name : cell("", 20)}${cell(w.source, 8)}${cell(count, 12)}/${w.pattern}/`,
        );
      });
    });
    lines.push("");
    if (this.input !== null) lines.push(`Pattern: ${this.input}${style.inverse(" ")}`);
    else lines.push(style.dim("a arm · x disarm · j/k move"));
    if (this.status) lines.push(this.status);
    return { view: lines.join("\n"), count: this.watchers.length, capturing: this.input !== null };
  }
}
