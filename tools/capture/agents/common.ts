/**
 * Setup shared by every CLI: an isolated HOME and work dir per capture
 * (`<lab>/homes/<capture>`, `<lab>/work/<agent>-<capture>`), a minimal
 * environment, and the CLI's version for meta.json.
 */

export const KEYS = {
  enter: "\r",
  esc: "\x1b",
  down: "\x1b[B",
  up: "\x1b[A",
  right: "\x1b[C",
  tab: "\t",
  ctrlC: "\x03",
} as const;

export function freshDir(dir: string): string {
  try {
    Deno.removeSync(dir, { recursive: true });
  } catch (error) {
    if (!(error instanceof Deno.errors.NotFound)) throw error;
  }
  Deno.mkdirSync(dir, { recursive: true });
  return dir;
}

export function baseEnv(lab: string, home: string): Record<string, string> {
  return {
    PATH: `${lab}/node_modules/.bin:/usr/local/bin:/usr/bin:/bin`,
    HOME: home,
    USER: "root",
    LOGNAME: "root",
    SHELL: "/bin/bash",
    TERM: "xterm-256color",
    COLORTERM: "truecolor",
    LANG: "C.UTF-8",
    LC_ALL: "C.UTF-8",
  };
}

const PARSER_PY = "def parse(xs):\n    out = []\n    for i in range(len(xs) - 1):\n" +
  "        out.append(xs[i])\n    return out\n";

/** A small git project for the agent to work in. */
export async function workdir(lab: string, name: string): Promise<string> {
  const dir = freshDir(`${lab}/work/${name}`);
  Deno.writeTextFileSync(`${dir}/parser.py`, PARSER_PY);
  Deno.writeTextFileSync(`${dir}/README.md`, "# lab project\n");
  try {
    await new Deno.Command("git", { args: ["init", "-q", dir], stdout: "null", stderr: "null" })
      .output();
  } catch {
    // no git: the agents run without a repository too
  }
  return dir;
}

/** `<bin> --version`, bounded to 30 s; "?" when it fails. */
export async function cliVersion(bin: string, home: string): Promise<string> {
  try {
    const out = await new Deno.Command(bin, {
      args: ["--version"],
      env: { HOME: home, PATH: "/usr/local/bin:/usr/bin:/bin" },
      stdin: "null",
      stdout: "piped",
      stderr: "null",
      signal: AbortSignal.timeout(30000),
    }).output();
    return new TextDecoder().decode(out.stdout).trim() || "?";
  } catch {
    return "?";
  }
}

export function writeJson(path: string, data: unknown): string {
  const text = JSON.stringify(data, null, 1);
  Deno.writeTextFileSync(path, text);
  return text;
}
