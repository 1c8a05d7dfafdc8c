/**
 * `x` on a session in a worktree lazyshell made, answered `w` or `b` (docs/changes.md): the
 * session ends (if it runs) and is removed, then its worktree goes with the rules of `ctl
 * worktree-remove` (never losing work without --force). A refusal keeps the worktree, says why
 * in one line and how to finish it (`ctl worktrees` still lists it).
 */

import { messageOf } from "../errors.ts";
import { finishWorktree } from "../control/worktree_finish.ts";
import { describeRemoval } from "../git/worktree_remove.ts";
import type { EffectContext } from "./effects.ts";

/** How long a killed session may take to exit before the worktree is left alone. */
const EXIT_WAIT_MS = 10_000;

export async function finishSessionWorktree(
  ctx: EffectContext,
  id: string,
  keepBranch: boolean,
): Promise<void> {
  const { runtime } = ctx;
  const session = runtime.sessions.get(id);
  const worktree = session?.worktree;
  if (!session || !worktree) return;
  const say = (text: string, error: boolean) => ctx.dispatch({ type: "message", text, error });
  if (session.status === "running") {
    session.kill();
    let timer: ReturnType<typeof setTimeout> | undefined;
    const late = new Promise<"late">((r) => (timer = setTimeout(() => r("late"), EXIT_WAIT_MS)));
    const outcome = await Promise.race([session.exited.then(() => "exited" as const), late]);
    clearTimeout(timer);
    if (outcome === "late") {
      return say(`${session.name} did not exit: its worktree ${worktree.path} is kept`, true);
    }
  }
  if (runtime.sessions.get(id)) runtime.sessions.remove(id);
  const fix = `lazyshell ctl worktree-remove ${worktree.branch}`;
  try {
    const report = await finishWorktree(
      runtime,
      { dir: worktree.path, session: null, gone: null },
      { keepBranch },
    );
    say(describeRemoval(report).replaceAll("\n", " · "), false);
  } catch (error) {
    say(`Kept worktree ${worktree.path}: ${messageOf(error)} (${fix} [--force])`, true);
  }
}
