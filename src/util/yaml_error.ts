/** Locating a YAML syntax error on the line a person must fix. Pure; imports nothing. */

/**
 * Where to point for a YAML syntax error. For an unclosed `[`, `{` or quote
 * the parser notices where the next line starts (or at the end), one line
 * or more after the line to fix: that line is where the bracket or quote
 * opened. Shared by config files and manifests.
 */
export function openedAt(text: string, offset: number, reason: string): number {
  const open = /end with a \]/.test(reason)
    ? "["
    : /end with a \}/.test(reason)
    ? "{"
    : /Missing closing "quote/.test(reason)
    ? '"'
    : /Missing closing 'quote/.test(reason)
    ? "'"
    : null;
  if (open === null) return offset;
  const at = text.lastIndexOf(open, Math.max(0, offset - 1));
  return at < 0 ? offset : at;
}
