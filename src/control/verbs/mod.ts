/**
 * The verb table as the server runs it (C2): one file per verb, each the
 * body of its spec in ../specs/ (`ctl` loads only ../specs/mod.ts, the same
 * verbs in the same order); docs/control-api.md lists them.
 * No restart or session-delete verb, and nothing that changes config or keys (C3).
 */

import type { Verb } from "../verb.ts";
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

export const VERBS: readonly Verb[] = [
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

export function findVerb(name: string): Verb | undefined {
  return VERBS.find((v) => v.name === name);
}
