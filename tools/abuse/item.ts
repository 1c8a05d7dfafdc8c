/**
 * The shape of one abuse (issue #17): an id (the item number), a
 * title, and `run`, which replays the abuse against a real `lazyshell serve`
 * and says which bound held, with its figures.
 */

import type { ServeOptions, Server } from "./server.ts";

export interface AbuseContext {
  /** A fresh server in a private temp home; dispose it when done. */
  serve(options?: ServeOptions): Promise<Server>;
  /** A progress line (stderr). */
  log(line: string): void;
}

export interface AbuseResult {
  /** The target was met. */
  readonly held: boolean;
  /** One line: the bound and the figures that show it. */
  readonly summary: string;
}

export interface AbuseItem {
  readonly id: number;
  readonly title: string;
  run(ctx: AbuseContext): Promise<AbuseResult>;
}
