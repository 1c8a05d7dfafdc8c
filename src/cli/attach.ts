/**
 * Plain attach: one shell session passed straight through to this terminal.
 * A stop-gap for `lazyshell` until the TUI (issue 5) takes over `start`.
 */

import { UserError } from "../errors.ts";
import { SessionStore } from "../session/store.ts";

export async function attach(): Promise<number> {
  if (!Deno.stdin.isTerminal() || !Deno.stdout.isTerminal()) {
    throw new UserError("lazyshell needs a terminal; use `lazyshell serve` without one");
  }
  const { columns, rows } = Deno.consoleSize();
  await using store = new SessionStore({ cols: columns, rows });
  const session = store.create();
  const encoder = new TextEncoder();
  using _tap = session.tap((data) => Deno.stdout.writeSync(encoder.encode(data)));
  const onResize = () => {
    const size = Deno.consoleSize();
    session.resize(size.columns, size.rows);
  };
  Deno.addSignalListener("SIGWINCH", onResize);
  Deno.stdin.setRaw(true);
  const decoder = new TextDecoder();
  const reader = Deno.stdin.readable.getReader();
  try {
    const input = (async () => {
      for (;;) {
        const { value, done } = await reader.read();
        if (done) break;
        session.write(decoder.decode(value, { stream: true }));
      }
    })();
    await Promise.race([session.exited, input]);
  } finally {
    Deno.removeSignalListener("SIGWINCH", onResize);
    Deno.stdin.setRaw(false);
    reader.releaseLock();
  }
  return session.exitCode ?? 0;
}
