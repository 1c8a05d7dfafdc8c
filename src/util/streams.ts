/** Reading a child's output without ever holding more than a bound. */

export interface TextRead {
  /** What was kept once reading stops. */
  readonly text: Promise<string>;
  /** Stops reading (the child's pipe is released). */
  cancel(): void;
}

/**
 * Reads `stream` as UTF-8, keeping at most `max` characters. By default it
 * drains the stream to its end (so the writer never blocks on a full pipe);
 * with `firstLine` it stops at the first newline and returns that line.
 */
export function readText(
  stream: ReadableStream<Uint8Array>,
  options: { readonly max: number; readonly firstLine?: boolean },
): TextRead {
  const reader = stream.getReader();
  const cancel = () => void reader.cancel().catch(() => {});
  const decoder = new TextDecoder();
  const text = (async () => {
    let out = "";
    try {
      for (;;) {
        const { value, done } = await reader.read();
        if (done) break;
        if (out.length < options.max) out += decoder.decode(value, { stream: true });
        if (options.firstLine && (out.includes("\n") || out.length >= options.max)) break;
      }
    } catch { /* cancelled */ }
    if (options.firstLine) {
      cancel();
      return out.split("\n")[0] ?? "";
    }
    return out.slice(0, options.max);
  })();
  return { text, cancel };
}
