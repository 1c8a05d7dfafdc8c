/**
 * End to end (docs/limits.md, "Across restarts"): pending resumes at usage
 * limits are in the state file, next to their sessions. A real `lazyshell
 * serve` with two sessions at a limit (`resume_after_limit: auto`) is killed
 * with SIGKILL; one limit's reset (and its margin) passes while no server
 * runs, the other's is still ahead. A new server and `lazyshell restore --all`
 * bring them back: the first is resumed once, after the re-check (its agent
 * back at its prompt); the second is not typed into before its reset plus the
 * margin, then once. The "agent" is a script that shows the limit on its first
 * run and a prompt on the next, then `sleep` (its tty echoes what is typed).
 */

import assert from "node:assert/strict";
import { request } from "../src/ctl/client.ts";
import { MARGIN_MS } from "../src/limits/resume.ts";
import { parseState } from "../src/restore/state_file.ts";
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
  "    resets: ['resets (?<resets>in \\d+s)']",
  "  - id: prompt",
  "    state: idle",
  "    any: ['ready> ']",
  "",
].join("\n");

/** $1: a marker file (absent: the first run), $2: seconds to the reset. */
const AGENT = `if [ -e "$1" ]; then printf 'ready> '
else : > "$1"; printf 'Usage limit reached · resets in %ss\\n' "$2"; fi
exec sleep 600
`;

type Listed = { sessions: { name: string; kind: string | null; resetsAt: string | null }[] };

interface Server {
  readonly serve: ServeChild;
  readonly control: string;
}

async function ctl<T = Record<string, unknown>>(
  server: Server,
  verb: string,
  args: Record<string, unknown> = {},
): Promise<T> {
  const { response } = await request(server.control, verb, args, 15_000);
  if (!response.ok) throw new Error(`${verb}: ${response.error}`);
  return response.result as T;
}

async function until<T>(
  get: () => T | Promise<T>,
  ok: (v: T) => boolean,
  what: string,
  ms: number,
) {
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

const sleep = (ms: number) => new Promise((r) => setTimeout(r, Math.max(0, ms)));

Deno.test(
  "kill -9, then `lazyshell restore`: a reset passed while down resumes once; one ahead at its time",
  { ignore: Deno.build.os !== "linux" },
  async () => {
    const base = await Deno.makeTempDir({ prefix: "lzs-limit-kill-" });
    await Deno.mkdir(`${base}/config/lazyshell/agents`, { recursive: true });
    await Deno.mkdir(`${base}/run`, { mode: 0o700 });
    await Deno.writeTextFile(`${base}/config/lazyshell/agents/fakelimit.yml`, MANIFEST);
    await Deno.writeTextFile(
      `${base}/config/lazyshell/config.yml`,
      "shell: /bin/sh\ncontrol:\n  enabled: true\nagents:\n  fakelimit:\n    resume_after_limit: auto\n",
    );
    await Deno.writeTextFile(`${base}/agent.sh`, AGENT);
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
    const file = `${base}/state/lazyshell/sessions-default.jsonl`;
    const start = async (): Promise<Server> => {
      const serve = spawnServe(env, { cwd: base });
      return { serve, control: controlSocket(await serve.ready)! };
    };
    const screen = async (server: Server, target: string) =>
      (await ctl<{ lines: string[] }>(server, "read", { target })).lines.join("\n");
    const typed = (text: string) => text.match(/continue/g)?.length ?? 0;
    let server: Server | null = null;
    try {
      server = await start();
      for (const [name, secs] of [["due", 2], ["later", 30]] as const) {
        const command = `exec sh ${base}/agent.sh ${base}/ran-${name} ${secs}`;
        await ctl(server, "new", { name, command });
      }
      const listed = await until(
        () => ctl<Listed>(server!, "list"),
        (l) => l.sessions.filter((s) => s.kind === "limit").length === 2,
        "both limits read",
        20_000,
      );
      const resets = Object.fromEntries(
        listed.sessions.map((s) => [s.name, Date.parse(s.resetsAt!)]),
      );
      // Both pending resumes are in the state file, next to their sessions.
      await until(
        () => Deno.readTextFile(file).catch(() => ""),
        (t) => {
          const saved = parseState(t).sessions;
          return saved.length === 2 &&
            saved.every((s) => s.agent === "fakelimit" && s.limitResume?.phase === "waiting");
        },
        "both pending resumes in the state file",
        15_000,
      );
      assert.ok(Date.now() < resets.later!, "killed before the later reset");
      await server.serve.stop("SIGKILL");
      server = null;
      // The first reset and its margin pass while no server runs.
      await sleep(resets.due! + MARGIN_MS + 1000 - Date.now());

      server = await start();
      const restored = await lazyshell(env, ["restore", "--all"], base);
      assert.equal(restored.code, 0, restored.stderr);
      assert.match(restored.stdout, /^due: .*its resume at the usage limit's reset is kept/m);
      assert.match(restored.stdout, /^later: .*its resume at the usage limit's reset is kept/m);
      assert.ok(Date.now() < resets.later!, "restored before the later reset");
      const waiting = await ctl<{ phase: string }>(server, "limit", { target: "later" });
      assert.equal(waiting.phase, "waiting");
      const due = await until(
        () => screen(server!, "due"),
        (s) => typed(s) >= 1,
        "the passed reset resumed on restore",
        30_000,
      );
      assert.equal(typed(due), 1, due);
      // The old screen shown above the restored rule is not read: no stale limit in the list.
      const after = await ctl<Listed>(server, "list");
      assert.deepEqual(after.sessions.map((s) => [s.name, s.kind]), [["due", null], [
        "later",
        null,
      ]]);
      // Nothing before the later reset plus the margin.
      await sleep(resets.later! + MARGIN_MS - 2000 - Date.now());
      assert.equal(typed(await screen(server, "later")), 0);
      const later = await until(
        () => screen(server!, "later"),
        (s) => typed(s) >= 1,
        "the later reset resumed at its time",
        30_000,
      );
      assert.equal(typed(later), 1, later);
      // Never twice.
      await sleep(3000);
      assert.equal(typed(await screen(server, "due")), 1);
      assert.equal(typed(await screen(server, "later")), 1);
      await server.serve.stop();
      server = null;
    } finally {
      if (server) await server.serve.stop("SIGKILL").catch(() => {});
      await Deno.remove(base, { recursive: true });
    }
  },
);
