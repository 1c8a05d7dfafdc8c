/**
 * What a page asks of a session (docs/web.md, "The live connection"):
 * answer its prompt through `ctl answer`'s path (the subject re-checked,
 * a receipt), send it a line, or read its worktree's changes as `ctl diff`
 * does. Each ends in the text of its reply; the live connection (live.ts)
 * bounds how many run and refuses all but the diff to a read-only view.
 */

import { UserError } from "../errors.ts";
import { type Prompt, samePrompt } from "../model/prompt.ts";
import type { SessionView } from "../model/session.ts";
import type { Session } from "../session/session.ts";
import { answerPrompt } from "../control/answer.ts";
import { label } from "../control/entry.ts";
import { untilRead } from "../control/typing.ts";
import { readChanges } from "../git/changes.ts";
import { STATUS_LETTER } from "../git/parse.ts";
import { describeBase, DIFF_MAX_BYTES, fit } from "../control/verbs/diff.ts";
import type { PageMessage } from "./wire.ts";

/** What the requests read and act on (the web view's runtime is one: live.ts). */
export interface RequestRuntime {
  readonly sessions: { get(id: string): Session | undefined };
  view(id: string): SessionView | undefined;
  classifyNow(id: string): unknown;
}

/** How long an answer waits for the agent to leave the prompt (as `ctl answer`). */
const ANSWER_TIMEOUT_MS = 10_000;

/** Does what the page asks; the text of its reply (a UserError: what the page is told). */
export async function pageRequest(
  runtime: RequestRuntime,
  m: Exclude<PageMessage, { t: "watch" }>,
): Promise<string> {
  const session = runtime.sessions.get(m.id);
  if (!session) throw new UserError(`No session ${m.id}`);
  switch (m.t) {
    case "answer": {
      const shown: Prompt = {
        question: m.question,
        subject: null,
        options: m.options.map((l) => ({ label: l, keys: [] })),
        cancel: null,
        approve: null,
        deny: null,
      };
      // The same question may come back about something else (another command to run): the
      // subject the page showed must still be the one on screen. In the same turn of the
      // event loop as answerPrompt's own reading: the screen cannot change in between.
      if (m.subject !== undefined) {
        runtime.classifyNow(session.id);
        const now = runtime.view(session.id)?.prompt ?? null;
        if (now !== null && samePrompt(now, shown) && now.subject !== m.subject) {
          throw new UserError(
            `The prompt of ${label(session)} changed since it was read (now about ` +
              `${JSON.stringify(now.subject)}): nothing typed`,
          );
        }
      }
      const r = await answerPrompt(
        {
          view: (id) => runtime.view(id),
          classifyNow: (id) => runtime.classifyNow(id),
        },
        session,
        { type: "option", n: m.option },
        { shown, timeoutMs: ANSWER_TIMEOUT_MS },
      );
      const now = r.receipt.prompt
        ? `asks ${JSON.stringify(r.receipt.prompt.question)}`
        : r.receipt.state ?? "no agent state";
      return `Answered ${label(r)} with ${r.option}. ${r.label}: it left the prompt in ` +
        `${r.receipt.ms} ms, now ${now}`;
    }
    case "send": {
      const writtenAt = Date.now();
      if (!session.write(m.text, false)) {
        throw new UserError(`${label(session)} took no input (exited, or not reading it)`);
      }
      if (m.enter) {
        // As `ctl send --enter`: a pause after the agent read the text (pastes told by timing).
        await untilRead(session, writtenAt);
        if (!session.write("\r", false)) {
          throw new UserError(`${label(session)} took the text but not the Enter`);
        }
      }
      return `Sent to ${label(session)}`;
    }
    case "diff": {
      const changes = await readChanges(runtime.view(session.id)?.cwd ?? session.cwd, {
        maxDiffBytes: DIFF_MAX_BYTES,
      });
      const fitted = fit(changes.diff, DIFF_MAX_BYTES);
      const lines = [`${label(session)}: ${describeBase(changes)}`];
      if (changes.files.length === 0) lines.push("No changes");
      for (const f of changes.files) {
        lines.push(`${STATUS_LETTER[f.status]} ${f.oldPath ? `${f.oldPath} -> ` : ""}${f.path}`);
      }
      if (fitted.diff !== "") lines.push("", fitted.diff.replace(/\n$/, ""));
      if (changes.truncated || fitted.cut) {
        lines.push(`(diff cut: git -C ${changes.root} diff shows all of it)`);
      }
      return lines.join("\n");
    }
  }
}
