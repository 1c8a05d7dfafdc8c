/**
 * Built-in tab "agents" (docs/plugin-protocol.md): every catalogued agent, installed or not,
 * its version, where its manifest came from, its hook integration, and the
 * sessions running it. Data: the v1 `agents` message (with the optional
 * source/hooks fields) and the `sessions` subscription.
 */

import type { AgentEntry, HostMessage, SessionEntry } from "../_wire.ts";
import { BUILTIN_MANIFESTS } from "../../src/plugin/builtins.ts";
import { cell, type FrameData, navigate, style, type TabPlugin } from "../_sdk.ts";

export class AgentsTab implements TabPlugin {
  readonly manifest = BUILTIN_MANIFESTS.agents;
  agents: AgentEntry[] = [];
  sessions: SessionEntry[] = [];
  index = 0;
  width = 80;
  height = 24;
  received = false;

  handle(message: HostMessage): void {
    switch (message.type) {
      case "init":
      case "resize":
        this.width = message.width;
        this.height = message.height;
        break;
      case "agents":
        this.agents = message.agents;
        this.received = true;
        this.index = Math.min(this.index, Math.max(0, this.agents.length - 1));
        break;
      case "sessions":
        this.sessions = message.sessions;
        break;
      case "key": {
        const next = navigate(message.key, this.index, this.agents.length);
        if (next !== null) this.index = next;
        break;
      }
      case "mouse":
        if (message.mouse.kind === "click" && message.mouse.y >= 2) {
          this.index = Math.min(this.agents.length - 1, message.mouse.y - 2);
        }
        break;
      default:
        break;
    }
  }

  #running(agent: string): SessionEntry[] {
    return this.sessions.filter((s) => s.agent === agent && s.status === "running");
  }

  frame(): FrameData {
    if (!this.received) return { view: style.dim("Looking for agents…") };
    if (this.agents.length === 0) return { view: "No agents in the catalog", count: 0 };
    const lines = [
      style.bold(
        `${cell("", 2)}${cell("AGENT", 16)}${cell("VERSION", 14)}${cell("MANIFEST", 10)}${
          cell("HOOKS", 22)
        }SESSIONS`,
      ),
      "",
    ];
    this.agents.forEach((a, i) => {
      // A session may run an agent lazyshell's own PATH does not have (another PATH, a shim).
      const running = this.#running(a.id).length > 0;
      const mark = a.installed || running ? style.green("✓ ") : style.red("✗ ");
      const version = a.installed ? a.version ?? "?" : running ? "in a session" : "not on PATH";
      const row = `${cell(a.name, 16)}${cell(version, 14)}${cell(a.source ?? "builtin", 10)}${
        cell(a.hooks ?? "-", 22)
      }${this.#running(a.id).length}`;
      lines.push(mark + (i === this.index ? style.inverse(row) : row));
    });
    const selected = this.agents[this.index];
    if (selected) {
      lines.push("", style.bold(selected.name));
      lines.push(`  id: ${selected.id}`);
      if (selected.managedDir) lines.push(`  managed dir: ${selected.managedDir}`);
      for (const dir of selected.readDirs) lines.push(`  reads: ${dir}`);
      const running = this.#running(selected.id);
      lines.push(
        running.length === 0
          ? "  no session runs it"
          : `  sessions: ${running.map((s) => `${s.name} (${s.state ?? "?"})`).join(", ")}`,
      );
    }
    const available = this.agents.filter((a) => a.installed || this.#running(a.id).length > 0);
    return { view: lines.join("\n"), count: available.length };
  }
}
