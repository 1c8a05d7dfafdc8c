/**
 * Built-in tab "changes" (docs/changes.md): what the selected session's
 * worktree (or folder) changed since its branch point — the changed files
 * and a coloured, scrollable diff — with keys to open a file in $EDITOR
 * (an interactive `exec`), copy the branch name (a `copy` request: OSC 52
 * through the host) and remove the worktree. Data: the `sessions`
 * subscription (the selected session and its cwd) and `visible`; git runs
 * here, in the plugin's own process (src/git/). It reads git again when the
 * tab is shown, the selection changes, on `r`, and every POLL_MS while shown.
 */

import type { HostMessage, SessionEntry } from "../_wire.ts";
import { BUILTIN_MANIFESTS } from "../../src/plugin/builtins.ts";
import { type Changes, readChanges } from "../../src/git/changes.ts";
import { parseUnifiedDiff } from "../../src/git/parse.ts";
import {
  decideRemoval,
  describeRemoval,
  insideWorktree,
  removeWorktree,
} from "../../src/git/worktree_remove.ts";
import type { FrameData, Outgoing, TabPlugin } from "../_sdk.ts";
import { navigate } from "../_sdk.ts";
import { diffRows, renderView, type ViewState } from "./render.ts";

/** How often git is read again while the tab is shown (an agent edits meanwhile). */
export const POLL_MS = 3000;

/** Opens `$1` in the user's editor: $VISUAL, else $EDITOR, else vi (may hold arguments). */
const EDIT = 'exec ${VISUAL:-${EDITOR:-vi}} "$1"';

type Target = Pick<SessionEntry, "id" | "name" | "cwd">;

export class ChangesTab implements TabPlugin {
  readonly manifest = BUILTIN_MANIFESTS.changes;
  width = 80;
  height = 24;
  target: Target | null = null;
  sessions: readonly SessionEntry[] = [];
  visible = false;
  changes: Changes | null = null;
  error: string | null = null;
  loading = false;
  fileIndex = 0;
  scroll = 0;
  note: ViewState["note"] = null;
  /** A removal waiting for `y` (forced when git's rules refused it). */
  confirm: { force: boolean } | null = null;
  #redraw: () => void = () => {};
  #timer: ReturnType<typeof setInterval> | undefined;
  #again = false;
  #send: (message: Outgoing) => void = () => {};

