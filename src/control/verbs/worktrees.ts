/** `worktrees`' body; its spec is ../specs/worktrees.ts. */

import { defineVerb } from "../verb.ts";
import { listWorktrees } from "../worktree_finish.ts";
import spec from "../specs/worktrees.ts";

export default defineVerb(spec, async ({ host }) => ({ worktrees: await listWorktrees(host) }));
