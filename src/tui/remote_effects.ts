/**
 * What the TUI does with another host's session (docs/remote.md, "In the
 * TUI"): answer its prompt through that host's `ctl answer` over the
 * watched connection — the remote re-reads the prompt right before typing
 * (refusing when it changed or does not ask `shown.question` any more) and
 * waits for its receipt — and hand this terminal to `lazyshell -H HOST
 * attach` (the server's handover) until it detaches.
 */

import { messageOf } from "../errors.ts";
import type { HostSource } from "../model/hosts.ts";
import { parseRemoteKey } from "../model/hosts.ts";
import { printable } from "../model/printable.ts";
import type { Choice, Prompt } from "../model/prompt.ts";
import type { TuiEvent } from "./core/events.ts";

/** How long the remote's answer may take: its receipt (10 s) and the link. */
const ANSWER_MS = 30_000;

export interface RemoteContext {
  readonly hosts: HostSource | null;
  dispatch(event: TuiEvent): void;
  /** Runs `lazyshell -H host attach` on this client's terminal; resolves when it ends. */
  readonly attach: ((host: string, id: string) => Promise<string | null>) | null;
}

/** True when `id` is another host's session (then the answer went there). */
export function answerRemote(
  ctx: RemoteContext,
  id: string,
  choice: Choice,
  shown: Prompt,
): boolean {
  const at = parseRemoteKey(id);
  if (!at) return false;
  void (async () => {
    const say = (text: string, error: boolean) => ctx.dispatch({ type: "message", text, error });
    if (!ctx.hosts) return say(`${at.host}: no hosts are watched here`, true);
    const args: Record<string, unknown> = {
      target: at.id,
      expect: shown.question,
      ...(choice.type === "option"
        ? { option: choice.n }
        : choice.type === "approve"
        ? { approve: true }
        : { deny: true }),
    };
    try {
      const r = await ctx.hosts.request(at.host, "answer", args, ANSWER_MS);
      if (!r.ok) return say(`${at.host}: ${printable(r.error)}`, true);
      const done = r.result as {
        name?: string;
        option?: number | null;
        label?: string;
        receipt?: { left?: boolean; state?: string | null };
      };
      const name = `${at.host}: ${printable(String(done.name ?? at.id))}`;
      const what = done.option == null ? "cancelled" : `answered ${printable(String(done.label))}`;
      const left = done.receipt?.left === true;
      say(
        left
          ? `✓ ${name}: ${what} (${printable(String(done.receipt?.state ?? "no state"))})`
          : `${name}: ${what}, but the prompt is still on screen`,
        !left,
      );
    } catch (error) {
      say(`${at.host}: ${printable(messageOf(error))}`, true);
    }
  })();
  return true;
}

/** Enter on a remote row: attach there until it detaches; a failure is one message. */
export function attachRemote(ctx: RemoteContext, host: string, id: string): void {
  if (!ctx.attach) {
    ctx.dispatch({
      type: "message",
      text: `This terminal cannot be handed over: run lazyshell -H ${host}`,
      error: true,
    });
    return;
  }
  void ctx.attach(host, id).then((problem) => {
    if (problem) ctx.dispatch({ type: "message", text: printable(problem), error: true });
  });
}
