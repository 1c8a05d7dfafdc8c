/**
 * One verb's spec, loaded alone: `ctl VERB` needs that verb's only, not the
 * whole table (./mod.ts, for `--help` and an unknown verb). The same verbs
 * as ./mod.ts (tests/ctl_graph_test.ts checks it).
 */

import type { VerbSpec } from "../spec.ts";

type Loader = () => Promise<{ default: VerbSpec }>;

/** By name, in the table's order; literal imports, so that `deno compile` and `deno info` see them. */
export const SPEC_LOADERS: Readonly<Record<string, Loader>> = {
  "list": () => import("./list.ts"),
  "read": () => import("./read.ts"),
  "new": () => import("./new.ts"),
  "send": () => import("./send.ts"),
  "kill": () => import("./kill.ts"),
  "rename": () => import("./rename.ts"),
  "group": () => import("./group.ts"),
  "ungroup": () => import("./ungroup.ts"),
  "group-send": () => import("./group_send.ts"),
  "group-kill": () => import("./group_kill.ts"),
  "wait": () => import("./wait.ts"),
  "answer": () => import("./answer.ts"),
  "diff": () => import("./diff.ts"),
  "worktree-remove": () => import("./worktree_remove.ts"),
  "worktrees": () => import("./worktrees.ts"),
  "limit": () => import("./limit.ts"),
  "watch": () => import("./watch.ts"),
  "hosts": () => import("./hosts.ts"),
};

/** The spec of verb `name`, or undefined for no such verb. */
export async function loadSpec(name: string): Promise<VerbSpec | undefined> {
  const load = Object.hasOwn(SPEC_LOADERS, name) ? SPEC_LOADERS[name] : undefined;
  return load ? (await load()).default : undefined;
}
