/**
 * End to end on a real PTY (docs/limits.md, "Notifications"): an agent at a usage limit with a
 * dialog beside it (Gemini CLI's "1. Keep trying / 2. Stop") is answered with the manifest's
 * dismiss key `2`; the agent then shows a quota failure, and shows it again as the continue
 * text's turn starts under it. lazyshell notifies `limit reached` once and no `failed`: the
 * failure its own answer left is the limit's episode. The "agent" is a shell script run by a
 * copy of /bin/sh named `fakegem`.
 */

import assert from "node:assert/strict";
import { startInstance } from "./control_helpers.ts";

const MANIFEST = [
  "id: fakegem",
  "identity:",
  "  processes: [fakegem]",
  "rules:",
  "  - id: usage-limit",
  "    state: error",
  "    kind: limit",
  "    any: ['Usage limit reached']",
  "    msg: ['(?<msg>Usage limit reached)']",
  "    resets: ['resets (?<resets>in \\d+s)']",
  "  - id: working",
  "    state: working",
  "    any: ['Thinking']",
  "  - id: turn-failed",
  "    state: error",
  "    kind: quota",
  "    any: ['Quota exceeded']",
  "    msg: ['(?<msg>Quota exceeded)']",
  "limit:",
  "  dialog: ['\\d\\.\\s+Keep trying']",
  "  dismiss: ['2']",
  "",
].join("\n");

/** A turn's work, the limit and its dialog; `2` clears it for the quota error; a line typed: work, then it again. */
const AGENT = `printf 'fakegem v1\\nThinking\\n'
sleep 2
printf '\\033[2J\\033[Hfakegem v1\\nUsage limit reached · resets in 2s\\n● 1. Keep trying\\n  2. Stop\\n'
stty -icanon -echo min 1
k=$(dd bs=1 count=1 2>/dev/null)
stty icanon echo
printf '\\033[2J\\033[Hfakegem v1\\n✕ Quota exceeded\\n> '
read -r line
printf '\\033[2J\\033[Hfakegem v1\\nThinking\\n'
sleep 1
printf '\\033[2J\\033[Hfakegem v1\\n✕ Quota exceeded\\n> '
exec sleep 600
`;

async function until<T>(what: () => T | null, ms: number, why: string): Promise<T> {
  const deadline = Date.now() + ms;
  for (;;) {
    const v = what();
    if (v !== null) return v;
    assert.ok(Date.now() < deadline, why);
    await new Promise((r) => setTimeout(r, 200));
  }
}

Deno.test("a dialog beside a limit answered by lazyshell: the quota failure it leaves is not notified", async () => {
  const config = Deno.makeTempDirSync({ prefix: "limits-dismiss-config-" });
  Deno.mkdirSync(`${config}/lazyshell/agents`, { recursive: true });
  Deno.writeTextFileSync(`${config}/lazyshell/agents/fakegem.yml`, MANIFEST);
  Deno.writeTextFileSync(`${config}/fakegem.sh`, AGENT);
  // The agent's process name (identity comes from the process table): a copy of the shell.
  Deno.copyFileSync("/bin/sh", `${config}/fakegem`);
  Deno.chmodSync(`${config}/fakegem`, 0o755);
  const lab = await startInstance({
    env: { XDG_CONFIG_HOME: config },
    extraConfig: `agents:\n  fakegem:\n    resume_after_limit: auto\n`,
  });
  const notices: string[] = [];
  lab.runtime.onNotified((n) => notices.push(n.text));
  try {
    await lab.ok("new", { name: "gem", command: `exec ${config}/fakegem ${config}/fakegem.sh` });
    const statuses: string[] = [];
    using _ = lab.runtime.subscribe((c) => {
      if (c.type === "updated" && c.session.agentStatus) {
        const s = c.session.agentStatus;
        statuses.push(`${s.state}/${s.kind ?? "-"}`);
      }
    });
    // The resume typed, its turn worked, the failure came back under it.
    await until(
      () => {
        const i = statuses.indexOf("working/-");
        return i >= 0 && statuses.slice(i).includes("error/quota") ? true : null;
      },
      60_000,
      `never worked then failed again: ${JSON.stringify(statuses)} ${JSON.stringify(notices)}`,
    );
    await until(
      () => (notices.some((n) => n.includes('typed "continue"')) ? true : null),
      30_000,
      `no receipt: ${JSON.stringify(notices)}`,
    );
    assert.equal(notices.filter((n) => n.includes("limit reached")).length, 1, notices.join("\n"));
    assert.deepEqual(notices.filter((n) => n.includes("failed")), [], JSON.stringify(statuses));
  } finally {
    await lab[Symbol.asyncDispose]();
    Deno.removeSync(config, { recursive: true });
  }
});
