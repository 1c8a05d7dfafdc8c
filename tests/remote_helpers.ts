/**
 * The local side of the remote tests (tests/remote_ssh_test.ts,
 * tests/remote_hosts_test.ts): a home naming the remote homes in `hosts:`
 * and `$LAZYSHELL_SSH` for the test's sshd (src/remote/test_util.ts), and
 * lazyshell run there.
 */

import { localHome, type RemoteHome, type Sshd } from "../src/remote/test_util.ts";

export const MAIN = new URL("../main.ts", import.meta.url).pathname;

/** The local side: a home with no server of its own, `hosts:` naming the remote homes. */
export function localEnv(
  sshd: Sshd,
  hosts: Record<string, RemoteHome>,
  extra = "",
): Record<string, string> {
  const entries = Object.entries(hosts).map(([name, home]) =>
    `  - name: ${name}\n    destination: 127.0.0.1\n    command: ${home.command}\n`
  );
  const config = `${extra}hosts:${entries.length ? `\n${entries.join("")}` : " []\n"}`;
  return {
    PATH: Deno.env.get("PATH") ?? "/usr/bin:/bin",
    ...localHome(sshd, config),
    LAZYSHELL_SSH: sshd.sshCommand,
    NO_COLOR: "1",
    ...(Deno.env.get("DENO_DIR") ? { DENO_DIR: Deno.env.get("DENO_DIR")! } : {}),
  };
}

/** `lazyshell ARGS` with that environment: exit code, stdout, stderr. */
export async function lz(env: Record<string, string>, ...args: string[]) {
  const out = await new Deno.Command(Deno.execPath(), {
    args: ["run", "-A", "--quiet", MAIN, ...args],
    env,
    clearEnv: true,
    stdin: "null",
    stdout: "piped",
    stderr: "piped",
  }).output();
  const d = new TextDecoder();
  return { code: out.code, stdout: d.decode(out.stdout), stderr: d.decode(out.stderr) };
}
