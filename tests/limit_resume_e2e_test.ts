/**
 * End to end on a real PTY (docs/limits.md): a program shows a usage limit
 * that resets in 2 s (a user manifest reads it: error, kind limit, resetsAt);
 * with `resume_after_limit: auto` lazyshell types `continue` once, after the
 * reset plus the margin, under the re-check, and notifies a receipt; with
 * `off` it types nothing. The "agent" is `sleep` (its tty echoes what is typed).
 */

import assert from "node:assert/strict";
import { startInstance } from "./control_helpers.ts";
import { MARGIN_MS } from "../src/limits/resume.ts";
import { runtimeFeed } from "../src/server/plugin_feed.ts";

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

/** The session's list entry once its limit is read (15 s at most). */
function limitRead(lab: Awaited<ReturnType<typeof withLimit>>["lab"]) {
  return until(
    async () => {
      const s = (await lab.ok<Listed>("list")).sessions[0]!;
      return s.kind === "limit" ? s : null;
    },
    15_000,
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
    // The stats tab's feed: the limit, its reset and the resume done.
    const fed = runtimeFeed(lab.runtime, () => {}).sessions()[0]!;
    assert.deepEqual([fed.kind, fed.resetsAt], ["limit", resetsAt]);
    assert.deepEqual(
      [fed.limitResume?.policy, fed.limitResume?.policyFrom, fed.limitResume?.resumed],
      ["auto", "agent", 1],
    );
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

Deno.test("policy per group and per session over ctl: the group's auto types, a session's off holds", async () => {
  const { lab, config } = await withLimit("off");
  try {
    for (const name of ["grp", "held"]) {
      await lab.ok("new", {
        name,
        group: "night",
        command: "printf 'Usage limit reached · resets in 2s\\n'; exec sleep 600",
      });
    }
    type Shown = { phase: string; policy: string; policyFrom: string };
    assert.match(
      await lab.error("limit", { target: "held", policy: "sometimes" }),
      /Unknown resume policy "sometimes": off, ask, auto or default/,
    );
    const group = await lab.ok<{ policy: string }>("limit", { group: "night", policy: "auto" });
    assert.equal(group.policy, "auto");
    const held = await lab.ok<Shown>("limit", { target: "held", policy: "off" });
    assert.deepEqual([held.policy, held.policyFrom], ["off", "session"]);
    const cleared = await lab.ok<Shown>("limit", { target: "held", policy: "default" });
    assert.deepEqual([cleared.policy, cleared.policyFrom], ["auto", "group"]);
    await lab.ok("limit", { target: "held", policy: "off" });
    const read = async (target: string) =>
      (await lab.ok<{ lines: string[] }>("read", { target })).lines.join("\n");
    // `lim` is in no group: its agent's off. `held` is in the group but off itself.
    await until(
      async () =>
        (await lab.ok<Shown>("limit", { target: "held" })).phase === "waiting" ? true : null,
      15_000,
      "held's limit never read",
    );
    // `grp` takes its group's auto.
    const grp = await until(
      async () => {
        const text = await read("grp");
        return /continue/.test(text) ? text : null;
      },
      2000 + MARGIN_MS + 15_000,
      "continue was never typed into grp",
    );
    assert.equal(grp.match(/continue/g)!.length, 1);
    assert.equal((await read("held")).match(/continue/g)?.length ?? 0, 0);
    // Its own policy set to auto past the reset: typed at once, once.
    await lab.ok("limit", { target: "held", policy: "auto" });
    const screen = await until(
      async () => {
        const text = await read("held");
        return /continue/.test(text) ? text : null;
      },
      10_000,
      "continue was never typed",
    );
    assert.equal(screen.match(/continue/g)!.length, 1);
    assert.equal((await read("lim")).match(/continue/g)?.length ?? 0, 0);
  } finally {
    await lab[Symbol.asyncDispose]();
    Deno.removeSync(config, { recursive: true });
  }
});
