/**
 * A session's environment for the env tab (docs/plugin-protocol.md, built-in tabs): the environment of
 * its process as the OS reports it (src/platform/process_files.ts). Elsewhere
 * it is unknown (null) until a machine can test macOS (KERN_PROCARGS2) and
 * Windows (PEB) readers.
 */

import { processEnvironText } from "../platform/process_files.ts";

export function parseEnviron(text: string): Record<string, string> {
  const out: Record<string, string> = {};
  for (const entry of text.split("\0")) {
    const eq = entry.indexOf("=");
    if (eq > 0) out[entry.slice(0, eq)] = entry.slice(eq + 1);
  }
  return out;
}

export function processEnvironment(pid: number): Record<string, string> | null {
  if (Deno.build.os !== "linux") return null;
  const text = processEnvironText(pid);
  return text === null ? null : parseEnviron(text);
}
