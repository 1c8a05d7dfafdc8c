/**
 * End to end on a real PTY (docs/limits.md): a program shows a usage limit
 * that resets in 2 s (a user manifest reads it: error, kind limit, resetsAt);
 * with `resume_after_limit: auto` lazyshell types `continue` once, after the
 * reset plus the margin, under the re-check, and notifies a receipt; with
 * `off` it types nothing. The "agent" is `sleep` (its tty echoes what is typed).
 */

import assert from "node:assert/strict";
import { startInstance } from "./control_helpers.ts";
import { MARGIN_MS, NOT_READY_RETRY_MS, NOT_READY_TRIES } from "../src/limits/resume.ts";
import { pendingFile, persistResumes } from "../src/runtime/limit_resumes_file.ts";

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

async function withLimit(
  policy: "auto" | "off" | "ask",
  more: { env?: Record<string, string>; config?: string; command?: string } = {},
) {
  const config = more.config ?? Deno.makeTempDirSync({ prefix: "limits-e2e-config-" });
  Deno.mkdirSync(`${config}/lazyshell/agents`, { recursive: true });
  Deno.writeTextFileSync(`${config}/lazyshell/agents/fakelimit.yml`, MANIFEST);
  const lab = await startInstance({
    env: { XDG_CONFIG_HOME: config, ...more.env },
    extraConfig: `agents:\n  fakelimit:\n    resume_after_limit: ${policy}\n`,
  });
  const notices: string[] = [];
  lab.runtime.onNotified((n) => notices.push(n.text));
  await lab.ok("new", {
    name: "lim",
    command: more.command ?? "printf 'Usage limit reached · resets in 2s\\n'; exec sleep 600",
  });
  return { lab, notices, config };
}

async function until<T>(what: () => Promise<T | null>, ms: number, why: string): Promise<T> {
  const deadline = Date.now() + ms;
  for (;;) {
    const v = await what();
    if (v !== null) return v;
    assert.ok(Date.now() < deadline, why);
    await new Promise((r) => setTimeout(r, 200));
  }
}

type Listed = { sessions: { name: string; kind: string | null; resetsAt: string | null }[] };

/** The session's list entry once its limit is read (30 s at most). */
function limitRead(lab: Awaited<ReturnType<typeof withLimit>>["lab"]) {
  return until(
    async () => {
      const s = (await lab.ok<Listed>("list")).sessions[0]!;
      return s.kind === "limit" ? s : null;
    },
    30_000,
    "the limit was never read",
  );
}

Deno.test("auto: continue typed once after the reset, with a receipt", async () => {
  const { lab, notices, config } = await withLimit("auto");
  try {
    const seenAt = Date.now();
    const entry = await limitRead(lab);
    const readAt = Date.now();
    // "in 2s" from when it was read, about between the two (a loaded machine reads it late).
    const resetsAt = Date.parse(entry.resetsAt!);
    assert.ok(
      resetsAt > seenAt + 2000 - 5000 && resetsAt < readAt + 2000 + 5000,
      `${entry.resetsAt} for a limit read between ${new Date(seenAt).toISOString()} and ` +
        new Date(readAt).toISOString(),
    );
    const read = async () =>
      (await lab.ok<{ lines: string[] }>("read", { target: "lim" })).lines.join("\n");
    // Nothing before the reset plus the margin (a screen read once that time passed tells nothing).
    await new Promise((r) => setTimeout(r, Math.max(0, resetsAt + MARGIN_MS - 3000 - Date.now())));
    const early = await read();
    if (Date.now() < resetsAt + MARGIN_MS) assert.doesNotMatch(early, /continue/);
    const screen = await until(
      async () => {
        const text = await read();
        return /continue/.test(text) ? text : null;
      },
      30_000,
      "continue was never typed",
    );
    assert.equal(screen.match(/continue/g)!.length, 1);
    await until(
      () => Promise.resolve(notices.some((n) => n.includes('typed "continue"')) ? true : null),
      30_000,
      `no receipt: ${JSON.stringify(notices)}`,
    );
    // Still the same limit on screen: never twice.
    await new Promise((r) => setTimeout(r, 3000));
    assert.equal((await read()).match(/continue/g)!.length, 1);
  } finally {
    await lab[Symbol.asyncDispose]();
    Deno.removeSync(config, { recursive: true });
  }
});

Deno.test("off: nothing typed past the reset", async () => {
  const { lab, config } = await withLimit("off");
  try {
    await limitRead(lab);
    await new Promise((r) => setTimeout(r, 2000 + MARGIN_MS + 2000));
    const text = (await lab.ok<{ lines: string[] }>("read", { target: "lim" })).lines.join("\n");
    assert.doesNotMatch(text, /continue/);
  } finally {
    await lab[Symbol.asyncDispose]();
    Deno.removeSync(config, { recursive: true });
  }
});

