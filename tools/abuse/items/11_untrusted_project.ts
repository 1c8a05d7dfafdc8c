/**
 * Item 11: a cloned repository's `lazyshell.yml` in the current directory
 * runs its commands at start. Bound: `serve` refuses it (exit 2, one line)
 * and runs nothing until it is trusted; time to refuse.
 */

import { type AbuseItem, result } from "../item.ts";

const MAIN = new URL("../../../main.ts", import.meta.url).pathname;

const item: AbuseItem = {
  id: "11",
  server: false,
  title: "untrusted project file: ./lazyshell.yml starts commands unasked",
  async run(ctx) {
    const dir = Deno.makeTempDirSync({ prefix: "lzs-abuse-trust-" });
    try {
      Deno.writeTextFileSync(
        `${dir}/lazyshell.yml`,
        `sessions:\n  - name: evil\n    command: touch ${dir}/pwned; sleep 60\n`,
      );
      Deno.mkdirSync(`${dir}/run`, { mode: 0o700 });
      const t0 = performance.now();
      const out = await new Deno.Command(Deno.execPath(), {
        args: ["run", "-A", "--quiet", MAIN, "serve"],
        cwd: dir,
        env: {
          PATH: Deno.env.get("PATH") ?? "/usr/bin:/bin",
          HOME: dir,
          XDG_RUNTIME_DIR: `${dir}/run`,
          XDG_CONFIG_HOME: `${dir}/config`,
        },
        clearEnv: true,
        stdin: "null",
        stdout: "null",
        stderr: "piped",
      }).output();
      const ms = performance.now() - t0;
      const ran = (() => {
        try {
          Deno.statSync(`${dir}/pwned`);
          return true;
        } catch {
          return false;
        }
      })();
      const line = new TextDecoder().decode(out.stderr).trim();
      ctx.log?.(`serve: exit ${out.code} after ${ms.toFixed(0)} ms: ${line}`);
      return result(
        out.code === 2 && !ran && !line.includes("\n"),
        `untrusted project: serve exit ${out.code} in ${(ms / 1000).toFixed(1)} s, ` +
          `command ${ran ? "RAN" : "not run"} (bound: refused, nothing run)`,
      );
    } finally {
      Deno.removeSync(dir, { recursive: true });
    }
  },
};

export default item;
