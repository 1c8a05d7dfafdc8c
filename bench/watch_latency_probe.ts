/**
 * Probe: a rename on a watched host → the local server's table (`ctl hosts`, asked every 2 ms
 * over one control connection), ssh straight to the test sshd, or through bench/delay_proxy.ts
 * (BENCH_PROXY=MS). Prints p50/max: what the watching costs without a TUI in between.
 */
import { localHome, startSshd } from "../src/remote/test_util.ts";
import { request } from "../src/ctl/client.ts";
import { findControlSocket } from "../src/ctl/find.ts";
import { spawnServe } from "../tools/abuse/server.ts";
import { ControlLink } from "../src/remote/control_link.ts";
import { percentile } from "./tui_harness.ts";
import { SessionStore } from "../src/session/store.ts";
import { screenText, waitFor } from "../src/session/test_util.ts";
import { shellQuote } from "../src/ipc/integrations.ts";

const MAIN = new URL("../main.ts", import.meta.url).pathname;
await using sshd = await startSshd();
const home = sshd.remoteHome("box", "control:\n  enabled: true\n");
const local = localHome(
  sshd,
  `control:\n  enabled: true\nhosts:\n  - name: box\n    destination: 127.0.0.1\n    command: ${home.command}\n`,
);
// BENCH_PROXY=MS: through bench/delay_proxy.ts adding MS each way, as bench/remote_latency.ts.
const PROXY = new URL("./delay_proxy.ts", import.meta.url).pathname;
const delay = Deno.env.get("BENCH_PROXY");
const ssh = delay === undefined ? sshd.sshCommand : [
  ...sshd.sshArgv,
  "-o",
  `'ProxyCommand=${Deno.execPath()} run -A --quiet ${PROXY} 127.0.0.1 ${sshd.port} ${delay}'`,
].join(" ");
const env = { ...Deno.env.toObject(), ...local, LAZYSHELL_SSH: ssh };
const made = await new Deno.Command(Deno.execPath(), {
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
    "n0",
    "--command",
    "cat",
  ],
  env,
}).output();
if (!made.success) throw new Error(new TextDecoder().decode(made.stderr));
await using serve = spawnServe(env);
await serve.ready;
const localSock = await findControlSocket(env, () => Promise.resolve(true));
const remoteSock = await findControlSocket(home.env, () => Promise.resolve(true));
const link = new ControlLink(await Deno.connect({ transport: "unix", path: localSock }));
const names = async () => {
  const r = await link.request("hosts", {}, 5000);
  if (!r.ok) return "";
  return JSON.stringify(r.result);
};
while (!(await names()).includes('"n0"')) await new Promise((r) => setTimeout(r, 50));
// A client of the local server in a PTY: the same rename on its screen.
await using store = new SessionStore({ shell: "/bin/sh", env, cols: 120, rows: 32 });
const client = store.create({
  command: `exec ${shellQuote(Deno.execPath())} run -A --quiet ${shellQuote(MAIN)}`,
  env: { ...env, TERM: "xterm-256color" },
});
await waitFor(client, () => /n0/.test(screenText(client)), 60_000, "the list");
// BENCH_ATTACH=1: also `lazyshell -H box` attached there, focused on the session (as in
// bench/remote_latency.ts), timed on the same renames.
const attached = Deno.env.get("BENCH_ATTACH") === "1"
  ? store.create({
    command: `exec ${shellQuote(Deno.execPath())} run -A --quiet ${shellQuote(MAIN)} -H box`,
    env: { ...env, TERM: "xterm-256color" },
  })
  : null;
if (attached) {
  await waitFor(attached, () => /n0/.test(screenText(attached)), 60_000, "the -H list");
  if (Deno.env.get("BENCH_FOCUS") !== "0") attached.write("\r");
}
const viaH: number[] = [];
// BENCH_GAP=MS between a rename shown and the next (default 200; 0: back to back, the next change
// within one trip of the last reply).
const GAP = Number(Deno.env.get("BENCH_GAP") ?? "200");
const times: number[] = [];
const screens: number[] = [];
for (let i = 1; i <= 12; i++) {
  const name = `n${i}`;
  const t0 = performance.now();
  await request(remoteSock, "rename", { target: `n${i - 1}`, name }, 5000, home.env);
  const shown = waitFor(client, () => screenText(client).includes(name), 10_000, name).then(() =>
    screens.push(performance.now() - t0)
  );
  const shownH = attached
    ? waitFor(attached, () => screenText(attached).includes(name), 10_000, name).then(() =>
      viaH.push(performance.now() - t0)
    )
    : null;
  while (!(await names()).includes(`"${name}"`)) await new Promise((r) => setTimeout(r, 2));
  times.push(performance.now() - t0);
  await shown;
  await shownH;
  await new Promise((r) => setTimeout(r, GAP));
}
console.log(
  `rename → local table: p50 ${percentile(times, 50).toFixed(1)} ms, max ${
    Math.max(...times).toFixed(1)
  } ms (${times.map((t) => t.toFixed(0)).join(" ")})`,
);
console.log(
  `rename → client's screen: p50 ${percentile(screens, 50).toFixed(1)} ms, max ${
    Math.max(...screens).toFixed(1)
  } ms`,
);
if (attached) {
  console.log(`rename → -H screen: p50 ${percentile(viaH, 50).toFixed(1)} ms`);
  attached.write("\x1d");
  await new Promise((r) => setTimeout(r, 100));
  attached.write("d");
  await attached.exited;
}
client.write("d");
await client.exited;
link.close();
await serve.stop();
