/**
 * A flooding session seen over a slow link (docs/remote.md, "Measured"):
 * does the local view fall behind by what the link could not carry
 * (frames queued), or by about one frame (frames coalesced)? `lazyshell -H`
 * against `ssh -t … tmux attach`, both through bench/delay_proxy.ts at
 * BENCH_RATE bytes a second each way (default 32768) and 50 ms, each
 * showing a session that prints for BENCH_FLOOD seconds (default 8), then
 * `FLOOD-DONE`: the lag is from that line on the remote screen (`ctl read`
 * / `tmux capture-pane` there, polled) to the same line on the local one.
 * BENCH_TMUX=0 leaves tmux out (it takes minutes at 4 KiB/s).
 */

import { SessionStore } from "../src/session/store.ts";
import { screenText, waitFor } from "../src/session/test_util.ts";
import { localHome, sshdMissing, startSshd } from "../src/remote/test_util.ts";
import { shellQuote } from "../src/ipc/integrations.ts";
import { request } from "../src/ctl/client.ts";
import { findControlSocket } from "../src/ctl/find.ts";

const MAIN = new URL("../main.ts", import.meta.url).pathname;
const PROXY = new URL("./delay_proxy.ts", import.meta.url).pathname;
const RATE = Number(Deno.env.get("BENCH_RATE") ?? "32768");
const FLOOD = Number(Deno.env.get("BENCH_FLOOD") ?? "8");
const WITH_TMUX = Deno.env.get("BENCH_TMUX") !== "0";
const TMUX = `lzs-remote-flood-${Deno.pid}`;
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
const load = () => new TextDecoder().decode(new Deno.Command("uptime").outputSync().stdout).trim();

const missing = sshdMissing();
if (missing) {
  console.log(`remote_flood: ${missing}`);
  Deno.exit(0);
}
console.log(`remote_flood: ${FLOOD} s of output over ${RATE} B/s + 50 ms each way; ${load()}`);
await using sshd = await startSshd();
const home = sshd.remoteHome("flood", "control:\n  enabled: true\n");
const local = localHome(
  sshd,
  `hosts:\n  - name: box\n    destination: 127.0.0.1\n    command: ${home.command}\n`,
);
const base = local.HOME!;
const env: Record<string, string> = {
  ...Deno.env.toObject(),
  TERM: "xterm-256color",
  ...local,
};
delete env.TMUX;
const proxy =
  `ProxyCommand=${Deno.execPath()} run -A --quiet ${PROXY} 127.0.0.1 ${sshd.port} 50 ${RATE}`;
const ssh = [...sshd.sshArgv, "-o", proxy];
const sshLine = ssh.map(shellQuote).join(" ");
// Waits for a go file, floods, then says so.
const go = `${sshd.dir}/go`;
const flood = (tag: string) =>
  `while [ ! -e ${go} ]; do sleep 0.1; done; end=$(($(date +%s)+${FLOOD})); ` +
  `while [ $(date +%s) -lt $end ]; do seq 1 2000 | sed 's/^/${tag} flood line /'; done; ` +
  `echo FLOOD-DONE; sleep 600`;

const remote = await new Deno.Command(Deno.execPath(), {
  args: [
    "run",
    "-A",
    "--quiet",
    MAIN,
    "-H",
    "box",
    "ctl",
    "new",
    "--name",
    "fl",
    "--command",
    flood("L"),
  ],
  env: { ...env, LAZYSHELL_SSH: sshd.sshCommand },
}).output();
if (!remote.success) throw new Error(new TextDecoder().decode(remote.stderr));
const tmux = (...args: string[]) =>
  new Deno.Command("tmux", { args: ["-L", TMUX, "-f", "/dev/null", ...args], stdout: "piped" })
    .output();
await tmux("new-session", "-d", "-x", "120", "-y", "32", "-s", "b", flood("T"));
await using store = new SessionStore({ shell: "/bin/sh", env, cols: 120, rows: 32, cwd: base });
const control = await findControlSocket(home.env, () => Promise.resolve(true));
try {
  const lz = store.create({
    command: `exec ${shellQuote(Deno.execPath())} run -A --quiet ${shellQuote(MAIN)} -H box`,
    env: { ...env, LAZYSHELL_SSH: sshLine },
  });
  await waitFor(lz, () => /n new/.test(screenText(lz)) && /fl/.test(screenText(lz)), 60_000);
  lz.write("\r");
  const tm = store.create({
    command: WITH_TMUX
      ? `exec ${sshLine} -t 127.0.0.1 tmux -L ${TMUX} -f /dev/null attach -t b`
      : "echo '[b] FLOOD-DONE'; sleep 600",
  });
  await waitFor(tm, () => /\[b\]/.test(screenText(tm)), 60_000, "tmux");
  let lzBytes = 0;
  let tmBytes = 0;
  using _a = lz.tap((d) => (lzBytes += d.length));
  using _b = tm.tap((d) => (tmBytes += d.length));
  Deno.writeTextFileSync(go, "");
  const t0 = performance.now();
  // When each remote screen shows FLOOD-DONE, and when each local one does.
  const done: Record<string, number> = {};
  const watch = async (key: string, probe: () => Promise<boolean>) => {
    while (!(await probe())) await sleep(20);
    done[key] = performance.now() - t0;
  };
  await Promise.all([
    watch("lazyshell remote", async () => {
      const { response } = await request(control, "read", { target: "fl" }, 10_000, home.env);
      return response.ok && JSON.stringify(response.result).includes("FLOOD-DONE");
    }),
    watch("tmux remote", async () => {
      if (!WITH_TMUX) return true;
      const out = await tmux("capture-pane", "-p", "-t", "b");
      return new TextDecoder().decode(out.stdout).includes("FLOOD-DONE");
    }),
    watch("lazyshell local", () => Promise.resolve(screenText(lz).includes("FLOOD-DONE"))),
    watch("tmux local", () => Promise.resolve(screenText(tm).includes("FLOOD-DONE"))),
  ]);
  const lag = (who: string) => (done[`${who} local`]! - done[`${who} remote`]!).toFixed(0);
  console.log(`  (${load()})`);
  console.log(
    `  lazyshell -H: remote done at ${done["lazyshell remote"]!.toFixed(0)} ms, local ` +
      `+${lag("lazyshell")} ms later; ${(lzBytes / 1024).toFixed(0)} KiB reached the terminal`,
  );
  if (WITH_TMUX) {
    console.log(
      `  ssh -t tmux:  remote done at ${done["tmux remote"]!.toFixed(0)} ms, local ` +
        `+${lag("tmux")} ms later; ${(tmBytes / 1024).toFixed(0)} KiB reached the terminal`,
    );
  }
  lz.write("\x1d");
  await sleep(100);
  lz.write("d");
  if (WITH_TMUX) tm.write("\x02d");
  else tm.kill();
  await Promise.all([lz.exited, tm.exited]);
} finally {
  await tmux("kill-server");
}
