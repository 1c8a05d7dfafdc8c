/** A real Runtime with its sockets in a temp runtime dir, and a client for its control socket. */

import { Runtime } from "../src/runtime/runtime.ts";
import { type Sockets, startSockets } from "../src/runtime/sockets.ts";
import { parseConfig } from "../src/config/config.ts";
import { request } from "../src/ctl/client.ts";
import type { ControlResponse } from "../src/ipc/protocol.ts";
import type { ControlLimits } from "../src/control/limits.ts";
import { TEST_SHELL, testEnv } from "../src/session/test_util.ts";

export interface Instance extends AsyncDisposable {
  readonly runtime: Runtime;
  readonly sockets: Sockets;
  readonly base: string;
  /** One request on a fresh connection. */
  call(verb: string, args?: Record<string, unknown>, timeoutMs?: number): Promise<ControlResponse>;
  /** Like call, but the result of a success, or throws with the error. */
  ok<T = unknown>(verb: string, args?: Record<string, unknown>): Promise<T>;
  error(verb: string, args?: Record<string, unknown>): Promise<string>;
}

export async function startInstance(
  options: {
    control?: boolean;
    extraConfig?: string;
    limits?: Partial<ControlLimits>;
    env?: Record<string, string>;
  } = {},
): Promise<Instance> {
  const base = Deno.makeTempDirSync({ prefix: "lzs-ctl-" });
  const env = testEnv({ XDG_RUNTIME_DIR: base, ...options.env });
  const text = `control:\n  enabled: ${options.control ?? true}\nshell: ${TEST_SHELL}\n` +
    (options.extraConfig ?? "");
  const runtime = new Runtime({ env, config: parseConfig(text, "test-config.yml"), cwd: base });
  let sockets: Sockets;
  try {
    sockets = await startSockets(runtime, () => {}, options.limits);
  } catch (error) {
    await runtime[Symbol.asyncDispose]();
    throw error;
  }
  const call = async (verb: string, args: Record<string, unknown> = {}, timeoutMs = 30_000) => {
    if (!sockets.control) throw new Error("control is off");
    return (await request(sockets.control.path, verb, args, timeoutMs)).response;
  };
  return {
    runtime,
    sockets,
    base,
    call,
    async ok<T>(verb: string, args: Record<string, unknown> = {}) {
      const r = await call(verb, args);
      if (!r.ok) throw new Error(`${verb} failed: ${r.error}`);
      return r.result as T;
    },
    async error(verb: string, args: Record<string, unknown> = {}) {
      const r = await call(verb, args);
      if (r.ok) throw new Error(`${verb} succeeded: ${JSON.stringify(r.result)}`);
      return r.error;
    },
    async [Symbol.asyncDispose]() {
      await runtime[Symbol.asyncDispose]();
      Deno.removeSync(base, { recursive: true });
    },
  };
}
