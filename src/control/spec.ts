/**
 * The declarative shape of a control verb (docs/architecture.md, Conventions; like a tmux
 * cmd_entry): its name, usage, arguments and how to print its result, without
 * its body. The server validates requests with it, `ctl` parses argv,
 * generates `--help` and prints results from it, loading none of the
 * server's code (tests/ctl_graph_test.ts). One file per verb in specs/; its
 * body (`run`) is the file of the same name in verbs/ (verb.ts).
 */

import { UserError } from "../errors.ts";

export type ArgType = "string" | "int" | "number" | "bool" | "path";

export interface ArgSpec {
  /** Key in the request's `args`. */
  readonly name: string;
  readonly type: ArgType;
  /** Positional on the command line (in declaration order); otherwise `--name`. */
  readonly positional?: boolean;
  readonly required?: boolean;
  /** Placeholder in usage (`TARGET`, `N`). */
  readonly meta?: string;
  /** Largest value of an int or number (both the server and `ctl` refuse more). */
  readonly max?: number;
  readonly help: string;
}

/** The positional TARGET every single-session verb takes (resolved by targets.ts). */
export const TARGET_ARG: ArgSpec = {
  name: "target",
  type: "string",
  positional: true,
  required: true,
  meta: "TARGET",
  help: "session id or exact name",
};

/** The positional GROUP of the broadcast verbs. */
export const GROUP_ARG: ArgSpec = {
  name: "group",
  type: "string",
  positional: true,
  required: true,
  meta: "GROUP",
  help: "group name",
};

export type Args = Readonly<Record<string, string | number | boolean | undefined>>;

/** What `ctl` knows of a verb: everything but its body. */
export interface VerbSpec<R = never> {
  readonly name: string;
  readonly summary: string;
  readonly args: readonly ArgSpec[];
  /** Human output of a successful result (`--json` prints the raw response instead). */
  format(result: R): string;
  /** How long the client waits for the reply (wait: its own timeout and a margin). */
  clientTimeoutMs?(args: Args): number;
}

export function defineSpec<R>(spec: VerbSpec<R>): VerbSpec<R> {
  return spec;
}

/** `session-1 (build)` */
export function label(entry: { id: string; name: string }): string {
  return `${entry.id} (${entry.name})`;
}

/** Checks a request's args against the verb's spec; unknown keys are refused. */
export function checkArgs(verb: VerbSpec, raw: Readonly<Record<string, unknown>>): Args {
  const out: Record<string, string | number | boolean> = {};
  for (const key of Object.keys(raw)) {
    if (!verb.args.some((a) => a.name === key)) {
      throw new UserError(`${verb.name}: unknown argument ${key}`);
    }
  }
  for (const spec of verb.args) {
    const value = raw[spec.name];
    if (value === undefined || value === null) {
      if (spec.required) throw new UserError(`${verb.name}: missing ${describe(spec)}`);
      continue;
    }
    out[spec.name] = checkValue(verb, spec, value);
  }
  return out;
}

function checkValue(verb: VerbSpec, spec: ArgSpec, value: unknown): string | number | boolean {
  const bad = (what: string) => new UserError(`${verb.name}: ${describe(spec)} must be ${what}`);
  switch (spec.type) {
    case "bool":
      if (typeof value !== "boolean") throw bad("true or false");
      return value;
    case "int":
      if (typeof value !== "number" || !Number.isSafeInteger(value) || value < 0) {
        throw bad("a whole number ≥ 0");
      }
      if (spec.max !== undefined && value > spec.max) throw bad(`at most ${spec.max}`);
      return value;
    case "number":
      if (typeof value !== "number" || !Number.isFinite(value) || value < 0) {
        throw bad("a number ≥ 0");
      }
      if (spec.max !== undefined && value > spec.max) throw bad(`at most ${spec.max}`);
      return value;
    case "string":
    case "path":
      if (typeof value !== "string") throw bad("text");
      return value;
  }
}

export function describe(spec: ArgSpec): string {
  return spec.positional ? (spec.meta ?? spec.name.toUpperCase()) : `--${flagName(spec)}`;
}

/** `--if-state` for `ifState`. */
export function flagName(spec: ArgSpec): string {
  return spec.name.replace(/[A-Z]/g, (c) => `-${c.toLowerCase()}`);
}

/** `read TARGET [--tail N]` */
export function usage(verb: VerbSpec): string {
  const parts = [verb.name];
  for (const spec of verb.args) {
    const meta = spec.meta ?? spec.name.toUpperCase();
    const text = spec.positional
      ? meta
      : spec.type === "bool"
      ? `--${flagName(spec)}`
      : `--${flagName(spec)} ${meta}`;
    parts.push(spec.required ? text : `[${text}]`);
  }
  return parts.join(" ");
}

export function str(args: Args, name: string): string | undefined {
  const v = args[name];
  return typeof v === "string" ? v : undefined;
}

export function num(args: Args, name: string): number | undefined {
  const v = args[name];
  return typeof v === "number" ? v : undefined;
}

export function flag(args: Args, name: string): boolean {
  return args[name] === true;
}
