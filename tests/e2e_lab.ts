/**
 * The lab of the end-to-end tests that run the real program in PTYs: a temp
 * dir with lazyshell's own config (fallback notifications appended to
 * `notified`), data, state and runtime dirs, the test environment
 * (src/session/test_util.ts testEnv) pointing at them, and a PTY store. Its
 * disposal ends the server `lazyshell` started (it outlives its clients by
 * design) and removes the dir.
 */

import { shellQuote } from "../src/ipc/integrations.ts";
import { SessionStore } from "../src/session/store.ts";
import type { Session } from "../src/session/session.ts";
import { TEST_SHELL, testEnv } from "../src/session/test_util.ts";
import { lazyshell } from "../tools/abuse/server.ts";

export const ROOT = new URL("..", import.meta.url).pathname;
export const MAIN = `${ROOT}main.ts`;
/** Deno by its path, quoted for a shell: the PATH a test shell has may lack it. */
export const DENO = shellQuote(Deno.execPath());
/** `deno run -A -q main.ts` as a shell command line. */
export const RUN_MAIN = `${DENO} run -A -q ${shellQuote(MAIN)}`;

export interface Lab extends AsyncDisposable {
  readonly dir: string;
  readonly env: Record<string, string>;
  readonly store: SessionStore;
  /** A client in a PTY of this size: `lazyshell [args]`. */
  client(cols: number, rows: number, ...args: string[]): Session;
  /** `lazyshell <args>` as a plain subprocess with the lab's environment. */
  run(...args: string[]): Promise<{ code: number; stdout: string; stderr: string }>;
  /** The server's pid, from its ready line in the server log. */
  serverPid(): number;
}

/** A lab in a new temp dir named `prefix…`; its PTYs start in the repository, `cols`×`rows`. */
export function lab(prefix: string, size: { cols?: number; rows?: number } = {}): Lab {
  const dir = Deno.makeTempDirSync({ prefix });
  Deno.mkdirSync(`${dir}/config/lazyshell`, { recursive: true });
  Deno.mkdirSync(`${dir}/run`, { mode: 0o700 });
  Deno.writeTextFileSync(
    `${dir}/config/lazyshell/config.yml`,
    `notify:\n  fallback_command: "cat >> ${dir}/notified"\n  rate_limit_seconds: 0\n`,
  );
  const env = testEnv({
    XDG_CONFIG_HOME: `${dir}/config`,
    XDG_DATA_HOME: `${dir}/data`,
    XDG_STATE_HOME: `${dir}/state`,
    XDG_RUNTIME_DIR: `${dir}/run`,
  });
  const store = new SessionStore({ shell: TEST_SHELL, env, cwd: ROOT, ...size });
  const run = (...args: string[]) => lazyshell(env, args);
  return {
    dir,
    env,
    store,
    client: (cols, rows, ...args) =>
      store.create({
        command: `exec ${RUN_MAIN} ${args.join(" ")}`,
        cols,
        rows,
      }),
    run,
    serverPid() {
      const log = Deno.readTextFileSync(`${dir}/data/lazyshell/server.log`);
      const pids = [...log.matchAll(/ready \(pid (\d+)/g)].map((m) => Number(m[1]));
      return pids.at(-1)!;
    },
    async [Symbol.asyncDispose]() {
      // A no-op when a quit already ended the server.
      await run("kill-server");
      await store[Symbol.asyncDispose]();
      Deno.removeSync(dir, { recursive: true });
    },
  };
}
