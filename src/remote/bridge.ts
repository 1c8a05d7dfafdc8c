/**
 * `lazyshell bridge attach|control [--start]` (hidden; docs/remote.md, "The
 * bridge"): what `lazyshell -H DEST …` runs on the remote host through ssh.
 * It reaches the server named by `-L NAME` there — starting it first with
 * `--start`, as a plain `lazyshell` does —, writes its greeting line
 * (greeting.ts), then passes bytes both ways between its stdin/stdout and
 * the server's attach socket (`server-NAME.sock`) or its control socket,
 * unchanged: the attach frames and control lines keep their own versions
 * and checks. It opens nothing on any network, and checks the sockets as
 * every local client does (private_path.ts).
 *
 * No npm import unless the control socket must be found with the config.
 */

import { dataDir, type Env } from "../config/paths.ts";
import { messageOf, UserError } from "../errors.ts";
import { ensureRuntimeRoot } from "../ipc/runtime_dir.ts";
import { checkOwnSocket } from "../ipc/private_path.ts";
import { selfCommand } from "../plugin/self.ts";
import { serverName, serverPaths } from "../wire/paths.ts";
import { ensureServer } from "../wire/spawn.ts";
import { BRIDGE_PROTOCOL, greetingLine } from "./greeting.ts";

export type BridgeMode = "attach" | "control";

export function bridgeArgs(args: readonly string[]): { mode: BridgeMode; start: boolean } {
  const [mode, ...rest] = args;
  if (mode !== "attach" && mode !== "control") {
    throw new UserError("bridge takes attach or control (it is run by lazyshell -H over ssh)");
  }
  let start = false;
  for (const arg of rest) {
    if (arg === "--start") start = true;
    else throw new UserError(`Unexpected argument for bridge: ${arg}`);
  }
  return { mode, start };
}

export async function runBridge(args: readonly string[], version: string): Promise<number> {
  const env = Deno.env.toObject();
  const encoder = new TextEncoder();
  let conn: Deno.UnixConn;
  try {
    const { mode, start } = bridgeArgs(args);
    conn = await connectServer(env, mode, start);
  } catch (error) {
    const line = greetingLine({
      bridge: BRIDGE_PROTOCOL,
      version,
      ok: false,
      error: messageOf(error),
    });
    await writeFully(Deno.stdout, encoder.encode(line)).catch(() => {});
    return error instanceof UserError ? 2 : 1;
  }
  const hello = greetingLine({ bridge: BRIDGE_PROTOCOL, version, ok: true, cwd: Deno.cwd() });
  await writeFully(Deno.stdout, encoder.encode(hello));
  await pipe(conn);
  return 0;
}

async function connectServer(env: Env, mode: BridgeMode, start: boolean): Promise<Deno.UnixConn> {
  const name = serverName(env);
  const paths = serverPaths(env, name);
  const flag = name === "default" ? "" : ` -L ${name}`;
  if (start) {
    ensureRuntimeRoot(env);
    await ensureServer({
      paths,
      name,
      self: selfCommand(),
      // No terminal here to ask whether a lazyshell.yml may start: none does.
      projectArgs: ["--no-project"],
      cwd: Deno.cwd(),
      env: Deno.env.toObject(),
      logFile: serverLog(env),
    });
  }
  let path = paths.socket;
  if (mode === "control") {
    const { findControlSocket } = await import("../ctl/find.ts");
    path = await findControlSocket(env, async () => {
      const { loadConfig } = await import("../config/load.ts");
      return loadConfig(env).config.control.enabled;
    });
  }
  checkOwnSocket(path);
  try {
    return await Deno.connect({ transport: "unix", path });
  } catch {
    throw new UserError(
      mode === "attach"
        ? `No lazyshell server is running${flag ? ` named ${name}` : ""} (${path})`
        : `Nothing answers at ${path} (lazyshell was killed?)`,
    );
  }
}

/** stdin → socket and socket → stdout until the server's side ends. */
async function pipe(conn: Deno.UnixConn): Promise<void> {
  const up = (async () => {
    const buf = new Uint8Array(64 * 1024);
    try {
      for (;;) {
        const n = await Deno.stdin.read(buf);
        if (n === null) break;
        await writeFully(conn, buf.subarray(0, n));
      }
      // The client is gone (ssh closed): the server sees its end.
      await conn.closeWrite();
    } catch { /* the socket closed: the loop below ends too */ }
  })();
  const buf = new Uint8Array(256 * 1024);
  try {
    for (;;) {
      const n = await conn.read(buf);
      if (n === null) break;
      await writeFully(Deno.stdout, buf.subarray(0, n));
    }
  } catch { /* either side closed */ }
  try {
    conn.close();
  } catch { /* closed */ }
  void up;
}

async function writeFully(
  sink: { write(p: Uint8Array): Promise<number> },
  bytes: Uint8Array,
): Promise<void> {
  for (let n = 0; n < bytes.length;) n += await sink.write(bytes.subarray(n));
}

function serverLog(env: Env): string {
  const dir = dataDir(env);
  try {
    Deno.mkdirSync(dir, { recursive: true });
  } catch { /* the spawn reports it */ }
  return `${dir}/server.log`;
}
