/** The TUI's first message when the set-up has problems (src/server/problems.ts). Pure. */

/** "3 problems: <the first>; see lazyshell doctor", or null when there are none. */
export function problemsMessage(problems: readonly string[]): string | null {
  const first = problems[0];
  if (first === undefined) return null;
  const n = problems.length;
  return `${n} problem${n === 1 ? "" : "s"}: ${first}; see lazyshell doctor`;
}
