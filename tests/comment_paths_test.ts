/**
 * Comments explain from what the checkout holds. Every source path a comment names exists: a
 * comment that sends the reader to a moved or deleted file explains nothing; and none cites an
 * issue number of a tracker the checkout does not contain. Reads the comments of every TypeScript file in the checkout (not
 * node_modules) and checks each `*.ts` path in them that starts at the repository's root
 * (`src/…`, `tests/…`, `tools/…`), at a folder of `src/` (`util/guard.ts`) or at the file's own
 * folder (starting with `./` or `../`). Paths into other projects (`common/buffer/BufferReflow.ts` of xterm) start
 * elsewhere and are not checked.
 */

import assert from "node:assert/strict";

const ROOT = new URL("../", import.meta.url).pathname;
const TOP = ["src", "tests", "tools", "bench", "plugins", "bin", "examples", "docs", "fixtures"];
const SRC_FOLDERS = [...Deno.readDirSync(`${ROOT}src`)].filter((e) => e.isDirectory)
  .map((e) => e.name);

const PATH = /(?<![\w./@:-])((?:\.\.?\/)*(?:[\w.-]+\/)+[\w.-]+\.ts)\b/g;
const COMMENT = /\/\/[^\n]*|\/\*[\s\S]*?\*\//g;

function tsFiles(dir: string): string[] {
  const out: string[] = [];
  for (const entry of Deno.readDirSync(`${ROOT}${dir}`)) {
    if (entry.name === "node_modules" || entry.name.startsWith(".")) continue;
    const path = `${dir}${entry.name}`;
    if (entry.isDirectory) out.push(...tsFiles(`${path}/`));
    else if (entry.name.endsWith(".ts")) out.push(path);
  }
  return out;
}

function normalize(parts: string[]): string {
  const out: string[] = [];
  for (const p of parts) {
    if (p === "..") out.pop();
    else if (p !== "." && p !== "") out.push(p);
  }
  return out.join("/");
}

/** Where `path`, named in a comment of `file`, should be; null when it is not ours to check. */
export function target(file: string, path: string): string | null {
  const first = path.split("/")[0]!;
  if (first === "." || first === "..") {
    return normalize([...file.split("/").slice(0, -1), ...path.split("/")]);
  }
  if (TOP.includes(first)) return path;
  if (SRC_FOLDERS.includes(first)) return `src/${path}`;
  return null;
}

function exists(path: string): boolean {
  try {
    Deno.statSync(`${ROOT}${path}`);
    return true;
  } catch {
    return false;
  }
}

Deno.test("which comment paths are checked, and against what", () => {
  assert.equal(target("src/a/b.ts", "./c.ts"), "src/a/c.ts");
  assert.equal(target("src/a/b.ts", "../util/guard.ts"), "src/util/guard.ts");
  assert.equal(target("src/a/b.ts", "util/guard.ts"), "src/util/guard.ts");
  assert.equal(target("src/a/b.ts", "tools/dist/pack.ts"), "tools/dist/pack.ts");
  assert.equal(target("src/a/b.ts", "common/buffer/BufferReflow.ts"), null);
});

Deno.test("every source path named in a comment exists", () => {
  const files = ["main.ts", ...TOP.filter((d) => exists(d)).flatMap((d) => tsFiles(`${d}/`))];
  const missing: string[] = [];
  for (const file of files) {
    const text = Deno.readTextFileSync(`${ROOT}${file}`);
    for (const comment of text.match(COMMENT) ?? []) {
      for (const [, path] of comment.matchAll(PATH)) {
        const where = target(file, path!);
        if (where !== null && !exists(where)) missing.push(`${file}: ${path}`);
      }
    }
  }
  assert.deepEqual(missing, []);
});

Deno.test("no comment or doc cites an issue number: the tracker is not in the checkout", () => {
  const cites = /\bissues? *#?\d+/i;
  const found: string[] = [];
  const files = ["main.ts", ...TOP.filter((d) => exists(d)).flatMap((d) => tsFiles(`${d}/`))];
  for (const file of files) {
    const text = Deno.readTextFileSync(`${ROOT}${file}`);
    for (const comment of text.match(COMMENT) ?? []) {
      if (cites.test(comment)) found.push(`${file}: ${cites.exec(comment)![0]}`);
    }
  }
  const docs = ["README.md", ...[...Deno.readDirSync(`${ROOT}docs`)].map((e) => `docs/${e.name}`)]
    .filter((f) => f.endsWith(".md"));
  for (const file of docs) {
    const match = cites.exec(Deno.readTextFileSync(`${ROOT}${file}`));
    if (match) found.push(`${file}: ${match[0]}`);
  }
  assert.deepEqual(found, []);
});
