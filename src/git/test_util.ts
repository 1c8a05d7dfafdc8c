/**
 * Real git repositories in temp folders for the tests of src/git/, the verbs, agent launches and
 * the Changes tab: testRepo (a main checkout and its worktrees) and makeRepo (a repository with an
 * ignored .env), and the means to change them.
 */

/** A git identity, and no user or system git config. */
const GIT_ENV = {
  GIT_AUTHOR_NAME: "Test",
  GIT_AUTHOR_EMAIL: "test@example.invalid",
  GIT_COMMITTER_NAME: "Test",
  GIT_COMMITTER_EMAIL: "test@example.invalid",
  GIT_CONFIG_GLOBAL: "/dev/null",
  GIT_CONFIG_NOSYSTEM: "1",
};

/** `program args` with GIT_ENV (test set-up: any failure throws with its stderr). */
function run(program: string, args: string[], what: string, cwd?: string): string {
  const options = { args, env: GIT_ENV, ...(cwd === undefined ? {} : { cwd }) };
  const out = new Deno.Command(program, options).outputSync();
  const text = new TextDecoder().decode(out.stdout);
  if (!out.success) {
    throw new Error(`${what}: exit ${out.code}: ${new TextDecoder().decode(out.stderr)}`);
  }
  return text;
}

/** Runs git in `dir`. */
export function sh(dir: string, ...args: string[]): string {
  return run("git", ["-C", dir, ...args], `git ${args.join(" ")}`);
}

/** Runs a shell command in `dir`. */
export function shell(dir: string, command: string): string {
  return run("sh", ["-c", command], command, dir);
}

/** A new repository `<tmp>/repo` on branch main: README.md committed, an ignored .env beside it. */
export function makeRepo(prefix = "lazyshell-git-"): { tmp: string; repo: string } {
  const tmp = Deno.realPathSync(Deno.makeTempDirSync({ prefix }));
  const repo = `${tmp}/repo`;
  Deno.mkdirSync(repo);
  shell(
    repo,
    "git init -q -b main && printf 'hello\\n' > README.md && printf '.env\\n' > .gitignore && " +
      "printf 'SECRET=1\\n' > .env && git add README.md .gitignore && git commit -qm first",
  );
  return { tmp, repo };
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
