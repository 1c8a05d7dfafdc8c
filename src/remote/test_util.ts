/**
 * A throw-away sshd for the remote tests (docs/remote.md, "Tests"): Debian's
 * openssh-server started on 127.0.0.1 at a free port, with a host key and a
 * user key made in a temp folder; the client side is an ssh command line
 * for `$LAZYSHELL_SSH`. The "remote" lazyshell is this checkout, run by the
 * Deno running the tests, through a wrapper script that gives it a home of
 * its own (its XDG folders), so the remote server never meets the local
 * one. `sshdMissing()` says why it cannot run (then the test is skipped
 * with that line).
 */

const SSHD = ["/usr/sbin/sshd", "/usr/bin/sshd"];
const MAIN = new URL("../../main.ts", import.meta.url).pathname;

function findSshd(): string | null {
  for (const path of SSHD) {
    try {
      if (Deno.statSync(path).isFile) return path;
    } catch { /* next */ }
  }
  return null;
}

/** Why the sshd tests cannot run here, or null. */
export function sshdMissing(): string | null {
  if (findSshd() === null) {
    return "skipped: no sshd (apt-get install -y openssh-server; .ci/run installs it)";
  }
  try {
    Deno.statSync("/usr/bin/ssh-keygen");
  } catch {
    return "skipped: no ssh-keygen (apt-get install -y openssh-client)";
  }
  return null;
}

async function run(cmd: string, args: string[]): Promise<void> {
  const out = await new Deno.Command(cmd, { args, stdout: "piped", stderr: "piped" }).output();
  if (!out.success) {
    throw new Error(`${cmd} ${args.join(" ")}: ${new TextDecoder().decode(out.stderr)}`);
  }
}

function freePort(): number {
  const listener = Deno.listen({ hostname: "127.0.0.1", port: 0 });
  const port = (listener.addr as Deno.NetAddr).port;
  listener.close();
  return port;
}

/** The pids whose parent is `pid` (Linux /proc). */
function childrenOf(pid: number): number[] {
  const out: number[] = [];
  for (const entry of Deno.readDirSync("/proc")) {
    if (!/^\d+$/.test(entry.name)) continue;
    try {
      const stat = Deno.readTextFileSync(`/proc/${entry.name}/stat`);
      const ppid = Number(stat.slice(stat.lastIndexOf(")") + 2).split(" ")[1]);
      if (ppid === pid) out.push(Number(entry.name));
    } catch { /* gone */ }
  }
  return out;
}

export interface Sshd extends AsyncDisposable {
  readonly dir: string;
  readonly port: number;
  /** `$LAZYSHELL_SSH` for this sshd: its key, no known_hosts, no user config. */
  readonly sshCommand: string;
  /** The same as argv (for `ssh … tmux attach` in benches). */
  readonly sshArgv: readonly string[];
  /** A remote home: the wrapper running this checkout there (`hosts[].command`). */
  remoteHome(name: string, config?: string): RemoteHome;
  /** Ends sshd and its connections (the host is gone); `start()` brings it back on the port. */
  stop(): Promise<void>;
  start(): Promise<void>;
}

export interface RemoteHome {
  readonly base: string;
  /** The wrapper script: the remote lazyshell. */
  readonly command: string;
  /** Its environment, to run a local process as the remote side (a fake agent's log, …). */
  readonly env: Record<string, string>;
}

