/**
 * The verb table as `ctl` knows it (C2): every verb's spec — name, arguments,
 * how to print its result — and none of their bodies (../verbs/mod.ts is the
 * server's table, in the same order). No restart or session-delete verb, and
 * nothing that changes config or keys (C3).
 */

import type { VerbSpec } from "../spec.ts";
import list from "./list.ts";
import read from "./read.ts";
import newVerb from "./new.ts";
import send from "./send.ts";
import kill from "./kill.ts";
import rename from "./rename.ts";
import group from "./group.ts";
import ungroup from "./ungroup.ts";
import groupSend from "./group_send.ts";
import groupKill from "./group_kill.ts";
import wait from "./wait.ts";
import answer from "./answer.ts";
import diff from "./diff.ts";
import worktreeRemove from "./worktree_remove.ts";
import worktrees from "./worktrees.ts";
import limit from "./limit.ts";
import watch from "./watch.ts";
import hosts from "./hosts.ts";

export const SPECS: readonly VerbSpec[] = [
  list,
  read,
  newVerb,
  send,
  kill,
  rename,
  group,
  ungroup,
  groupSend,
  groupKill,
  wait,
  answer,
  diff,
  worktreeRemove,
  worktrees,
  limit,
  watch,
  hosts,
];

export function findSpec(name: string): VerbSpec | undefined {
  return SPECS.find((v) => v.name === name);
}
