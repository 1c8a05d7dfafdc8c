/**
 * `lazyshell serve` for the live tools: started with the CLI's environment,
 * ready once its stderr names the control socket, stopped with SIGTERM
 * (SIGKILL 10 s later). Its other stderr lines are kept for the report.
 */

import { sleep } from "../capture/driver_util.ts";
import { request } from "../../src/ctl/client.ts";

const ROOT = new URL("../..", import.meta.url).pathname.replace(/\/$/, "");

export interface LiveServe extends AsyncDisposable {
  /** The control socket. */
  readonly sock: string;
  /** stderr lines so far. */
  readonly stderr: readonly string[];
  /** One control request; a refusal throws with its error. */
  call(verb: string, args: Record<string, unknown>, ms?: number): Promise<Record<string, unknown>>;
}

export async function startServe(env: Record<string, string>, cwd: string): Promise<LiveServe> {
  const serve = new Deno.Command(Deno.execPath(), {
    args: ["run", "-A", `${ROOT}/main.ts`, "serve"],
    cwd,
    env,
    clearEnv: true,
    stdin: "null",
    stdout: "null",
    stderr: "piped",
  }).spawn();
  const stderr: string[] = [];
  const ready = Promise.withResolvers<string>();
  const pump = (async () => {
    const decoder = new TextDecoder();
    let buf = "";
    for await (const chunk of serve.stderr) {
      buf += decoder.decode(chunk, { stream: true });
      let nl;
      while ((nl = buf.indexOf("\n")) >= 0) {
        const line = buf.slice(0, nl);
        buf = buf.slice(nl + 1);
        stderr.push(line);
        const m = /control: (\S+?),/.exec(line);
        if (m) ready.resolve(m[1]!);
      }
    }
    ready.reject(new Error(`serve ended: ${stderr.join(" | ")}`));
  })();
  const stop = async () => {
    try {
      serve.kill("SIGTERM");
    } catch { /* gone */ }
    const status = await Promise.race([serve.status, sleep(10000).then(() => null)]);
    if (!status) {
      try {
        serve.kill("SIGKILL");
      } catch { /* gone */ }
      await serve.status;
    }
    await pump.catch(() => {});
  };
  let sock: string;
  try {
    sock = await Promise.race([
      ready.promise,
      sleep(60000).then(() => Promise.reject(new Error("serve not ready in 60 s"))),
    ]);
  } catch (error) {
    await stop();
    throw error;
  }
  return {
    sock,
    stderr,
    async call(verb, args, ms = 15000) {
      const { response } = await request(sock, verb, args, ms);
      if (!response.ok) throw new Error(`${verb}: ${response.error}`);
      return response.result as Record<string, unknown>;
    },
    [Symbol.asyncDispose]: stop,
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
