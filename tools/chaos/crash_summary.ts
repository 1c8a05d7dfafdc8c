/**
 * crash.log (src/util/crash_log.ts) read back: its entries, and the same
 * failure counted once by what threw and where (the stack's top frame in
 * this repository), whoever owned it. Pure.
 */

/** One entry: `<ISO time> [<owner>] <where> failed: <action>` then the stack. */
export interface CrashEntry {
  readonly at: string;
  readonly owner: string;
  readonly where: string;
  readonly action: string;
  /** `(and N more times since …)`: the times it happened meanwhile, not written apart. */
  readonly repeats: number;
  /** The error's first line (`RangeError: offset is out of bounds`). */
  readonly error: string;
  /**
   * The first `at` frame in the repository (else the first), its path made
   * relative (`Frame.copyRowsFrom (src/model/cells.ts:79:17)`).
   */
  readonly top: string;
  readonly stack: string;
}

const HEAD = /^(\d{4}-\d\d-\d\dT[\d:.]+Z) \[([^\]]*)\] (.*) failed: (.*)$/;
const REPEATS = / \(and (\d+) more times? since [^)]*\)$/;

/** The entries of a crash.log's text (unparseable lines before the first entry are dropped). */
export function parseCrashLog(text: string, root = ""): CrashEntry[] {
  const entries: CrashEntry[] = [];
  let head: RegExpExecArray | null = null;
  let body: string[] = [];
  const flush = () => {
    if (!head) return;
    const [, at, owner, where, tail] = head as unknown as string[];
    const repeats = Number(REPEATS.exec(tail!)?.[1] ?? 0);
    const action = tail!.replace(REPEATS, "");
    // The first frame of ours: a builtin's (`Uint8Array.set (<anonymous>)`) says little.
    const frames = body.filter((l) => /^\s+at /.test(l)).map((l) => l.trim().slice(3));
    const ours = root ? frames.find((f) => f.includes(root)) : undefined;
    const frame = ours ?? frames[0] ?? "(no stack)";
    entries.push({
      at: at!,
      owner: owner!,
      where: where!,
      action,
      repeats,
      error: body[0]?.trim() ?? "",
      top: root ? frame.replaceAll(`file://${root}`, "").replaceAll(root, "") : frame,
      stack: body.join("\n"),
    });
  };
  for (const line of text.split("\n")) {
    const m = HEAD.exec(line);
    if (m) {
      flush();
      head = m;
      body = [];
    } else if (head && line !== "") body.push(line);
  }
  flush();
  return entries;
}

/** Entries with the same error (numbers blurred) and the same top frame. */
export interface CrashGroup {
  readonly error: string;
  readonly top: string;
  /** Failures, repeats included. */
  readonly count: number;
  /** Owners (`client-N`, `session-N`, …), their numbers blurred, and actions seen. */
  readonly owners: readonly string[];
  readonly actions: readonly string[];
  readonly first: CrashEntry;
}

/** The groups, most failures first. */
export function groupCrashes(entries: readonly CrashEntry[]): CrashGroup[] {
  const groups = new Map<string, { entries: CrashEntry[]; count: number }>();
  for (const e of entries) {
    const key = `${blur(e.error)}\n${e.top.replace(/:\d+:\d+\)?$/, "")}`;
    const g = groups.get(key) ?? { entries: [], count: 0 };
    g.entries.push(e);
    g.count += 1 + e.repeats;
    groups.set(key, g);
  }
  return [...groups.values()]
    .map(({ entries, count }) => ({
      error: entries[0]!.error,
      top: entries[0]!.top,
      count,
      owners: [...new Set(entries.map((e) => blur(e.owner)))],
      actions: [...new Set(entries.map((e) => e.action))],
      first: entries[0]!,
    }))
    .sort((a, b) => b.count - a.count);
}

function blur(text: string): string {
  return text.replace(/\d+/g, "N");
}
