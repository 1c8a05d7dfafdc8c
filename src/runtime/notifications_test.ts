import assert from "node:assert/strict";
import { parseConfig } from "../config/config.ts";
import { shellSnippet } from "../cli/init_shells.ts";
import type { Notification } from "../notify/policy.ts";
import type { Outcome } from "../notify/notifier.ts";
import { TEST_SHELL, testEnv, waitFor } from "../session/test_util.ts";
import type { Session } from "../session/session.ts";
import { Runtime } from "./runtime.ts";

async function withBash(
  body: (ctx: {
    runtime: Runtime;
    session: Session;
    sent: Notification[];
    ends: () => number;
    run: (line: string) => Promise<void>;
  }) => Promise<void>,
) {
  const dir = await Deno.makeTempDir();
  const snippet = `${dir}/integration.bash`;
  await Deno.writeTextFile(snippet, shellSnippet("bash"));
  const env = testEnv({ XDG_DATA_HOME: dir, XDG_CONFIG_HOME: dir });
  const runtime = new Runtime({
    env,
    config: parseConfig(`shell: ${TEST_SHELL}\n`, "config.yml"),
    cwd: dir,
  });
  try {
    const sent: Notification[] = [];
    runtime.notifyTo(() => {});
    using _sub = runtime.onNotified((n: Notification, outcome: Outcome) => {
      if (outcome === "sent") sent.push(n);
    });
    let ends = 0;
    using _ends = runtime.store.on((e) => {
      if (e.type === "session" && e.event.type === "osc133" && e.event.mark === "D") ends++;
    });
    const session = runtime.createSession({ command: "bash --norc --noprofile -i" });
    session.write(`source '${snippet}'\n`);
    await waitFor(session, () => session.terminal.visibleLines().join("\n").includes("source"));
    let fence = 0;
    /** Runs a line, then waits for a fence command's D so everything before it is counted. */
    const run = async (line: string) => {
      const before = ends;
      const marker = `fence-${++fence}`;
      session.write(`${line}\n`);
      session.write(`echo ${marker}\n`);
      await waitFor(session, () => ends > before && screenHas(session, marker), 15_000, marker);
      await waitFor(session, () => ends >= before + (line.trim() ? 2 : 1), 15_000, "D marks");
    };
    await body({ runtime, session, sent, ends: () => ends, run });
  } finally {
    await runtime[Symbol.asyncDispose]();
    await Deno.remove(dir, { recursive: true });
  }
}

function screenHas(session: Session, text: string): boolean {
  return session.terminal.tail(200).lines.some((l) => l.trim() === text);
}

Deno.test("a failing command in a plain bash session notifies exactly once", async () => {
  await withBash(async ({ sent, run }) => {
    await run("false");
    await run("true");
    await run("");
    await run("(exit 7)");
    assert.deepEqual(sent.map((n) => [n.reason, n.text]), [
      ["failed", "bash: command failed (exit 1)"],
      ["failed", "bash: command failed (exit 7)"],
    ]);
  });
});

Deno.test("a failing command repeated without typing is rate-limited", async () => {
  await withBash(async ({ session, sent }) => {
    // One input line, two failures: no typing in between, so one notification.
    let ends = 0;
    using _s = session.on((e) => {
      if (e.type === "osc133" && e.mark === "D") ends++;
    });
    session.write("false; echo x\n", false);
    await waitFor(session, () => ends >= 1, 15_000);
    session.write("false\n", false);
    session.write("echo done-$((40+2))\n", false);
    await waitFor(session, () => ends >= 3 && screenHas(session, "done-42"), 15_000);
    assert.equal(sent.length, 1);
  });
});

