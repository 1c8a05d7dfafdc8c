/**
 * The TUI-key path of `deno task live-answer … --tui`: a real `lazyshell`
 * client in a PTY (src/session/store.ts) attached to the live run's
 * server, answering from navigation mode with `o` (the answer overlay,
 * src/tui/core/view/answer.ts) then `y` (approve). Its second round opens the
 * overlay, lets the screen change under it (Esc through `ctl send`), then
 * presses `y`: the answer must be refused with nothing typed.
 */

import { SessionStore } from "../../src/session/store.ts";
import type { Session } from "../../src/session/session.ts";
import { screenText, TEST_SHELL, waitForText } from "../../src/session/test_util.ts";
import { sleep } from "../capture/driver_util.ts";

const ROOT = new URL("../..", import.meta.url).pathname.replace(/\/$/, "");

export interface TuiClient extends AsyncDisposable {
  readonly session: Session;
  /** Presses keys, then waits for TEXT on the client's screen. */
  press(keys: string, text: string | RegExp, ms?: number): Promise<boolean>;
  screen(): string;
}

export async function tuiClient(env: Record<string, string>, cwd: string): Promise<TuiClient> {
  const store = new SessionStore({ shell: TEST_SHELL, env, cwd });
  const session = store.create({
    command: `exec ${Deno.execPath()} run -A --quiet ${ROOT}/main.ts`,
    cols: 140,
    rows: 40,
  });
  const press = async (keys: string, text: string | RegExp, ms = 15000) => {
    session.write(keys);
    try {
      await waitForText(session, text, ms);
      return true;
    } catch {
      return false;
    }
  };
  const client: TuiClient = {
    session,
    press,
    screen: () => screenText(session),
    async [Symbol.asyncDispose]() {
      session.write("\x1dd"); // Ctrl+] d: detach (the server and its sessions stay)
      await Promise.race([session.exited, sleep(5000)]);
      await store[Symbol.asyncDispose]();
    },
  };
  // The session list shows once the client is attached.
  await waitForText(session, /claude|codex|opencode/, 60000);
  return client;
}
