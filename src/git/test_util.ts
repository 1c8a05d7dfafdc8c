/** Real git repositories in temp folders for the tests of src/git/, the verbs and the Changes tab. */

const IDENTITY = {
  GIT_AUTHOR_NAME: "Test",
  GIT_AUTHOR_EMAIL: "test@example.invalid",
  GIT_COMMITTER_NAME: "Test",
  GIT_COMMITTER_EMAIL: "test@example.invalid",
};

/** Runs git in `dir` (test set-up: any failure throws with git's stderr). */
export function sh(dir: string, ...args: string[]): string {
  const out = new Deno.Command("git", { args: ["-C", dir, ...args], env: IDENTITY }).outputSync();
  const text = new TextDecoder().decode(out.stdout);
  if (!out.success) {
    throw new Error(`git ${args.join(" ")}: ${new TextDecoder().decode(out.stderr)}`);
  }
  return text;
}

export interface TestRepo extends Disposable {
  /** The temp folder holding the main checkout (`main/`) and the worktrees. */
  readonly base: string;
  /** The main checkout, on branch main with one commit (a.txt). */
  readonly main: string;
  /** `git worktree add -b branch base/name main`: the new worktree's folder. */
  worktree(name: string, branch?: string): string;
  write(path: string, text: string): void;
  commit(dir: string, message: string): void;
}

export function testRepo(): TestRepo {
  const base = Deno.realPathSync(Deno.makeTempDirSync({ prefix: "lzs-git-" }));
  const main = `${base}/main`;
  Deno.mkdirSync(main);
  sh(main, "init", "-q", "-b", "main");
  Deno.writeTextFileSync(`${main}/a.txt`, "one\ntwo\nthree\n");
  sh(main, "add", "a.txt");
  sh(main, "commit", "-qm", "first");
  return {
    base,
    main,
    worktree(name, branch = name) {
      sh(main, "worktree", "add", "-q", "-b", branch, `${base}/${name}`, "main");
      return `${base}/${name}`;
    },
    write(path, text) {
      Deno.writeTextFileSync(path, text);
    },
    commit(dir, message) {
      sh(dir, "add", "-A");
      sh(dir, "commit", "-qm", message);
    },
    [Symbol.dispose]() {
      Deno.removeSync(base, { recursive: true });
    },
  };
}
