/** Real git repositories for tests: a temp folder with one commit, and a shell to change it. */

const GIT_ENV = {
  GIT_AUTHOR_NAME: "Test",
  GIT_AUTHOR_EMAIL: "test@example.invalid",
  GIT_COMMITTER_NAME: "Test",
  GIT_COMMITTER_EMAIL: "test@example.invalid",
  GIT_CONFIG_GLOBAL: "/dev/null",
  GIT_CONFIG_NOSYSTEM: "1",
};

/** Runs a shell command in `dir` (with a git identity); throws with its stderr when it fails. */
export function sh(dir: string, command: string): string {
  const out = new Deno.Command("sh", {
    args: ["-c", command],
    cwd: dir,
    env: GIT_ENV,
    stdout: "piped",
    stderr: "piped",
  }).outputSync();
  const text = new TextDecoder().decode(out.stdout);
  if (!out.success) {
    throw new Error(`${command}: exit ${out.code}: ${new TextDecoder().decode(out.stderr)}`);
  }
  return text;
}

/** A new repository `<tmp>/repo` on branch main: README.md committed, an ignored .env beside it. */
export function makeRepo(prefix = "lazyshell-git-"): { tmp: string; repo: string } {
  const tmp = Deno.realPathSync(Deno.makeTempDirSync({ prefix }));
  const repo = `${tmp}/repo`;
  Deno.mkdirSync(repo);
  sh(
    repo,
    "git init -q -b main && printf 'hello\\n' > README.md && printf '.env\\n' > .gitignore && " +
      "printf 'SECRET=1\\n' > .env && git add README.md .gitignore && git commit -qm first",
  );
  return { tmp, repo };
}
