/**
 * Which project files the user trusts (README "Project file"): a `lazyshell.yml` found
 * in the current directory runs its commands at start, so — as direnv does
 * with `.envrc` — each file is trusted by its absolute path and the SHA-256
 * of its content, and a changed file must be trusted again. The answers
 * (allow or deny) live in `<state dir>/trust.json` (0600 in a 0700
 * directory), rewritten atomically (a temp file renamed over it).
 */

import { createHash } from "node:crypto";
import { messageOf, UserError } from "../errors.ts";
import { type Env, stateDir } from "./paths.ts";

export type TrustAnswer = "allow" | "deny";

interface Entry {
  readonly sha256: string;
  readonly answer: TrustAnswer;
  /** When it was answered (epoch ms). */
  readonly at: number;
}

interface TrustFile {
  readonly version: 1;
  readonly files: Record<string, Entry>;
}

export function sha256(text: string): string {
  return createHash("sha256").update(text).digest("hex");
}

export class TrustStore {
  readonly path: string;

  constructor(env: Env) {
    this.path = `${stateDir(env)}/trust.json`;
  }

  /** The answer recorded for this file with exactly this content, or null (new or changed). */
  answer(file: string, text: string): TrustAnswer | null {
    const entry = this.#read().files[file];
    return entry && entry.sha256 === sha256(text) ? entry.answer : null;
  }

  remember(file: string, text: string, answer: TrustAnswer, now = Date.now()): void {
    const data = this.#read();
    const files = { ...data.files, [file]: { sha256: sha256(text), answer, at: now } };
    const dir = this.path.slice(0, this.path.lastIndexOf("/"));
    const temp = `${this.path}.${Deno.pid}.tmp`;
    try {
      Deno.mkdirSync(dir, { recursive: true, mode: 0o700 });
      Deno.writeTextFileSync(temp, `${JSON.stringify({ version: 1, files }, null, 2)}\n`, {
        mode: 0o600,
      });
      Deno.renameSync(temp, this.path);
    } catch (error) {
      throw new UserError(`Cannot record the answer in ${this.path}: ${messageOf(error)}`);
    }
  }

  /** An unreadable or damaged file trusts nothing (every project file is asked about again). */
  #read(): TrustFile {
    try {
      const data = JSON.parse(Deno.readTextFileSync(this.path)) as Partial<TrustFile>;
      if (data?.version === 1 && typeof data.files === "object" && data.files !== null) {
        return data as TrustFile;
      }
    } catch { /* missing or damaged */ }
    return { version: 1, files: {} };
  }
}