Deno.test("Runtime: arm() by session name notifies through the notifier; bad input is refused", async () => {
  const dir = await Deno.makeTempDir();
  const runtime = new Runtime({
    env: { ...Deno.env.toObject(), XDG_DATA_HOME: dir },
    config: parseConfig("", "config.yml"),
    cwd: dir,
  });
  try {
    const written: string[] = [];
    runtime.notifyTo((bytes) => written.push(bytes));
    const session = runtime.createSession({
      name: "api",
      command: "read -r go; echo 'npm ERR! 1'",
    });
    assert.throws(
      () => runtime.arm("nope", "ERR"),
      /No session with id or name: nope/,
    );
    runtime.arm("api", "ERR!");
    assert.throws(() => runtime.arm("api", "("), /^UserError: Invalid pattern/);
    session.write("go\n", false);
    await session.exited;
    assert.deepEqual(written, [
      "\x1b]9;api: ERR! matched — npm ERR! 1\x07\x1b]777;notify;lazyshell;api: ERR! matched — npm ERR! 1\x07",
    ]);
  } finally {
    await runtime[Symbol.asyncDispose]();
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("Runtime: the stats command runs for the session the user selects", async () => {
  const dir = await Deno.makeTempDir();
  const runtime = new Runtime({
    env: { ...Deno.env.toObject(), XDG_DATA_HOME: dir },
    config: parseConfig(`agent_stats_command: 'echo "$LAZYSHELL_SESSION_ID $PWD"'\n`, "c.yml"),
    cwd: dir,
  });
  try {
    const session = runtime.createSession({ name: "api", command: "read -r x" });
    // The line is part of the runtime's state, as every consumer reads it.
    const got = new Promise<string | null>((resolve) => {
      const sub = runtime.subscribe((c) => {
        if (c.type !== "updated" || c.session.stats === null) return;
        sub[Symbol.dispose]();
        resolve(c.session.stats);
      });
    });
    runtime.setFocus({ selected: session.id, terminal: false });
    assert.equal(await got, `${session.id} ${await Deno.realPath(dir)}`);
    assert.equal(runtime.view(session.id)?.stats, `${session.id} ${await Deno.realPath(dir)}`);
    assert.deepEqual(runtime.view(session.id)?.turn, { startedAt: null, lastMs: null, count: 0 });
  } finally {
    await runtime[Symbol.asyncDispose]();
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("a real agent (identified claude) failing in bash does not notify; a plain command does", async () => {
  await withBash(async ({ runtime, session, sent, run }) => {
    const dir = session.cwd;
    await Deno.writeTextFile(
      `${dir}/claude`,
      "#!/bin/bash\nprintf '✽ Whirring… (3s · ↓ 9 tokens)\\r\\n  esc to interrupt\\r\\n'\nread -r _\nexit 1\n",
    );
    await Deno.chmod(`${dir}/claude`, 0o755);
    session.write(`./claude\n`);
    await waitFor(session, () => runtime.view(session.id)?.agent === "claude", 15_000, "agent");
    await run("");
    assert.equal(sent.length, 0, JSON.stringify(sent));
    await run("false");
    assert.deepEqual(sent.map((n) => n.text), ["bash: command failed (exit 1)"]);
  });
});

Deno.test("a notification names the agent a session runs: claude (bash), not bash", async () => {
  await withBash(async ({ runtime, session, sent }) => {
    const dir = session.cwd;
    await Deno.writeTextFile(
      `${dir}/claude`,
      "#!/bin/bash\nprintf '✽ Whirring… (3s · ↓ 9 tokens)\\r\\n  esc to interrupt\\r\\n'\n" +
        "read -r _\nprintf '\\033]7501;state=done\\033\\\\'\nread -r _\n",
    );
    await Deno.chmod(`${dir}/claude`, 0o755);
    session.write(`./claude\n`);
    await waitFor(session, () => runtime.view(session.id)?.agent === "claude", 15_000, "agent");
    session.write("\n", false);
    await waitFor(session, () => sent.length > 0, 15_000, "a notification");
    assert.deepEqual(sent.map((n) => [n.reason, n.text, n.sessionName]), [
      ["done", "claude (bash): done", "bash"],
    ]);
    session.write("\n", false);
  });
});

Deno.test("OSC 7501 blocked then done in a plain session notifies each once, with the msg", async () => {
  await withBash(async ({ runtime, session, sent }) => {
    const b64 = btoa("approve Bash: touch lab-file.txt");
    session.write(
      `printf '\\033]7501;state=blocked:kind=permission:msg=${b64}\\033\\\\'; read -r _; ` +
        `printf '\\033]7501;state=blocked:kind=permission:msg=${b64}\\033\\\\'; ` +
        `printf '\\033]7501;state=done\\033\\\\'; read -r _\n`,
    );
    await waitFor(
      session,
      () => (runtime.view(session.id)?.agentStatus ?? null)?.state === "blocked",
      15_000,
    );
    session.write("\n", false);
    await waitFor(
      session,
      () => (runtime.view(session.id)?.agentStatus ?? null)?.state === "done",
      15_000,
    );
    assert.deepEqual(sent.map((n) => [n.reason, n.text]), [
      ["blocked", "bash: needs you — approve Bash: touch lab-file.txt"],
      ["done", "bash: done"],
    ]);
    session.write("\n", false);
  });
});

Deno.test("a program driven by ctl send notifies every new request and turn once", async () => {
  await withBash(async ({ runtime, session, sent }) => {
    // Declares the states named on each line it reads, one burst each, then says so.
    await Deno.writeTextFile(
      `${session.cwd}/agent`,
      "#!/bin/bash\nn=0\nwhile read -r line; do\n" +
        "  for s in $line; do printf '\\033]7501;state=%s\\033\\\\' \"$s\"; sleep 0.05; done\n" +
        '  n=$((n+1)); echo "step-$n"\ndone\n',
    );
    await Deno.chmod(`${session.cwd}/agent`, 0o755);
    session.write("./agent\n");
    const steps = [
      // A question, redrawn once with no answer in between.
      "working blocked:kind=question working blocked:kind=question",
      // Answered by ctl send; an approval a few seconds later.
      "working blocked:kind=permission",
      // Approved; the turn ends, its summary redrawn.
      "working done idle done",
      // Two more turns, each prompted by ctl send.
      "working done",
      "working done",
    ];
    for (const [i, line] of steps.entries()) {
      const seq = (runtime.view(session.id)?.agentStatus ?? null)?.seq ?? 0;
      const last = line.split(" ").at(-1)!.split(":")[0];
      session.write(`${line}\n`, false); // ctl send --enter: not typing
      await waitFor(
        session,
        () => {
          const status = runtime.view(session.id)?.agentStatus ?? null;
          return screenHas(session, `step-${i + 1}`) && status !== null && status.state === last &&
            status.seq > seq;
        },
        15_000,
        `step ${i + 1}`,
      );
    }
    assert.deepEqual(sent.map((n) => n.reason), ["blocked", "blocked", "done", "done", "done"]);
  });
});
