/**
 * End to end (docs/restore.md, "Where the conversation id comes from"): with
 * the default config — no hooks — an agent's conversation is found in its
 * own store and resumed after `kill -9` of the server. The agent is a fake
 * `claude` (a shell script: its process is named `claude`) that writes its
 * transcript where Claude Code 2.1.332 does, in a temp HOME, once a prompt is
 * typed; it runs once as the session's command and once typed at the prompt
 * of a session's shell. A real `lazyshell serve`, real PTYs.
 */

import assert from "node:assert/strict";
import { request } from "../src/ctl/client.ts";
import { parseState } from "../src/restore/state_file.ts";
import { controlSocket, lazyshell, type ServeChild, spawnServe } from "../tools/abuse/server.ts";

/** Claude Code's layout: ~/.claude/projects/<cwd, non-alphanumerics as '-'>/<session id>.jsonl. */
const FAKE_CLAUDE = `#!/bin/sh
echo "fake claude $*"
id=$(cat /proc/sys/kernel/random/uuid)
dir="\${CLAUDE_CONFIG_DIR:-$HOME/.claude}/projects/$(pwd | sed 's/[^A-Za-z0-9]/-/g')"
printf '> '
while read -r line; do
  mkdir -p "$dir"
  now=$(date -u +%Y-%m-%dT%H:%M:%S.000Z)
  printf '{"type":"mode","mode":"normal","sessionId":"%s"}\\n' "$id" >> "$dir/$id.jsonl"
  printf '{"type":"user","message":{"role":"user","content":"%s"},"timestamp":"%s","cwd":"%s","sessionId":"%s"}\\n' \\
    "$line" "$now" "$(pwd)" "$id" >> "$dir/$id.jsonl"
  echo "answered $line"
  printf '> '
done
`;

interface Server {
  readonly serve: ServeChild;
  readonly control: string;
}

async function serve(env: Record<string, string>, cwd: string): Promise<Server> {
  const child = spawnServe(env, { cwd });
  return { serve: child, control: controlSocket(await child.ready)! };
}

async function ctl(server: Server, verb: string, args: Record<string, unknown> = {}) {
  const { response } = await request(server.control, verb, args, 15_000);
  if (!response.ok) throw new Error(`${verb}: ${response.error}`);
  return response.result as Record<string, unknown>;
}

async function until<T>(get: () => T | Promise<T>, ok: (v: T) => boolean, what: string) {
  const deadline = Date.now() + 40_000;
  for (;;) {
    const v = await get();
    if (ok(v)) return v;
    if (Date.now() > deadline) throw new Error(`Timed out waiting for ${what}: ${String(v)}`);
    await new Promise((r) => setTimeout(r, 100));
  }
}

const screen = async (server: Server, target: string) =>
  ((await ctl(server, "read", { target })).lines as string[]).join("\n");

/** The one transcript the fake wrote under `dir`, and its id. */
function transcriptIn(dir: string): { id: string; file: string } | null {
  try {
    for (const e of Deno.readDirSync(dir)) {
      if (e.name.endsWith(".jsonl")) return { id: e.name.slice(0, -6), file: `${dir}/${e.name}` };
    }
  } catch { /* not yet */ }
  return null;
}

