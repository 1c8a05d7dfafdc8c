/**
 * Item 10c: a YAML alias bomb in config.yml was "internal error"
 * with a stack trace; a 72 MB config did not start after 20 s, a FIFO
 * blocked start-up, a symlink to /dev/zero grew to 13.6 GB. Bound: a
 * settings file is a regular file of at most 256 KiB, refused in one line
 * naming it; aliases expand within the yaml library's bound.
 */

import { type AbuseItem, secs, Serve } from "../harness.ts";

const BOMB = ["a: &a [x, x, x, x, x, x, x, x, x]"].concat(
  Array.from({ length: 8 }, (_, i) => {
    const [prev, name] = [String.fromCharCode(97 + i), String.fromCharCode(98 + i)];
    return `${name}: &${name} [${Array(9).fill(`*${prev}`).join(", ")}]`;
  }),
).join("\n");

type Case = readonly [string, string, (base: string) => void];

const config = (base: string) => `${base}/config/lazyshell/config.yml`;
const project = (base: string) => `${base}/lazyshell.yml`;
const replace = (path: string, make: (path: string) => void) => {
  try {
    Deno.removeSync(path);
  } catch { /* absent */ }
  make(path);
};
const huge = (path: string) => {
  using file = Deno.openSync(path, { create: true, write: true });
  file.truncateSync(72 * 1024 * 1024);
};
const fifo = (path: string) => {
  if (!new Deno.Command("mkfifo", { args: [path] }).outputSync().success) throw new Error("mkfifo");
};
const zero = (path: string) => Deno.symlinkSync("/dev/zero", path);

const CASES: readonly Case[] = [
  // The reference: what refusing any bad config costs (start-up, parse, one line).
  [
    "reference: config.yml with a YAML syntax error",
    "config",
    (b) => Deno.writeTextFileSync(config(b), "control: [\n"),
  ],
  ["config.yml alias bomb", "config", (b) => Deno.writeTextFileSync(config(b), BOMB)],
  ["config.yml of 72 MB", "config", (b) => replace(config(b), huge)],
  ["config.yml a FIFO", "config", (b) => replace(config(b), fifo)],
  ["config.yml → /dev/zero", "config", (b) => replace(config(b), zero)],
  ["lazyshell.yml a FIFO", "project", (b) => fifo(project(b))],
  ["lazyshell.yml → /dev/zero", "project", (b) => zero(project(b))],
];

export default {
  id: "10c",
  title: "Hostile settings files: alias bomb, 72 MB, FIFO, /dev/zero",
  server: false,
  async run() {
    const results: string[] = [];
    let ok = true;
    let slowest = 0;
    for (const [what, file, prepare] of CASES) {
      const serve = Serve.spawn({ prepare });
      const start = performance.now();
      const code = await serve.exited(20_000);
      const ms = performance.now() - start;
      const log = serve.log.filter((l) => l.trim() !== "");
      const named = log.length === 1 &&
        log[0]!.includes(file === "config" ? "config.yml" : "lazyshell.yml");
      const good = code === 2 && named && !/internal error/.test(log.join(" "));
      ok &&= good;
      slowest = Math.max(slowest, ms);
      results.push(
        `${what}: ${code === null ? "NO EXIT in 20 s" : `rc ${code} in ${secs(ms)}`}` +
          (good ? "" : ` "${log.join(" | ")}"`),
      );
      await serve[Symbol.asyncDispose]();
    }
    // The slowest refusal, start-up included: compare it with the reference case.
    return { ok, bound: results.join("; "), refusedMs: slowest };
  },
} satisfies AbuseItem;
