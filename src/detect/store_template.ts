/**
 * Where an agent keeps its conversations, as a manifest writes it
 * (docs/manifests.md, "Conversation store"): a path template, read with the
 * agent process's own environment and facts. Pure.
 *
 * - `${NAME}`: the agent's environment variable; `${NAME:-fallback}` the
 *   fallback (a template itself) when it is unset or empty;
 * - `{pid}`: the agent's process id; `{cwd}`: its working directory;
 *   `{cwd-slug}`: the same with every character but ASCII letters and digits
 *   replaced by `-` (`/src/my_app` → `-src-my-app`, Claude Code's project folders);
 * - `{yyyy}`, `{mm}`, `{dd}`: each day from the agent's start to now (Codex's
 *   dated folders);
 * - `*` in a file or folder name: any characters but `/`.
 */

export type TemplateVar = "pid" | "cwd" | "cwd-slug" | "yyyy" | "mm" | "dd";

type Token =
  | { readonly type: "text"; readonly value: string }
  | { readonly type: "env"; readonly name: string; readonly fallback: readonly Token[] | null }
  | { readonly type: "var"; readonly name: TemplateVar };

export interface StoreTemplate {
  readonly source: string;
  readonly tokens: readonly Token[];
  /** The template names a day (`{yyyy}`, `{mm}`, `{dd}`). */
  readonly dated: boolean;
}

/** One day, as the dated folders name it. */
export interface Day {
  readonly yyyy: string;
  readonly mm: string;
  readonly dd: string;
}

export interface TemplateFacts {
  readonly env: Readonly<Record<string, string | undefined>>;
  readonly pid: number;
  readonly cwd: string;
}

const VARS: readonly TemplateVar[] = ["pid", "cwd", "cwd-slug", "yyyy", "mm", "dd"];
const NAME = /^[A-Za-z_][A-Za-z0-9_]*/;

/** Parses a template; throws an Error saying what is wrong (the manifest loader names the key). */
export function parseStoreTemplate(source: string): StoreTemplate {
  const [tokens, end] = parseTokens(source, 0, false);
  if (end !== source.length) throw new Error(`Unexpected "}" at ${end + 1}`);
  const first = tokens[0];
  const absolute = first !== undefined &&
    (first.type === "env" || first.type === "var" && first.name === "cwd" ||
      first.type === "text" && first.value.startsWith("/"));
  if (!absolute) throw new Error("A store path starts with /, ${NAME} or {cwd}");
  return { source, tokens, dated: mentions(tokens, ["yyyy", "mm", "dd"]) };
}

function parseTokens(s: string, start: number, nested: boolean): [Token[], number] {
  const tokens: Token[] = [];
  let text = "";
  let i = start;
  const flush = () => {
    if (text !== "") tokens.push({ type: "text", value: text });
    text = "";
  };
  while (i < s.length) {
    const c = s[i]!;
    if (c === "}" && nested) break;
    if (c === "$" && s[i + 1] === "{") {
      const name = NAME.exec(s.slice(i + 2))?.[0];
      if (name === undefined) throw new Error(`A variable name must follow "\${" at ${i + 1}`);
      let j = i + 2 + name.length;
      let fallback: Token[] | null = null;
      if (s.startsWith(":-", j)) {
        [fallback, j] = parseTokens(s, j + 2, true);
      }
      if (s[j] !== "}") throw new Error(`"\${${name}" is not closed`);
      flush();
      tokens.push({ type: "env", name, fallback });
      i = j + 1;
    } else if (c === "{") {
      const close = s.indexOf("}", i);
      const name = close < 0 ? "" : s.slice(i + 1, close);
      if (!(VARS as readonly string[]).includes(name)) {
        throw new Error(`Unknown placeholder at ${i + 1} (known: ${VARS.map((v) => `{${v}}`)})`);
      }
      flush();
      tokens.push({ type: "var", name: name as TemplateVar });
      i = close + 1;
    } else if (c === "}") {
      throw new Error(`Unexpected "}" at ${i + 1}`);
    } else {
      text += c;
      i++;
    }
  }
  flush();
  return [tokens, i];
}

function mentions(tokens: readonly Token[], names: readonly TemplateVar[]): boolean {
  return tokens.some((t) =>
    t.type === "var"
      ? names.includes(t.name)
      : t.type === "env" && t.fallback !== null
      ? mentions(t.fallback, names)
      : false
  );
}

/** `/src/my_app` → `-src-my-app`. */
export function cwdSlug(cwd: string): string {
  return cwd.replace(/[^A-Za-z0-9]/g, "-");
}

/**
 * The path patterns a template names for these facts (one per day when it
 * is dated), `*` left in place; none when a variable without fallback is
 * unset or a value holds a `*`.
 */
export function expandStoreTemplate(
  template: StoreTemplate,
  facts: TemplateFacts,
  days: readonly Day[] = [],
): string[] {
  const out = new Set<string>();
  for (const day of template.dated ? days : [null]) {
    const path = expand(template.tokens, facts, day);
    if (path !== null && path.startsWith("/")) out.add(path);
  }
  return [...out];
}

function expand(tokens: readonly Token[], facts: TemplateFacts, day: Day | null): string | null {
  let out = "";
  for (const t of tokens) {
    if (t.type === "text") {
      out += t.value;
      continue;
    }
    let value: string | null;
    if (t.type === "env") {
      const v = facts.env[t.name];
      value = v !== undefined && v !== "" ? v : t.fallback ? expand(t.fallback, facts, day) : null;
    } else {
      value = t.name === "pid"
        ? String(facts.pid)
        : t.name === "cwd"
        ? facts.cwd
        : t.name === "cwd-slug"
        ? cwdSlug(facts.cwd)
        : day === null
        ? null
        : day[t.name];
    }
    if (value === null || value.includes("*")) return null;
    out += value;
  }
  return out;
}

/**
 * The days from `from` to `to` (ms since the epoch), in UTC and in the local
 * time zone (an agent names its folders in one of them), at most `max`.
 */
export function daysBetween(from: number, to: number, max = 8): Day[] {
  const days = new Map<string, Day>();
  const start = Math.max(from, to - (max - 1) * 86_400_000);
  for (let t = start; t <= to + 86_400_000; t += 86_400_000) {
    const at = Math.min(t, to);
    for (const d of [utcDay(at), localDay(at)]) days.set(`${d.yyyy}${d.mm}${d.dd}`, d);
  }
  return [...days.values()];
}

const pad = (n: number) => String(n).padStart(2, "0");

function utcDay(t: number): Day {
  const d = new Date(t);
  return {
    yyyy: String(d.getUTCFullYear()),
    mm: pad(d.getUTCMonth() + 1),
    dd: pad(d.getUTCDate()),
  };
}

function localDay(t: number): Day {
  const d = new Date(t);
  return { yyyy: String(d.getFullYear()), mm: pad(d.getMonth() + 1), dd: pad(d.getDate()) };
}