Deno.test("auto, then ctl limit --cancel before the reset: nothing typed", async () => {
  const { lab, config } = await withLimit("auto");
  try {
    await limitRead(lab);
    const shown = await lab.ok<{ phase: string; resetsAt: string | null }>("limit", {
      target: "lim",
    });
    assert.equal(shown.phase, "waiting");
    assert.notEqual(shown.resetsAt, null);
    const cancelled = await lab.ok<{ phase: string; reason: string }>("limit", {
      target: "lim",
      cancel: true,
    });
    assert.deepEqual([cancelled.phase, cancelled.reason], ["stopped", "cancelled"]);
    await new Promise((r) => setTimeout(r, 2000 + MARGIN_MS + 2000));
    const text = (await lab.ok<{ lines: string[] }>("read", { target: "lim" })).lines.join("\n");
    assert.doesNotMatch(text, /continue/);
  } finally {
    await lab[Symbol.asyncDispose]();
    Deno.removeSync(config, { recursive: true });
  }
});

Deno.test("ask: a notification at the reset, nothing typed until ctl limit --resume, then once", async () => {
  const { lab, notices, config } = await withLimit("ask");
  try {
    await limitRead(lab);
    const read = async () =>
      (await lab.ok<{ lines: string[] }>("read", { target: "lim" })).lines.join("\n");
    // Too early: the key does not resume before the reset.
    const early = await lab.ok<{ phase: string }>("limit", { target: "lim", resume: true });
    assert.equal(early.phase, "waiting");
    await until(
      () => Promise.resolve(notices.some((n) => n.includes("limit reset · resume:")) ? true : null),
      2000 + MARGIN_MS + 10_000,
      `never asked: ${JSON.stringify(notices)}`,
    );
    await new Promise((r) => setTimeout(r, 2000));
    assert.doesNotMatch(await read(), /continue/);
    const asked = await lab.ok<{ phase: string }>("limit", { target: "lim", resume: true });
    assert.equal(asked.phase, "typing");
    const screen = await until(
      async () => {
        const text = await read();
        return /continue/.test(text) ? text : null;
      },
      30_000,
      "continue was never typed",
    );
    assert.equal(screen.match(/continue/g)!.length, 1);
  } finally {
    await lab[Symbol.asyncDispose]();
    Deno.removeSync(config, { recursive: true });
  }
});

Deno.test("a pending resume survives the server: restored by name, typed once at the prompt", async () => {
  const state = Deno.makeTempDirSync({ prefix: "limits-e2e-state-" });
  const env = { XDG_STATE_HOME: state };
  const first = await withLimit("auto", { env });
  const file = pendingFile({ ...env }, "test");
  const kept = persistResumes(first.lab.runtime, file);
  try {
    await until(
      () => {
        try {
          const saved = JSON.parse(Deno.readTextFileSync(file));
          return Promise.resolve(saved.sessions?.lim?.agent === "fakelimit" ? saved : null);
        } catch {
          return Promise.resolve(null);
        }
      },
      30_000,
      "the pending resume was never written",
    );
  } finally {
    // The server goes before the reset (its file stays, as after a kill -9).
    kept[Symbol.dispose]();
    await first.lab[Symbol.asyncDispose]();
  }
  await new Promise((r) => setTimeout(r, 3000)); // the reset passes while it is down
  const second = await withLimit("auto", {
    env,
    config: first.config,
    command: "printf 'ready> '; exec sleep 600",
  });
  const restored = persistResumes(second.lab.runtime, file);
  try {
    const read = async () =>
      (await second.lab.ok<{ lines: string[] }>("read", { target: "lim" })).lines.join("\n");
    const screen = await until(
      async () => {
        const text = await read();
        return /continue/.test(text) ? text : null;
      },
      // The resume is due at the reset plus the margin, then waits for the agent back at its
      // prompt (its tries every 5 s, 2 min): a loaded machine (CI, load 24) reads it late.
      MARGIN_MS + NOT_READY_RETRY_MS * NOT_READY_TRIES + 15_000,
      "the restored resume never typed",
    );
    assert.equal(screen.match(/continue/g)!.length, 1);
    await new Promise((r) => setTimeout(r, 3000));
    assert.equal((await read()).match(/continue/g)!.length, 1);
    assert.ok(
      second.notices.some((n) => n.includes('typed "continue"')),
      second.notices.join("; "),
    );
  } finally {
    restored[Symbol.dispose]();
    await second.lab[Symbol.asyncDispose]();
    Deno.removeSync(first.config, { recursive: true });
    Deno.removeSync(state, { recursive: true });
  }
});
