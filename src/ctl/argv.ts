/**
 * `ctl <verb> ...` argv → request args, driven by the verb's spec (the
 * same table the server validates with). Positionals fill the verb's
 * positional args in order; `--flag value`, `--flag=value` and boolean
 * `--flag` set the rest; `--` ends options. Paths become absolute against
 * the caller's cwd, so `--cwd ./api` means the caller's ./api.
 */

import { UserError } from "../errors.ts";
import { type ArgSpec, flagName, usage, type VerbSpec } from "../control/spec.ts";

export interface ParsedCtl {
  readonly args: Record<string, string | number | boolean>;
  readonly json: boolean;
  readonly help: boolean;
}

export function parseVerbArgv(verb: VerbSpec, argv: readonly string[], cwd: string): ParsedCtl {
  const args: Record<string, string | number | boolean> = {};
  const positionals = verb.args.filter((a) => a.positional);
  let json = false;
  let help = false;
  let next = 0;
  let optionsEnded = false;
  const fail = (message: string) =>
    new UserError(`${message} (usage: lazyshell ctl ${usage(verb)})`);
  for (let i = 0; i < argv.length; i++) {
    const word = argv[i]!;
    if (!optionsEnded && word === "--") {
      optionsEnded = true;
      continue;
    }
    if (!optionsEnded && word.startsWith("--") && word.length > 2) {
      const eq = word.indexOf("=");
      const name = eq === -1 ? word.slice(2) : word.slice(2, eq);
      if (name === "json") {
        json = true;
        continue;
      }
      if (name === "help") {
        help = true;
        continue;
      }
      const spec = verb.args.find((a) => !a.positional && flagName(a) === name);
      if (!spec) throw fail(`Unknown option --${name} for ${verb.name}`);
      if (spec.type === "bool") {
        if (eq !== -1) throw fail(`--${name} takes no value`);
        args[spec.name] = true;
        continue;
      }
      const value = eq === -1 ? argv[++i] : word.slice(eq + 1);
      if (value === undefined) throw fail(`--${name} needs a value`);
      args[spec.name] = convert(spec, value, cwd, fail);
      continue;
    }
    if (word === "-h" && !optionsEnded) {
      help = true;
      continue;
    }
    const spec = positionals[next++];
    if (!spec) throw fail(`Unexpected argument: ${word}`);
    args[spec.name] = convert(spec, word, cwd, fail);
  }
  if (!help) {
    for (const spec of verb.args) {
      if (spec.required && args[spec.name] === undefined) {
        const what = spec.positional ? (spec.meta ?? spec.name) : `--${flagName(spec)}`;
        throw fail(`Missing ${what}`);
      }
    }
  }
  return { args, json, help };
}

function convert(
  spec: ArgSpec,
  value: string,
  cwd: string,
  fail: (m: string) => Error,
): string | number {
  switch (spec.type) {
    case "int": {
      if (!/^\d+$/.test(value)) throw fail(`--${flagName(spec)} must be a whole number: ${value}`);
      return Number(value);
    }
    case "number": {
      const n = Number(value);
      if (!/^\d+(\.\d+)?$/.test(value) || !Number.isFinite(n)) {
        throw fail(`--${flagName(spec)} must be a number: ${value}`);
      }
      return n;
    }
    case "path":
      return value.startsWith("/") ? value : `${cwd.replace(/\/$/, "")}/${value}`;
    default:
      return value;
  }
}
