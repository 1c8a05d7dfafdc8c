/**
 * A control verb as the server runs it: its spec (spec.ts: name, arguments,
 * how to print its result, all `ctl` loads) and its body, `run`. One file
 * per verb in verbs/, named after its spec in specs/.
 */

import type { ControlHost } from "./host.ts";
import type { Args, VerbSpec } from "./spec.ts";

export * from "./spec.ts";

export interface VerbContext {
  readonly host: ControlHost;
  /** Aborted when the server shuts down. */
  readonly signal: AbortSignal;
  /** Resolves once the reply has been written (or the client is gone); at once in-process. */
  readonly replied: Promise<void>;
}

export interface Verb extends VerbSpec {
  run(ctx: VerbContext, args: Args): unknown | Promise<unknown>;
}

/** The spec with its body: `run` returns what the spec's `format` prints. */
export function defineVerb<R>(
  spec: VerbSpec<R>,
  run: (ctx: VerbContext, args: Args) => R | Promise<R>,
): Verb {
  return { ...spec, run } as unknown as Verb;
}
