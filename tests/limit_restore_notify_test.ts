/**
 * End to end (docs/limits.md, "Notifications"): a session at a usage limit, its server killed
 * with SIGKILL and the session brought back by `lazyshell restore`, whose agent draws the same
 * limit again (Codex redraws its limit line from its transcript) is notified `limit reached`
 * once, not once per server. The "agent" takes a prompt and prints a limit line; restored, it
 * prints the same line again, then sleeps;
 * notifications go to `notify.fallback_command` (no terminal is attached), one line each.
 */

import assert from "node:assert/strict";
import { request } from "../src/ctl/client.ts";
import { controlSocket, lazyshell, type ServeChild, spawnServe } from "../tools/abuse/server.ts";

const MANIFEST = [
  "id: fakelimit",
  "identity:",
  "  processes: [sleep]",
  "rules:",
  "  - id: usage-limit",
  "    state: error",
  "    kind: limit",
  "    any: ['Usage limit reached']",
  "    msg: ['(?<msg>Usage limit reached)']",
  "    resets: ['resets (?<resets>\\d+:\\d+ \\(UTC\\))']",
  "",
].join("\n");

type Listed = { sessions: { name: string; kind: string | null; resetsAt: string | null }[] };

async function until<T>(get: () => Promise<T>, ok: (v: T) => boolean, what: string, ms: number) {
  const deadline = Date.now() + ms;
  for (;;) {
    const v = await get();
    if (ok(v)) return v;
    if (Date.now() > deadline) {
      throw new Error(`Timed out waiting for ${what}: ${JSON.stringify(v)}`);
    }
    await new Promise((r) => setTimeout(r, 200));
  }
}

Deno.test(
  "kill -9, then `lazyshell restore`: the same limit drawn again is not notified again",
  { ignore: Deno.build.os !== "linux" },
  async () => {
    const base = await Deno.makeTempDir({ prefix: "lzs-limit-notify-" });
    await Deno.mkdir(`${base}/config/lazyshell/agents`, { recursive: true });
    await Deno.mkdir(`${base}/run`, { mode: 0o700 });
    await Deno.writeTextFile(`${base}/config/lazyshell/agents/fakelimit.yml`, MANIFEST);
    const notes = `${base}/notes.txt`;
    await Deno.writeTextFile(
      `${base}/config/lazyshell/config.yml`,
      [
        "shell: /bin/sh",
        "control:",
        "  enabled: true",
        "notify:",
        `  fallback_command: "cat >> ${notes}; echo >> ${notes}"`,
        "",
      ].join("\n"),
    );
    // A reset 40 minutes ahead, printed to the minute in UTC: read as the same instant each run.
    const at = new Date(Date.now() + 40 * 60_000);
    const hm = `${at.getUTCHours()}:${String(at.getUTCMinutes()).padStart(2, "0")}`;
    await Deno.writeTextFile(
      `${base}/agent.sh`,
      // The first run takes a prompt, then hits the limit; a restored one only redraws it.
      `[ -e ${base}/ran ] || { : > ${base}/ran; read -r prompt; }\n` +
        `printf 'Usage limit reached · resets ${hm} (UTC)\\n'\nexec sleep 600\n`,
    );
    const env: Record<string, string> = {
      PATH: Deno.env.get("PATH") ?? "/usr/bin:/bin",
      HOME: base,
      SHELL: "/bin/sh",
      XDG_CONFIG_HOME: `${base}/config`,
      XDG_DATA_HOME: `${base}/data`,
      XDG_STATE_HOME: `${base}/state`,
      XDG_RUNTIME_DIR: `${base}/run`,
      NO_COLOR: "1",
    };
    const start = async () => {
      const serve: ServeChild = spawnServe(env, { cwd: base });
      return { serve, control: controlSocket(await serve.ready)! };
    };
    const ctl = async <T>(control: string, verb: string, args: Record<string, unknown> = {}) => {
      const { response } = await request(control, verb, args, 15_000);
      if (!response.ok) throw new Error(`${verb}: ${response.error}`);
      return response.result as T;
    };
    const reached = async () =>
      (await Deno.readTextFile(notes).catch(() => "")).match(/limit reached/g)?.length ?? 0;
    const limited = (control: string) =>
      until(
        () => ctl<Listed>(control, "list"),
        (l) => l.sessions.some((s) => s.name === "cx" && s.kind === "limit"),
        "the limit read",
        20_000,
      );
    let server: Awaited<ReturnType<typeof start>> | null = null;
    try {
      server = await start();
      await ctl(server.control, "new", { name: "cx", command: `exec sh ${base}/agent.sh` });
      await until(
        () => Deno.stat(`${base}/ran`).then(() => true, () => false),
        (v) => v,
        "the agent",
        15_000,
      );
      await ctl(server.control, "send", { target: "cx", text: "go", enter: true, receipt: false });
      const first = await limited(server.control);
      await until(reached, (n) => n >= 1, "the first notification", 15_000);
      await until(
        () => Deno.readTextFile(`${base}/state/lazyshell/sessions-default.jsonl`).catch(() => ""),
        (t) => t.includes('"limitResume"') && t.includes('"waiting"'),
        "the pending resume in the state file",
        15_000,
      );
      await server.serve.stop("SIGKILL");
      server = null;

      server = await start();
      const restored = await lazyshell(env, ["restore", "--all"], base);
      assert.equal(restored.code, 0, restored.stderr);
      assert.match(restored.stdout, /^cx: .*its resume at the usage limit's reset is kept/m);
      const again = await limited(server.control);
      // The same limit: same reset instant, read by the new server from the new agent's line.
      assert.deepEqual(
        again.sessions.map((s) => s.resetsAt),
        first.sessions.map((s) => s.resetsAt),
      );
      // A notification is sent as the status changes; its command runs at once. Absence cannot
      // be polled: 3 s past the limit read is ample for the command to have written.
      await new Promise((r) => setTimeout(r, 3000));
      assert.equal(await reached(), 1, await Deno.readTextFile(notes));
      await server.serve.stop();
      server = null;
    } finally {
      if (server) await server.serve.stop("SIGKILL").catch(() => {});
      await Deno.remove(base, { recursive: true });
    }
  },
);
