/**
 * `lazyshell serve` for the live tools (../abuse/server.ts spawnServe):
 * started with the CLI's environment, ready once its ready line names the
 * control socket (60 s at most), stopped with SIGTERM (SIGKILL 10 s later).
 * Its other stderr lines are kept for the report.
 */

import { request } from "../../src/ctl/client.ts";
import { controlSocket, spawnServe } from "../abuse/server.ts";

export interface LiveServe extends AsyncDisposable {
  readonly child: Deno.ChildProcess;
  /** serve's ready line. */
  readonly ready: string;
  /** The control socket. */
  readonly sock: string;
  /** stderr lines so far. */
  readonly stderr: readonly string[];
  /** One control request; a refusal throws with its error. */
  call(verb: string, args: Record<string, unknown>, ms?: number): Promise<Record<string, unknown>>;
}

export async function startServe(env: Record<string, string>, cwd: string): Promise<LiveServe> {
  const serve = spawnServe(env, { cwd, quiet: false, readyMs: 60000 });
  const ready = await serve.ready.catch(async (error) => {
    await serve.stop();
    throw error;
  });
  const sock = controlSocket(ready);
  if (!sock) {
    await serve.stop();
    throw new Error(`serve runs without the control API: ${ready}`);
  }
  return {
    child: serve.child,
    ready,
    sock,
    get stderr() {
      return serve.stderr().split("\n").slice(0, -1);
    },
    async call(verb, args, ms = 15000) {
      const { response } = await request(sock, verb, args, ms);
      if (!response.ok) throw new Error(`${verb}: ${response.error}`);
      return response.result as Record<string, unknown>;
    },
    [Symbol.asyncDispose]: () => serve.stop().then(() => {}),
  };
}

/** The CLI's environment for `serve` and `ctl`: a runtime dir of the run's own, Deno's cache. */
export function liveEnv(base: Record<string, string>, runDir: string): Record<string, string> {
  return {
    ...base,
    XDG_RUNTIME_DIR: runDir,
    DENO_DIR: Deno.env.get("DENO_DIR") ?? "/root/.cache/deno",
    DENO_NO_UPDATE_CHECK: "1",
  };
}

/** A run's verdict: one `PASS`/`FAIL` line per check. */
export function checkList(log: (line: string) => void) {
  const checks: [string, boolean][] = [];
  return {
    check(what: string, ok: boolean): void {
      checks.push([what, ok]);
      log(`${ok ? "PASS" : "FAIL"} ${what}`);
    },
    get count(): number {
      return checks.length;
    },
    get failed(): number {
      return checks.filter(([, ok]) => !ok).length;
    },
  };
}
