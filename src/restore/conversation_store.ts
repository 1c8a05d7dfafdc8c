/**
 * Reads an agent's own conversation store (docs/restore.md, "Where the
 * conversation id comes from"), as its manifest describes it
 * (`resume.store`, docs/manifests.md): the conversations of one working
 * directory written since a moment (the agent process's start), and the
 * conversation the agent's per-process file names.
 *
 * Every bad thing — a missing folder, a file that is not JSON, a locked or
 * foreign database — is "no conversation there", never an error: the store
 * is someone else's and only evidence.
 */

import type { ConversationStoreSpec } from "../detect/manifest.ts";
import {
  daysBetween,
  expandStoreTemplate,
  type StoreTemplate,
  type TemplateFacts,
} from "../detect/store_template.ts";
import { isConversationId } from "../ipc/conversation.ts";

/** One conversation the store holds. */
export interface StoredConversation {
  readonly id: string;
  /** The agent's working directory for it. */
  readonly cwd: string;
  /** When it was created (ms since the epoch), or null when the store does not say. */
  readonly createdAt: number | null;
  /** When it was last written (ms since the epoch). */
  readonly modifiedAt: number;
  /** Its transcript file, or null (a database row). */
  readonly transcript: string | null;
  /** Where it was read: `claude transcript ~/.claude/projects/…/….jsonl`. */
  readonly where: string;
}

export interface StoreFacts extends TemplateFacts {
  /** The agent's name, for the `where` of what is found. */
  readonly agent: string;
  /** Now (ms since the epoch): the last day a dated store is read for. */
  readonly now: number;
}

/** How much of a file is read for its first records. */
const HEAD_BYTES = 64 * 1024;
/** Files of one folder looked at, at most (a store of years of conversations). */
const MAX_ENTRIES = 20_000;

/**
 * The store's conversations in `facts.cwd` written at or after `since`
 * (ms since the epoch), newest first.
 */
export async function conversationsSince(
  spec: ConversationStoreSpec,
  facts: StoreFacts,
  since: number,
): Promise<StoredConversation[]> {
  const found = spec.files
    ? await filesSince(spec, spec.files, facts, since)
    : spec.sqlite && spec.query
    ? await rowsSince(spec.sqlite, spec.query, facts, since)
    : [];
  return found.filter((c) => c.cwd === facts.cwd).sort((a, b) => b.modifiedAt - a.modifiedAt);
}

/**
 * The conversation the agent's per-process file names (`process.file` with
 * its pid, its start time checked when the file holds one), once it has a
 * transcript; null otherwise.
 */
export async function conversationOfProcess(
  spec: ConversationStoreSpec,
  facts: StoreFacts,
  startTicks: number,
): Promise<StoredConversation | null> {
  const p = spec.process;
  if (p === null || spec.files === null) return null;
  for (const file of expandStoreTemplate(p.file, facts)) {
    const record = await readJson(file);
    if (record === null) continue;
    if (p.start !== null && Number(valueAt(record, p.start)) !== startTicks) continue;
    const id = valueAt(record, p.id);
    if (typeof id !== "string" || !isConversationId(id)) continue;
    // Its transcript: a file of the store whose name holds the id.
    const transcript = (await filesSince(spec, spec.files, facts, -Infinity, id))
      .find((c) => c.id === id);
    if (transcript) {
      return { ...transcript, where: `${facts.agent} process file ${home(file, facts)}` };
    }
  }
  return null;
}

/**
 * The store's files written since `since`; with `named`, only those whose
 * name holds it (the file named by the id alone, `*` → the id, is tried first).
 * Asynchronous reads: a folder of a thousand transcripts never holds the
 * server's event loop (bench/conversation_store.ts).
 */
async function filesSince(
  spec: ConversationStoreSpec,
  template: StoreTemplate,
  facts: StoreFacts,
  since: number,
  named?: string,
): Promise<StoredConversation[]> {
  const days = template.dated ? daysBetween(since, facts.now) : [];
  const out: StoredConversation[] = [];
  for (const pattern of expandStoreTemplate(template, facts, days)) {
    const exact = named === undefined ? null : pattern.replaceAll("*", named);
    const files = exact !== null && await isFile(exact) ? [exact] : await glob(pattern);
    for (const file of files) {
      if (named !== undefined && !file.slice(file.lastIndexOf("/") + 1).includes(named)) {
        continue;
      }
      let info: Deno.FileInfo;
      try {
        info = await Deno.stat(file);
      } catch {
        continue;
      }
      const modifiedAt = info.mtime?.getTime() ?? 0;
      if (!info.isFile || modifiedAt < since) continue;
      const head = await readRecords(file);
      const id = firstValue(head, spec.id);
      if (typeof id !== "string" || !isConversationId(id)) continue;
      const cwd = firstValue(head, spec.cwd);
      const created = spec.created === null ? undefined : firstValue(head, spec.created);
      out.push({
        id,
        // No record named it yet: a folder per working directory does.
        cwd: typeof cwd === "string" ? cwd : scopedToCwd(template) ? facts.cwd : "",
        createdAt: timeOf(created) ?? info.birthtime?.getTime() ?? null,
        modifiedAt,
        transcript: file,
        where: `${facts.agent} transcript ${home(file, facts)}`,
      });
    }
  }
  return out;
}