export async function startSshd(): Promise<Sshd> {
  const sshd = findSshd()!;
  const dir = Deno.makeTempDirSync({ prefix: "lzs-sshd-" });
  Deno.chmodSync(dir, 0o700);
  await run("ssh-keygen", ["-q", "-t", "ed25519", "-N", "", "-f", `${dir}/host_key`]);
  await run("ssh-keygen", ["-q", "-t", "ed25519", "-N", "", "-f", `${dir}/user_key`]);
  Deno.copyFileSync(`${dir}/user_key.pub`, `${dir}/authorized_keys`);
  Deno.chmodSync(`${dir}/authorized_keys`, 0o600);
  const port = freePort();
  Deno.writeTextFileSync(
    `${dir}/sshd_config`,
    [
      `ListenAddress 127.0.0.1`,
      `Port ${port}`,
      `HostKey ${dir}/host_key`,
      `AuthorizedKeysFile ${dir}/authorized_keys`,
      `PidFile ${dir}/sshd.pid`,
      `StrictModes no`,
      `PasswordAuthentication no`,
      `KbdInteractiveAuthentication no`,
      `PubkeyAuthentication yes`,
      `PermitRootLogin prohibit-password`,
      `UsePAM no`,
      `PrintMotd no`,
      `AcceptEnv none`,
      "",
    ].join("\n"),
  );
  try {
    Deno.mkdirSync("/run/sshd", { recursive: true }); // privilege separation (as root)
  } catch { /* not root: sshd runs unprivileged */ }
  const sshArgv = [
    "ssh",
    "-F",
    "/dev/null",
    "-i",
    `${dir}/user_key`,
    "-o",
    "StrictHostKeyChecking=no",
    "-o",
    "UserKnownHostsFile=/dev/null",
    "-o",
    "LogLevel=ERROR",
    "-o",
    "BatchMode=yes",
    "-o",
    "IdentitiesOnly=yes",
    "-p",
    String(port),
  ];
  let child: Deno.ChildProcess | null = null;
  const start = async () => {
    child = new Deno.Command(sshd, {
      args: ["-D", "-e", "-f", `${dir}/sshd_config`],
      stdin: "null",
      stdout: "null",
      stderr: "piped",
    }).spawn();
    const log = Deno.openSync(`${dir}/sshd.log`, { create: true, append: true });
    void child.stderr.pipeTo(log.writable).catch(() => {});
    const until = performance.now() + 10_000;
    for (;;) {
      try {
        const conn = await Deno.connect({ hostname: "127.0.0.1", port });
        conn.close();
        return;
      } catch {
        if (performance.now() > until) throw new Error(`sshd did not listen on ${port}`);
        await new Promise((r) => setTimeout(r, 20));
      }
    }
  };
  const stop = async () => {
    const c = child as Deno.ChildProcess | null;
    if (c === null) return;
    child = null;
    // Its connections first (each a child process of its own, which SIGTERM to the listener
    // leaves running): as when the host goes away, every link through it drops.
    for (const pid of childrenOf(c.pid)) {
      try {
        Deno.kill(pid, "SIGTERM");
      } catch { /* gone */ }
    }
    try {
      c.kill("SIGTERM");
    } catch { /* gone */ }
    await c.status;
  };
  await start();
  const homes: string[] = [];
  return {
    dir,
    port,
    sshArgv,
    sshCommand: sshArgv.join(" "),
    remoteHome(name: string, config = "control:\n  enabled: true\n") {
      const base = `${dir}/home-${name}`;
      for (const sub of ["config/lazyshell", "run", "state", "data"]) {
        Deno.mkdirSync(`${base}/${sub}`, { recursive: true });
      }
      Deno.chmodSync(`${base}/run`, 0o700);
      Deno.writeTextFileSync(`${base}/config/lazyshell/config.yml`, config);
      const env: Record<string, string> = {
        HOME: base,
        XDG_CONFIG_HOME: `${base}/config`,
        XDG_RUNTIME_DIR: `${base}/run`,
        XDG_STATE_HOME: `${base}/state`,
        XDG_DATA_HOME: `${base}/data`,
        PATH: Deno.env.get("PATH") ?? "/usr/bin:/bin",
        ...(Deno.env.get("DENO_DIR") ? { DENO_DIR: Deno.env.get("DENO_DIR")! } : {}),
      };
      const exports = Object.entries(env).map(([k, v]) => `export ${k}='${v}'`).join("\n");
      const command = `${base}/lazyshell`;
      Deno.writeTextFileSync(
        command,
        `#!/bin/sh\n${exports}\ncd "$HOME"\nexec '${Deno.execPath()}' run -A --quiet '${MAIN}' "$@"\n`,
      );
      Deno.chmodSync(command, 0o755);
      homes.push(base);
      return { base, command, env };
    },
    stop,
    start,
    async [Symbol.asyncDispose]() {
      // Remote servers started through the bridge: ended like a user would.
      for (const base of homes) {
        await new Deno.Command(`${base}/lazyshell`, {
          args: ["kill-server"],
          stdin: "null",
          stdout: "null",
          stderr: "null",
        }).output().catch(() => {});
      }
      await stop();
      Deno.removeSync(dir, { recursive: true });
    },
  };
}

/**
 * The local side of a remote test or bench: a home in the sshd's folder with
 * no server of its own and a config of `config` (its `hosts:` naming the
 * remote homes); the variables that point lazyshell at it.
 */
export function localHome(sshd: Sshd, config: string): Record<string, string> {
  const base = `${sshd.dir}/local`;
  Deno.mkdirSync(`${base}/config/lazyshell`, { recursive: true });
  Deno.mkdirSync(`${base}/run`, { recursive: true, mode: 0o700 });
  Deno.writeTextFileSync(`${base}/config/lazyshell/config.yml`, config);
  return {
    HOME: base,
    XDG_CONFIG_HOME: `${base}/config`,
    XDG_RUNTIME_DIR: `${base}/run`,
    XDG_STATE_HOME: `${base}/state`,
    XDG_DATA_HOME: `${base}/data`,
  };
}
