/**
 * The tiny plugin side of protocol v1 that the built-in tabs share: read
 * host lines from stdin, hand each message to the plugin, write frames to
 * stdout (skipping a frame identical to the last one), exit on stdin EOF.
 * Built-in tabs use nothing a third-party plugin could not (docs/plugin-protocol.md §11),
 * and load no npm package (_wire.ts).
 */

import { LineSplitter } from "../src/util/lines.ts";
import type { BuiltinManifest } from "../src/plugin/builtins.ts";
import {
  encodeMessage,
  type HostMessage,
  MAX_LINE_BYTES,
  type PluginMessage,
  readHostLine,
} from "./_wire.ts";

export type Outgoing = PluginMessage;

export interface FrameData {
  readonly view: string;
  readonly count?: number | null;
  readonly capturing?: boolean;
}

/** A built-in tab: pure enough to test by feeding it messages. */
export interface TabPlugin {
  readonly manifest: BuiltinManifest;
  /** Handles one host message; may call `send` for exec or requests. */
  handle(message: HostMessage, send: (message: Outgoing) => void): void;
  frame(): FrameData;
  /** Called every second while it returns true (live durations). */
  ticking?(): boolean;
  /** Called once after the manifest: `redraw` sends a frame when async work has changed it. */
  attach?(redraw: () => void): void;
  /** Called at stdin EOF: stop timers and work in flight. */
  stop?(): void;
}

/** Runs `plugin` over stdin/stdout until stdin ends. */
export async function serveStdio(
  plugin: TabPlugin,
  input: ReadableStream<Uint8Array> = Deno.stdin.readable,
  write: (bytes: Uint8Array) => void = (b) => writeAll(b),
): Promise<number> {
  const encoder = new TextEncoder();
  const send = (message: Outgoing) => write(encoder.encode(encodeMessage(message) + "\n"));
  let last = "";
  let started = false;
  let timer: ReturnType<typeof setInterval> | undefined;
  const render = () => {
    if (!started) return;
    const frame = plugin.frame();
    const line = encodeMessage({ type: "frame", ...frame });
    if (line !== last) {
      last = line;
      write(encoder.encode(line + "\n"));
    }
    const tick = plugin.ticking?.() ?? false;
    if (tick && timer === undefined) timer = setInterval(render, 1000);
    if (!tick && timer !== undefined) {
      clearInterval(timer);
      timer = undefined;
    }
  };
  const splitter = new LineSplitter(MAX_LINE_BYTES);
  const reader = input.getReader();
  try {
    while (true) {
      const { value, done } = await reader.read();
      const items = done ? splitter.end() : splitter.push(value);
      for (const item of items) {
        if (item.type !== "line" || item.text.trim() === "") continue;
        const message = readHostLine(item.text);
        if (message === null) continue;
        plugin.handle(message, send);
        if (message.type === "init") {
          send(plugin.manifest);
          started = true;
          plugin.attach?.(render);
        }
        render();
      }
      if (done) break;
    }
  } finally {
    clearInterval(timer);
    plugin.stop?.();
    reader.releaseLock();
  }
  return 0;
}

function writeAll(bytes: Uint8Array): void {
  let at = 0;
  while (at < bytes.length) at += Deno.stdout.writeSync(bytes.subarray(at));
}

// ---------------------------------------------------------------- drawing helpers

const E = "\x1b";
export const style = {
  bold: (s: string) => `${E}[1m${s}${E}[0m`,
  dim: (s: string) => `${E}[2m${s}${E}[0m`,
  inverse: (s: string) => `${E}[7m${s}${E}[0m`,
  green: (s: string) => `${E}[32m${s}${E}[0m`,
  red: (s: string) => `${E}[31m${s}${E}[0m`,
  yellow: (s: string) => `${E}[33m${s}${E}[0m`,
};

/** Pads or cuts plain text to `width` columns. */
/** `text` in a column of `width`: padded, or cut with `…` and still one space from the next. */
export function cell(text: string, width: number): string {
  const chars = [...text];
  if (chars.length >= width) return chars.slice(0, Math.max(0, width - 2)).join("") + "… ";
  return text + " ".repeat(width - chars.length);
}

/** Moves a selection index by a navigation key; null when the key is not one. */
export function navigate(key: string, index: number, length: number): number | null {
  if (length === 0) return null;
  switch (key) {
    case "j":
    case "down":
      return Math.min(length - 1, index + 1);
    case "k":
    case "up":
      return Math.max(0, index - 1);
    case "g":
    case "home":
      return 0;
    case "G":
    case "end":
      return length - 1;
    default:
      return null;
  }
}
