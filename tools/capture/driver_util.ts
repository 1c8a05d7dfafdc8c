/**
 * Small pieces of the driver: ending the CLI like a user, summarizing what
 * the CLI sent to the mock, and an abortable sleep that never leaks a timer.
 */

import type { Pty } from "../../src/session/pty.ts";
import type { MockRequest } from "./mock/server.ts";
import type { InputSource } from "./recorder.ts";

/** Quits like a user (the CLI's quit keys), then SIGTERM, then SIGKILL. */
export async function quit(
  pty: Pty,
  keys: readonly string[],
  send: (data: string, src: InputSource, note: string) => void,
  exited: Promise<void>,
  isExited: () => boolean,
): Promise<void> {
  const waitExit = (ms: number) => Promise.race([exited, sleep(ms)]);
  for (const [i, k] of keys.entries()) {
    if (isExited()) return;
    send(k, "user", `quit key ${i + 1}/${keys.length}`);
    await waitExit(500);
  }
  await waitExit(5000);
  for (const signal of ["SIGTERM", "SIGKILL"] as const) {
    if (isExited()) return;
    try {
      pty.kill(signal);
    } catch {
      // already gone
    }
    await waitExit(3000);
  }
}

export function summarize(tMs: number, r: MockRequest): Record<string, unknown> {
  const b = r.body !== null && typeof r.body === "object"
    ? r.body as Record<string, unknown>
    : null;
  const out: Record<string, unknown> = {
    t_ms: tMs,
    id: r.id,
    method: r.method,
    url: r.url,
    ua: r.headers["user-agent"],
  };
  if (!b) return { ...out, body: String(r.body ?? "").slice(0, 300) };
  const msgs = (b.messages ?? b.input ?? b.contents ?? []) as unknown[];
  return {
    ...out,
    model: b.model,
    stream: b.stream,
    tools: ((b.tools ?? []) as Record<string, unknown>[]).map((t) =>
      t.name ?? (t.function as { name?: string } | undefined)?.name ?? t.type ?? "functions"
    ),
    n_messages: msgs.length,
    last_message: JSON.stringify(msgs[msgs.length - 1] ?? null).slice(0, 600),
  };
}

/** Waits `ms`, or less when `signal` aborts; never leaves a timer behind. */
export function sleep(ms: number, signal?: AbortSignal): Promise<void> {
  return new Promise((resolve) => {
    if (signal?.aborted) return resolve();
    const done = () => {
      clearTimeout(timer);
      signal?.removeEventListener("abort", done);
      resolve();
    };
    const timer = setTimeout(done, ms);
    signal?.addEventListener("abort", done, { once: true });
  });
}
