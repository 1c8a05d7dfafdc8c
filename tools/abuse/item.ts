/**
 * The shape of one abuse (tools/abuse/README.md): an id (its number in the README's list), a
 * title, and `run`, which replays the abuse against real `lazyshell serve`
 * processes it starts itself (`server: false`: it brings its own, with the
 * config, files or arguments the abuse needs) and says which bound held.
 * The result carries both `held`/`summary` and `ok`/`bound`, so the item
 * runs under tools/abuse/local.ts and under a harness that expects the
 * latter names.
 */

export interface AbuseContext {
  /** A progress line (stderr); optional. */
  log?(line: string): void;
}

export interface AbuseResult {
  /** The target was met. */
  readonly held: boolean;
  /** One line: the bound and the figures that show it. */
  readonly summary: string;
  readonly ok: boolean;
  readonly bound: string;
}

export interface AbuseItem {
  readonly id: string;
  readonly title: string;
  /** Always false: each item starts the servers it abuses (tools/abuse/server.ts). */
  readonly server: false;
  run(ctx: AbuseContext): Promise<AbuseResult>;
}

/** The result of an item, under both names. */
export function result(held: boolean, summary: string): AbuseResult {
  return { held, summary, ok: held, bound: summary };
}
