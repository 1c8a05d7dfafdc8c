/**
 * The agent's own side channels during a capture, each event stamped with
 * the raw-output offset at which it arrived: Claude hooks and opencode plugin
 * events (a JSONL file the hook appends to), Codex `notify` (same), and
 * opencode's `/event` SSE stream on 127.0.0.1.
 */

import type { LaunchSpec } from "./profile.ts";
import type { Recorder } from "./recorder.ts";
import { pause } from "../../src/util/async.ts";

const decoder = new TextDecoder();

class LogTail {
  #pos = 0;
  #partial = "";
  constructor(readonly file: string, readonly kind: string) {}

  /** New complete lines since the last call. */
  read(): string[] {
    let bytes: Uint8Array;
    try {
      bytes = Deno.readFileSync(this.file);
    } catch {
      return [];
    }
    if (bytes.length <= this.#pos) return [];
    this.#partial += decoder.decode(bytes.subarray(this.#pos));
    this.#pos = bytes.length;
    const lines = this.#partial.split("\n");
    this.#partial = lines.pop() ?? "";
    return lines.filter((l) => l.trim() !== "");
  }
}

/** The event name of a hook / notify / plugin log line. */
export function sideEventName(entry: Record<string, unknown>, kind: string): string {
  if (typeof entry.event === "string") return entry.event;
  const argv = entry.argv;
  if (Array.isArray(argv) && argv.length > 0) {
    try {
      const type = JSON.parse(String(argv[argv.length - 1])).type;
      if (typeof type === "string") return type;
    } catch {
      return "notify";
    }
  }
  return kind;
}

export class SideChannels {
  #tails: LogTail[] = [];
  #timer: ReturnType<typeof setInterval>;
  #sse = new AbortController();
  #sseDone: Promise<void> = Promise.resolve();

  constructor(
    private readonly rec: Recorder,
    private readonly spec: LaunchSpec,
    private readonly log: (line: string) => void,
  ) {
    if (spec.hookLog) this.#tails.push(new LogTail(spec.hookLog, spec.hookKind ?? "hook"));
    if (spec.notifyLog) this.#tails.push(new LogTail(spec.notifyLog, "notify"));
    this.#timer = setInterval(() => this.#poll(), 100);
    if (spec.sseUrl) this.#sseDone = this.#watchSse(spec.sseUrl);
  }

  #poll(): void {
    for (const tail of this.#tails) {
      for (const line of tail.read()) {
        let entry: Record<string, unknown>;
        try {
          entry = JSON.parse(line);
        } catch {
          entry = { raw: line };
        }
        const name = sideEventName(entry, tail.kind);
        this.rec.event(tail.kind, { name, entry });
        this.log(`      ${tail.kind}: ${name}`);
      }
    }
  }

  /** opencode's event stream; a connection made while it boots may never answer: retry. */
  async #watchSse(url: string): Promise<void> {
    const signal = this.#sse.signal;
    await pause(1500, signal);
    for (let tries = 0; tries < 60 && !signal.aborted; tries++) {
      const attempt = new AbortController();
      const onAbort = () => attempt.abort();
      signal.addEventListener("abort", onAbort, { once: true });
      const noAnswer = setTimeout(() => attempt.abort(), 3000);
      try {
        const res = await fetch(url, {
          headers: { accept: "text/event-stream" },
          signal: attempt.signal,
        });
        clearTimeout(noAnswer);
        this.rec.event("sse-connected", { url, status: res.status });
        await this.#readSse(res);
      } catch {
        // refused, reset or not answered: try again
      } finally {
        clearTimeout(noAnswer);
        signal.removeEventListener("abort", onAbort);
      }
      await pause(500, signal);
    }
  }

  async #readSse(res: Response): Promise<void> {
    if (!res.body) return;
    let buf = "";
    for await (const part of res.body.pipeThrough(new TextDecoderStream())) {
      buf += part;
      let i: number;
      while ((i = buf.indexOf("\n\n")) >= 0) {
        const block = buf.slice(0, i);
        buf = buf.slice(i + 2);
        const data = block.split("\n").filter((l) => l.startsWith("data:"))
          .map((l) => l.slice(5).trim()).join("");
        let j: Record<string, unknown> | null = null;
        try {
          j = JSON.parse(data);
        } catch {
          j = null;
        }
        const payload = j?.payload as Record<string, unknown> | undefined;
        const type = (j?.type ?? payload?.type) as string | undefined;
        this.rec.jsonl("server-events.jsonl", {
          t_ms: this.rec.now(),
          byte_offset_in_raw: this.rec.rawLength,
          type,
          data: j ?? data,
        });
        if (type && !/message\.part\.(updated|delta)|lsp|file\.watcher/.test(type)) {
          this.rec.event("server-sse", { name: type, data: JSON.stringify(j).slice(0, 300) });
        }
      }
    }
  }

  /** Final read, then copies the logs into the capture folder. */
  async close(): Promise<void> {
    this.#poll();
    clearInterval(this.#timer);
    this.#sse.abort();
    await this.#sseDone;
    const copy = (from: string | undefined, to: string) => {
      if (!from) return;
      try {
        Deno.copyFileSync(from, `${this.rec.dir}/${to}`);
      } catch {
        // the CLI never wrote it
      }
    };
    copy(
      this.spec.hookLog,
      this.spec.hookKind === "plugin" ? "plugin-events.jsonl" : "hooks.jsonl",
    );
    copy(this.spec.notifyLog, "notify.jsonl");
  }
}
