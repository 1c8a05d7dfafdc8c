/** Helpers for the attach socket's tests: real unix sockets, the client's end read as it would. */

import { Link } from "./link.ts";
import { type ExitMessage, FrameReader, FrameType, parseExit } from "../wire/protocol.ts";

/** A listener at a fresh path; `connect()` gives a client end and the server's accepted conn. */
export function tempListener() {
  const dir = Deno.makeTempDirSync({ prefix: "lzs-sock-" });
  const path = `${dir}/s.sock`;
  const listener = Deno.listen({ transport: "unix", path });
  return {
    async connect(): Promise<{ client: Deno.UnixConn; server: Deno.UnixConn }> {
      const client = await Deno.connect({ transport: "unix", path });
      return { client, server: await listener.accept() };
    },
    [Symbol.dispose]() {
      listener.close();
      Deno.removeSync(dir, { recursive: true });
    },
  };
}

/** A server Link and the client's raw end of one connection. */
export async function linkPair(firstFrame?: number): Promise<{ link: Link; client: Deno.Conn }> {
  using listener = tempListener();
  const { client, server } = await listener.connect();
  return { link: new Link(server, firstFrame), client };
}

/** Everything the client's end reads until EOF: the Output bytes and the Exit. */
export async function readToEnd(
  conn: Deno.Conn,
): Promise<{ output: number; exit: ExitMessage | null }> {
  const reader = new FrameReader();
  const buf = new Uint8Array(256 * 1024);
  let output = 0;
  let exit: ExitMessage | null = null;
  try {
    for (let n = await conn.read(buf); n !== null; n = await conn.read(buf)) {
      for (const f of reader.push(buf.subarray(0, n))) {
        if (f.type === FrameType.Output) output += f.payload.length;
        if (f.type === FrameType.Exit) exit = parseExit(f.payload);
      }
    }
  } catch { /* reset after the Exit */ }
  return { output, exit };
}
