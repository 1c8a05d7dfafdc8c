/**
 * Built-in tab "env" (docs/plugin-protocol.md): the selected session's environment, with
 * secret-looking values masked until revealed on purpose, one variable at a
 * time (`enter`) or all at once after confirming (`R` twice). Data: the
 * `env` subscription.
 *
 * What counts as secret is a rule, not a list of variables: a name with a
 * secret word in it (below), a data store's connection string, or a value
 * that carries a credential whatever its name — a URL with a password or
 * token in it, or a token of a well-known shape.
 */

import type { HostMessage } from "../_wire.ts";
import { BUILTIN_MANIFESTS } from "../../src/plugin/builtins.ts";
import { cell, type FrameData, navigate, style, type TabPlugin } from "../_sdk.ts";

/** Words anywhere in the name, then short ones only as a whole `_`-separated word (not PATH, PWD). */
const SECRET_NAME = new RegExp(
  [
    "TOKEN|SECRET|KEY|PASSWORD|PASSWD|PASSPHRASE|CREDENTIAL|AUTH|PRIVATE|COOKIE|SIGNATURE|SALT",
    "DSN|WEBHOOK|JWT|CONNECTION_?STRING",
    "(^|_)(PASS|PW|PAT|SK|PSK|OTP)($|_)",
    "_PWD($|_)", // MYSQL_PWD; PWD and OLDPWD are directories
    // A data store's connection string: DATABASE_URL, MONGODB_URI, REDIS_URL, AMQP_URL ...
    "(^|_)(DATABASE|DB|MONGO|REDIS|POSTGRES|PG|MYSQL|MARIADB|AMQP|RABBIT|KAFKA|ELASTIC)\\w*_UR[LI]$",
  ].join("|"),
  "i",
);

/** A URL with `user:password@` (or a long `token@`) before its host. */
const URL_CREDENTIAL = /[a-z][a-z0-9+.-]*:\/\/([^\s/@:]*:[^\s/@]+|[^\s/@:]{16,})@/i;
/** Token shapes that are secrets wherever they appear: JWTs, GitHub, GitLab, Slack, Stripe, AWS keys. */
const TOKEN_VALUE =
  /eyJ[\w-]{8,}\.[\w-]{8,}\.|\b(gh[pousr]_|github_pat_|glpat-|xox[abprs]-|sk_(live|test)_|rk_live_)\w{8,}|\bAKIA[0-9A-Z]{16}\b/;

export function isSecretName(name: string): boolean {
  return SECRET_NAME.test(name);
}

/** Whether a variable's value is masked: a secret name, or a credential in the value. */
export function isSecret(name: string, value: string): boolean {
  return isSecretName(name) || URL_CREDENTIAL.test(value) || TOKEN_VALUE.test(value);
}

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
