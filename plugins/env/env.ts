/**
 * Built-in tab "env" (docs/plugin-protocol.md): the selected session's environment, with
 * secret-looking values masked until revealed on purpose, one variable at a
 * time (`enter`) or all at once after confirming (`R` twice). Data: the
 * `env` subscription.
 *
 * What counts as secret is a rule, not a list of variables
 * (src/model/secrets.ts): the state file of `lazyshell restore` never
 * keeps a value this tab would mask.
 */

import type { HostMessage } from "../_wire.ts";
import { BUILTIN_MANIFESTS } from "../../src/plugin/builtins.ts";
import { isSecret } from "../../src/model/secrets.ts";
import { cell, type FrameData, navigate, style, type TabPlugin } from "../_sdk.ts";

export { isSecret, isSecretName } from "../../src/model/secrets.ts";

export const MASK = "••••••••";

export class EnvTab implements TabPlugin {
  readonly manifest = BUILTIN_MANIFESTS.env;
  session: string | null = null;
  vars: [string, string][] = [];
  revealed = new Set<string>();
  revealAll = false;
  confirming = false;
  index = 0;
  height = 24;

  handle(message: HostMessage): void {
    switch (message.type) {
      case "init":
      case "resize":
        this.height = message.height;
        break;
      case "env":
        if (message.session !== this.session) {
          // A new session: everything is masked again.
          this.revealed.clear();
          this.revealAll = false;
          this.index = 0;
        }
        this.session = message.session;
        this.vars = Object.entries(message.vars).sort(([a], [b]) => a.localeCompare(b));
        break;
      case "key":
        this.#key(message.key);
        break;
      case "command":
        if (message.name === "hide") this.#hide();
        break;
      default:
        break;
    }
  }

  #hide(): void {
    this.revealed.clear();
    this.revealAll = false;
    this.confirming = false;
  }

  #key(key: string): void {
    const wasConfirming = this.confirming;
    this.confirming = false;
    const next = navigate(key, this.index, this.vars.length);
    if (next !== null) {
      this.index = next;
      return;
    }
    const selected = this.vars[this.index];
    if (key === "enter" && selected) {
      if (this.revealed.has(selected[0])) this.revealed.delete(selected[0]);
      else this.revealed.add(selected[0]);
    } else if (key === "R") {
      if (wasConfirming) this.revealAll = true;
      else this.confirming = true;
    } else if (key === "h") this.#hide();
  }

  valueOf(name: string, value: string): string {
    if (!isSecret(name, value) || this.revealAll || this.revealed.has(name)) return value;
    return style.dim(MASK);
  }

  frame(): FrameData {
    if (this.session === null) {
      return { view: style.dim("Select a session to see its environment") };
    }
    const lines = [style.bold(`Environment of ${this.session}`), ""];
    const rows = Math.max(1, this.height - 4);
    const start = Math.max(0, Math.min(this.index - Math.floor(rows / 2), this.vars.length - rows));
    this.vars.slice(start, start + rows).forEach(([name, value], i) => {
      const row = `${cell(name, 28)} ${this.valueOf(name, value)}`;
      lines.push(
        start + i === this.index
          ? style.inverse(cell(name, 28)) + " " + this.valueOf(name, value)
          : row,
      );
    });
    lines.push(
      this.confirming
        ? style.yellow("Press R again to reveal every secret value")
        : style.dim("enter reveal · R R reveal all · h hide"),
    );
    const secrets = this.vars.filter(([n, v]) => isSecret(n, v)).length;
    return { view: lines.join("\n"), count: secrets === 0 ? null : secrets };
  }
}