  attach(redraw: () => void): void {
    this.#redraw = redraw;
    this.#timer = setInterval(() => {
      if (this.visible) this.refresh();
    }, POLL_MS);
  }

  stop(): void {
    clearInterval(this.#timer);
  }

  handle(message: HostMessage, send: (message: Outgoing) => void): void {
    this.#send = send;
    switch (message.type) {
      case "init":
      case "resize":
        this.width = message.width;
        this.height = message.height;
        break;
      case "sessions":
        this.sessions = message.sessions;
        this.#select(message.sessions.find((s) => s.selected) ?? null);
        break;
      case "visible":
        this.visible = message.visible;
        if (this.visible) this.refresh();
        break;
      case "key":
        this.#key(message.key);
        break;
      case "mouse":
        if (message.mouse.kind === "wheel") this.#scrollBy(message.mouse.button === "up" ? -3 : 3);
        break;
      case "command":
        if (message.name === "refresh") this.refresh();
        if (message.name === "remove-worktree") this.#askRemove();
        break;
      case "result":
        if (message.requestId === "copy") {
          this.note = message.ok
            ? { text: `Copied ${this.changes?.branch ?? ""}`, tone: "info" }
            : { text: message.error ?? "Cannot copy", tone: "error" };
        }
        break;
      case "exec_result":
        if (message.error !== null) this.note = { text: message.error, tone: "error" };
        this.refresh();
        break;
      default:
        break;
    }
  }

  frame(): FrameData {
    return {
      view: renderView({
        width: this.width,
        height: this.height,
        session: this.target ? `${this.target.id} (${this.target.name})` : null,
        changes: this.changes,
        error: this.error,
        loading: this.loading,
        fileIndex: this.fileIndex,
        scroll: this.scroll,
        note: this.note,
      }),
      count: this.changes && this.changes.files.length > 0 ? this.changes.files.length : null,
    };
  }

  /** Reads git for the target now (or right after the read in flight). */
  refresh(): void {
    const target = this.target;
    if (target === null) return;
    if (this.loading) {
      this.#again = true;
      return;
    }
    this.loading = true;
    readChanges(target.cwd).then(
      (changes) => {
        if (this.target !== target) return;
        this.changes = changes;
        this.error = null;
        this.fileIndex = Math.min(this.fileIndex, Math.max(0, changes.files.length - 1));
        this.scroll = Math.min(this.scroll, this.#lastScroll());
      },
      (error) => {
        if (this.target !== target) return;
        this.changes = null;
        this.error = (error as Error).message;
      },
    ).finally(() => {
      this.loading = false;
      if (this.#again) {
        this.#again = false;
        this.refresh();
      }
      this.#redraw();
    });
  }

  #select(entry: SessionEntry | null): void {
    const same = entry?.id === this.target?.id && entry?.cwd === this.target?.cwd;
    if (same) return;
    this.target = entry && { id: entry.id, name: entry.name, cwd: entry.cwd };
    this.changes = null;
    this.error = null;
    this.fileIndex = 0;
    this.scroll = 0;
    this.note = null;
    this.confirm = null;
    if (this.visible) this.refresh();
  }

  #key(key: string): void {
    if (this.confirm !== null) {
      const { force } = this.confirm;
      this.confirm = null;
      this.note = null;
      if (key === "y") this.#remove(force);
      return;
    }
    this.note = null;
    const files = this.changes?.files ?? [];
    const next = navigate(key, this.fileIndex, files.length);
    if (next !== null) {
      this.fileIndex = next;
      this.scroll = this.#fileLine(next); // its header on top, even past the last full page
      return;
    }
    const page = diffRows({ changes: this.changes, height: this.height });
    switch (key) {
      case "J":
        return this.#scrollBy(1);
      case "K":
        return this.#scrollBy(-1);
      case "space":
      case "pgdown":
      case "ctrl+d":
        return this.#scrollBy(page);
      case "b":
      case "pgup":
      case "ctrl+u":
        return this.#scrollBy(-page);
      case "e":
      case "enter":
        return this.#edit();
      case "y":
        return this.#copy();
      case "D":
        return this.#askRemove();
      case "r":
        return this.refresh();
    }
  }

  #diffLines(): number {
    return this.changes ? this.changes.diff.split("\n").length : 0;
  }

  #lastScroll(): number {
    return Math.max(
      0,
      this.#diffLines() - diffRows({ changes: this.changes, height: this.height }),
    );
  }

  #scrollBy(rows: number): void {
    const last = Math.max(this.#lastScroll(), rows > 0 ? this.scroll : 0);
    this.scroll = Math.max(0, Math.min(this.scroll + rows, last));
  }

  /** The first diff line of file `index` (its `diff --git` header). */
  #fileLine(index: number): number {
    const file = this.changes?.files[index];
    if (!file || !this.changes) return 0;
    return parseUnifiedDiff(this.changes.diff).find((f) => f.path === file.path)?.line ?? 0;
  }

  #edit(): void {
    const file = this.changes?.files[this.fileIndex];
    if (!this.changes || !file) return;
    if (file.status === "deleted") {
      this.note = { text: `${file.path} was deleted: nothing to open`, tone: "error" };
      return;
    }
    this.#send({
      type: "exec",
      execId: "edit",
      argv: ["sh", "-c", EDIT, "lazyshell-edit", `${this.changes.root}/${file.path}`],
      dir: this.changes.root,
      interactive: true,
    });
  }

  #copy(): void {
    const branch = this.changes?.branch;
    if (!branch) {
      this.note = { text: "No branch to copy (detached HEAD or not read yet)", tone: "error" };
      return;
    }
    this.#send({ type: "copy", text: branch, requestId: "copy" });
  }

  #askRemove(): void {
    const changes = this.changes;
    if (!changes) return;
    const root = changes.root;
    const decision = decideRemoval(changes);
    if (!decision.ok && !decision.forceable) {
      this.note = { text: decision.reason, tone: "error" };
      return;
    }
    const running = this.sessions.find((s) =>
      s.status === "running" && insideWorktree(s.cwd, root)
    );
    if (running) {
      this.note = {
        text: `${running.id} (${running.name}) still runs in ${root}: end it first`,
        tone: "error",
      };
      return;
    }
    if (decision.ok) {
      const branch = decision.deleteBranch ? ` and delete branch ${decision.deleteBranch}` : "";
      this.note = { text: `Remove ${root}${branch}? y: yes, any other key: no`, tone: "ask" };
      this.confirm = { force: false };
    } else {
      this.note = {
        text: `${decision.reason}. y: remove anyway and lose them, any other key: no`,
        tone: "ask",
      };
      this.confirm = { force: true };
    }
  }

  #remove(force: boolean): void {
    const target = this.target;
    if (!target) return;
    this.loading = true;
    removeWorktree(target.cwd, { force }).then(
      (
        report,
      ) => (this.note = { text: describeRemoval(report).replaceAll("\n", "; "), tone: "info" }),
      (error) => (this.note = { text: (error as Error).message, tone: "error" }),
    ).finally(() => {
      this.loading = false;
      this.refresh();
      this.#redraw();
    });
  }
}
