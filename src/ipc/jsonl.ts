/**
 * JSON Lines framing for the hook and control sockets (docs/hooks.md, docs/control-api.md): one
 * UTF-8 JSON value per `\n`-terminated line, with a byte limit per line so
 * a bad peer cannot make us buffer without bound.
 *
 * Runtime-neutral (streams and bytes only). Imports nothing but the line
 * splitter (src/util/lines.ts), so the hook client can use it without
 * loading zod.
 */

/** Hook messages carry metadata only (H1). */
export const HOOK_LINE_LIMIT = 64 * 1024;
/** Control requests may carry text to type; replies may carry a screen. */
export const CONTROL_LINE_LIMIT = 1024 * 1024;

export { type ByteSource, type LineItem, readLines } from "../util/lines.ts";

const encoder = new TextEncoder();

/** One value as a framed line (JSON + `\n`). */
export function encodeLine(value: unknown): Uint8Array {
  return encoder.encode(`${JSON.stringify(value)}\n`);
}

/** Writes every byte (a socket may accept fewer per call). */
export async function writeAll(
  sink: { write(p: Uint8Array): Promise<number> },
  bytes: Uint8Array,
): Promise<void> {
  let offset = 0;
  while (offset < bytes.length) offset += await sink.write(bytes.subarray(offset));
}
