/**
 * The connections that ask one thing and leave (docs/architecture.md,
 * "Server and clients"): `ls`, `restore`, `reload`, `web` and `kill-server`.
 * Each hears its answer in Output, then an Exit with its code; whatever
 * happens, the client hears an answer (a reload or a web request that threw
 * says why).
 */

import { messageOf } from "../errors.ts";
import type { SessionRestore } from "../restore/restore.ts";
import { answerRestore } from "../restore/answer.ts";
import type { Runtime } from "../runtime/runtime.ts";
import { type ExitMessage, FrameType, type HelloMessage } from "../wire/protocol.ts";
import type { WebRequest } from "../wire/protocol.ts";
import type { Link } from "./link.ts";
import { sessionList } from "./ls.ts";
import type { ReloadReport } from "./reload.ts";

/** What the answers need of the server. */
export interface OneShotServer {
  readonly runtime: Runtime;
  /** The server's name (`-L`), for messages. */
  readonly name: string;
  readonly restore?: SessionRestore;
  readonly reload?: () => Promise<ReloadReport>;
  readonly web?: (request: WebRequest) => Promise<{ text: string; code: number }>;
  /** Clients attached now. */
  readonly clients: number;
}

/** The modes answered here. */
export type OneShotMode = Exclude<HelloMessage["mode"], "attach">;

/**
 * Answers `hello` and closes the link; the end the server was asked for, if
 * any: `kill-server`, or `restore-only` (started for this question with
 * nothing to run).
 */
export async function answerOneShot(
  link: Link,
  hello: HelloMessage & { readonly mode: OneShotMode },
  server: OneShotServer,
): Promise<"kill-server" | "restore-only" | null> {
  switch (hello.mode) {
    case "ls": {
      const list = sessionList(server.runtime.state);
      // Said on stderr: stdout stays one session a line for scripts.
      const message = list === "" ? `No sessions on server ${server.name}` : "";
      link.send(FrameType.Output, list);
      link.send(FrameType.Exit, { reason: "done", message, code: 0 } satisfies ExitMessage);
      await link.flush();
      link.close();
      return null;
    }
    case "restore": {
      const answer = answerRestore(server.restore ?? null, hello.restore!);
      // Started for this question and nothing to run: no server is left behind.
      const ends = hello.restore!.started === true &&
        server.runtime.state.sessions.length === 0 && server.clients === 0;
      link.send(FrameType.Output, answer.text);
      link.send(
        FrameType.Exit,
        {
          reason: ends ? "server-exit" : "done",
          message: "",
          code: answer.code,
        } satisfies ExitMessage,
      );
      await link.flush();
      link.close();
      return ends ? "restore-only" : null;
    }
    case "reload": {
      // Whatever happens, the client hears an answer (a reload that threw says why).
      const report = server.reload
        ? await server.reload().catch((error): ReloadReport => ({
          ok: false,
          lines: [`Reload failed: ${messageOf(error)}`],
          message: { text: "", error: true },
        }))
        : null;
      if (report?.ok) link.send(FrameType.Output, report.lines.map((l) => `${l}\n`).join(""));
      link.send(
        FrameType.Exit,
        {
          reason: "done",
          message: report === null
            ? "This server cannot reload its config"
            : report.ok
            ? ""
            : report.lines.join("\n"),
          code: report?.ok ? 0 : 1,
        } satisfies ExitMessage,
      );
      await link.flush();
      link.close();
      return null;
    }
    case "web": {
      const answer = server.web
        ? await server.web(hello.web!).catch((error) => ({
          text: `lazyshell web: ${messageOf(error)}\n`,
          code: 1,
        }))
        : { text: "This server has no web view\n", code: 1 };
      link.send(FrameType.Output, answer.text);
      link.send(FrameType.Exit, { reason: "done", message: "", code: answer.code });
      await link.flush();
      link.close();
      return null;
    }
    case "kill-server":
      link.send(FrameType.Exit, { reason: "done", message: "", code: 0 } satisfies ExitMessage);
      await link.flush();
      link.close();
      return "kill-server";
  }
}