/** node:sqlite, loaded the first time a database store is read. */
let sqlite: Promise<typeof import("node:sqlite")> | null = null;

async function rowsSince(
  template: StoreTemplate,
  query: string,
  facts: StoreFacts,
  since: number,
): Promise<StoredConversation[]> {
  const out: StoredConversation[] = [];
  for (const file of expandStoreTemplate(template, facts)) {
    if (!await isFile(file)) continue;
    try {
      const { DatabaseSync } = await (sqlite ??= import("node:sqlite"));
      const db = new DatabaseSync(file, { readOnly: true });
      try {
        db.exec("PRAGMA busy_timeout = 200");
        const rows = db.prepare(
          `SELECT id, cwd, created, modified FROM (${query}) WHERE cwd = ? AND modified >= ?`,
        ).all(facts.cwd, since);
        for (const row of rows) {
          const id = row.id;
          if (typeof id !== "string" || !isConversationId(id)) continue;
          out.push({
            id,
            cwd: String(row.cwd),
            createdAt: timeOf(row.created),
            modifiedAt: timeOf(row.modified) ?? 0,
            transcript: null,
            where: `${facts.agent} database ${home(file, facts)}`,
          });
        }
      } finally {
        db.close();
      }
    } catch { /* locked, not a database, another schema: nothing read */ }
  }
  return out;
}

function scopedToCwd(template: StoreTemplate): boolean {
  return /\{cwd(-slug)?\}/.test(template.source);
}

async function isFile(path: string): Promise<boolean> {
  try {
    return (await Deno.stat(path)).isFile;
  } catch {
    return false;
  }
}

/** The files a pattern with `*` in its names matches. */
async function glob(pattern: string): Promise<string[]> {
  const parts = pattern.split("/").slice(1);
  let paths = [""];
  for (const part of parts) {
    if (part === "") continue;
    if (!part.includes("*")) {
      paths = paths.map((p) => `${p}/${part}`);
      continue;
    }
    const re = new RegExp(`^${part.split("*").map(escape).join("[^/]*")}$`);
    const next: string[] = [];
    for (const dir of paths) {
      let n = 0;
      try {
        for await (const entry of Deno.readDir(dir === "" ? "/" : dir)) {
          if (++n > MAX_ENTRIES) break;
          if (re.test(entry.name)) next.push(`${dir}/${entry.name}`);
        }
      } catch { /* no such folder */ }
    }
    paths = next;
  }
  return paths;
}

function escape(s: string): string {
  return s.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
}

/** The first records of a file: a `.jsonl`'s whole lines in its first 64 KiB; else the document. */
async function readRecords(file: string): Promise<unknown[]> {
  if (!file.endsWith(".jsonl")) {
    const doc = await readJson(file);
    return doc === null ? [] : [doc];
  }
  let text: string;
  try {
    using f = await Deno.open(file);
    const buf = new Uint8Array(HEAD_BYTES);
    let n = 0;
    while (n < buf.length) {
      const got = await f.read(buf.subarray(n));
      if (got === null || got === 0) break;
      n += got;
    }
    text = new TextDecoder().decode(buf.subarray(0, n));
  } catch {
    return [];
  }
  const lines = text.split("\n");
  if (text.length >= HEAD_BYTES) lines.pop(); // cut short
  const out: unknown[] = [];
  for (const line of lines) {
    try {
      out.push(JSON.parse(line));
    } catch { /* a torn line: skipped */ }
  }
  return out;
}

async function readJson(file: string): Promise<unknown> {
  try {
    const info = await Deno.stat(file);
    if (!info.isFile || info.size > 1024 * 1024) return null;
    return JSON.parse(await Deno.readTextFile(file));
  } catch {
    return null;
  }
}

function firstValue(records: readonly unknown[], path: string): unknown {
  for (const r of records) {
    const v = valueAt(r, path);
    if (v !== undefined && v !== null) return v;
  }
  return undefined;
}

function valueAt(record: unknown, path: string): unknown {
  let v: unknown = record;
  for (const key of path.split(".")) {
    if (v === null || typeof v !== "object" || Array.isArray(v)) return undefined;
    v = (v as Record<string, unknown>)[key];
  }
  return v;
}

/** ms since the epoch from an ISO time or a number (s or ms); null otherwise. */
function timeOf(v: unknown): number | null {
  if (typeof v === "number" && Number.isFinite(v)) return v < 1e11 ? v * 1000 : v;
  if (typeof v === "bigint") return timeOf(Number(v));
  if (typeof v === "string") {
    const t = Date.parse(v);
    return Number.isNaN(t) ? null : t;
  }
  return null;
}

/** `~/…` for a path in the agent's home: what a `source` shows. */
function home(path: string, facts: StoreFacts): string {
  const h = facts.env.HOME;
  return h && h !== "/" && path.startsWith(`${h}/`) ? `~${path.slice(h.length)}` : path;
}