Deno.test(
  "no hooks: kill -9, then `lazyshell restore` resumes claude from its own transcript (command and typed)",
  { ignore: Deno.build.os !== "linux" },
  async () => {
    const base = await Deno.makeTempDir({ prefix: "lzs-resume-e2e-" });
    const bin = `${base}/bin`;
    await Deno.mkdir(bin);
    await Deno.writeTextFile(`${bin}/claude`, FAKE_CLAUDE, { mode: 0o755 });
    await Deno.mkdir(`${base}/config/lazyshell`, { recursive: true });
    await Deno.mkdir(`${base}/run`, { mode: 0o700 });
    // Two folders: one agent each (the command one, the typed one).
    const [app, typedApp] = [`${base}/src/my_app`, `${base}/src/typed.app`];
    await Deno.mkdir(app, { recursive: true });
    await Deno.mkdir(typedApp, { recursive: true });
    // The default config but the control API: no inject_hooks, nothing installed in the agent;
    // bash, which runs a `-c` command in its own place (dash would stay the foreground process).
    await Deno.writeTextFile(
      `${base}/config/lazyshell/config.yml`,
      "shell: /bin/bash\ncontrol:\n  enabled: true\n",
    );
    const env: Record<string, string> = {
      PATH: `${bin}:${Deno.env.get("PATH") ?? "/usr/bin:/bin"}`,
      HOME: base,
      SHELL: "/bin/bash",
      XDG_CONFIG_HOME: `${base}/config`,
      XDG_DATA_HOME: `${base}/data`,
      XDG_STATE_HOME: `${base}/state`,
      XDG_RUNTIME_DIR: `${base}/run`,
      NO_COLOR: "1",
    };
    const file = `${base}/state/lazyshell/sessions-default.jsonl`;
    const read = () => Deno.readTextFile(file).catch(() => "");
    const projects = `${base}/.claude/projects`;
    let server: Server | null = null;
    try {
      server = await serve(env, base);
      const cmd = String(
        (await ctl(server, "new", { name: "cmd", command: "claude", cwd: app })).id,
      );
      const typed = String((await ctl(server, "new", { name: "typed", cwd: typedApp })).id);
      await until(() => screen(server!, cmd), (s) => s.includes("> "), "the fake's prompt");
      await until(() => screen(server!, typed), (s) => /[$#] *$/m.test(s), "the shell's prompt");
      await ctl(server, "send", { target: typed, text: "claude\r" });
      await until(() => screen(server!, typed), (s) => s.includes("fake claude"), "claude typed");
      for (const target of [cmd, typed]) await ctl(server, "send", { target, text: "hello\r" });
      const first = await until(
        () => transcriptIn(`${projects}/${app.replace(/[^A-Za-z0-9]/g, "-")}`),
        (t) => t !== null,
        "the command agent's transcript",
      );
      const second = await until(
        () => transcriptIn(`${projects}/${typedApp.replace(/[^A-Za-z0-9]/g, "-")}`),
        (t) => t !== null,
        "the typed agent's transcript",
      );
      // The state file names both conversations: from the agent's store, not a hook.
      const saved = await until(
        read,
        (t) => t.includes(first!.id) && t.includes(second!.id),
        "both conversations in the state file",
      );
      assert.match(
        saved,
        new RegExp(`"source":"claude transcript ~/\\.claude/projects/[^"]*${first!.id}\\.jsonl"`),
      );
      await server.serve.stop("SIGKILL");

      server = await serve(env, base);
      const restored = await lazyshell(env, ["restore", "--all"]);
      assert.equal(restored.code, 0, restored.stderr);
      assert.match(
        restored.stdout,
        new RegExp(
          `^cmd: resumes claude conversation ${
            first!.id
          } \\(claude transcript ~/\\.claude/projects/-[^ ]*-src-my-app/${
            first!.id
          }\\.jsonl\\) \\(session-1\\)\\n`,
        ),
      );
      assert.match(
        restored.stdout,
        new RegExp(`\\ntyped: resumes claude conversation ${second!.id} `),
      );
      const list = (await ctl(server, "list")).sessions as {
        id: string;
        name: string;
        cwd: string;
      }[];
      const again = Object.fromEntries(list.map((s) => [s.name, s]));
      assert.equal(again.cmd?.cwd, app);
      await until(
        () => screen(server!, again.cmd!.id),
        (s) => s.includes(`fake claude --resume ${first!.id}`),
        "the command agent resumed",
      );
      // Typed at the new shell's prompt: the agent runs in the shell's foreground, as before.
      await until(
        () => screen(server!, again.typed!.id),
        (s) => s.includes(`fake claude --resume ${second!.id}`),
        "the typed agent resumed",
      );
      // Killed again before the resumed agents wrote a word: still the same conversations.
      await until(
        read,
        (t) => {
          const saved = parseState(t).sessions;
          return saved.length === 2 &&
            saved.every((s) =>
              s.agent === "claude" &&
              s.conversation?.source.startsWith("restored: claude transcript")
            );
        },
        "the resumed agents and their conversations in the state file",
      );
      await server.serve.stop("SIGKILL");
      server = await serve(env, base);
      const third = await lazyshell(env, ["restore", "--all"]);
      assert.match(third.stdout, new RegExp(`^cmd: resumes claude conversation ${first!.id} `));
      assert.match(third.stdout, new RegExp(`\ntyped: resumes claude conversation ${second!.id} `));
      await server.serve.stop();
      server = null;
    } finally {
      if (server) await server.serve.stop("SIGKILL").catch(() => {});
      await Deno.remove(base, { recursive: true });
    }
  },
);
