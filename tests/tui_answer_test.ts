/**
 * Answering from the list in the TUI (docs/tui.md "Answering a blocked session"), on a real Runtime with a
 * fake agent in a real PTY that draws a real captured prompt
 * (tests/testdata/prompt_agent.ts): the selected blocked session shows its
 * question and options in its pane; `o` then a digit types that option's
 * keys once and the receipt comes back as a message; the inbox lists every
 * blocked session; a prompt that changed after the overlay opened is
 * refused with nothing typed.
 */

import assert from "node:assert/strict";
import { appLab } from "./app_lab.ts";
import { resolveKeymap } from "../src/tui/core/keymap.ts";
import { view } from "../src/tui/core/view/mod.ts";
import { Frame } from "../src/tui/core/frame.ts";
import { layout } from "../src/tui/core/layout.ts";
import { waitFor, waitForText } from "../src/session/test_util.ts";

const FAKE = new URL("./testdata/prompt_agent.ts", import.meta.url).pathname;
const CAPTURES = new URL("../fixtures/captures/", import.meta.url).pathname;
const WAIT = 30_000;
const { keymap } = resolveKeymap();

function setup() {
  const lab = appLab("lazyshell-tui-answer-", { cols: 140, rows: 40 });
  const { dir, runtime, app } = lab;
  const fake = (name: string, extra = "") => {
    const script = `${dir}/claude.ts`;
    Deno.copyFileSync(FAKE, script);
    const log = `${dir}/${name}.log`;
    const session = runtime.createSession({
      name,
      command: `exec ${Deno.execPath()} run -A --quiet ${script} ${CAPTURES}claude-tool 13978 ` +
        `${log}${extra}`,
    });
    const keys = () => {
      try {
        return Deno.readTextFileSync(log).split("\n").filter(Boolean).map((l) => JSON.parse(l))
          .filter((e) => "key" in e).map((e) => e.key);
      } catch {
        return [];
      }
    };
    return { session, keys };
  };
  return {
    runtime,
    app,
    fake,
    screen: () => {
      const pane = layout(app.state.cols, app.state.rows).pane;
      const screen = new Frame(pane.width, pane.height);
      return view(app.state, { keymap, screen, tabLines: null }).toText();
    },
    [Symbol.asyncDispose]: () => lab[Symbol.asyncDispose](),
  };
}

Deno.test("o answers the selected blocked session from the list, with a receipt", async () => {
  await using t = setup();
  const { runtime, app, fake } = t;
  const c = fake("c1");
  await waitFor(
    c.session,
    () => app.state.sessions.some((s) => s.prompt?.question === "Do you want to proceed?"),
    WAIT,
    "the prompt in the TUI's state",
  );
  const pane = t.screen();
  assert.match(pane, /‼ c1 needs you/, pane);
  assert.match(pane, /Do you want to proceed\?/);
  assert.match(pane, /1 Yes +\[1\]/);
  assert.match(pane, /o answer here/);
  // The sidebar says what is asked, not just "permission".
  assert.match(pane.split("\n").map((l) => l.split("│")[0]).join(" "), /Do you want to proceed/);

  app.feed("I");
  assert.equal(app.state.overlay?.type, "inbox");
  assert.match(t.screen(), /Waiting for you[\s\S]*‼ c1 +Do you want to proceed\?/);
  app.feed("o");
  assert.equal(app.state.overlay?.type, "answer");
  app.feed("2");
  await waitFor(c.session, () => c.keys().length > 0, WAIT, "the key at the fake agent");
  await waitFor(
    c.session,
    () => /✓ c1: answered Yes, and always allow/.test(app.state.message?.text ?? ""),
    WAIT,
    "the receipt",
  );
  assert.deepEqual(c.keys(), ["2"]);
  assert.equal(runtime.view(c.session.id)?.agentStatus?.state === "blocked", false);
});

Deno.test("a prompt that changed after the answer overlay opened is refused, nothing typed", async () => {
  await using t = setup();
  const { app, fake } = t;
  const c = fake("c2", ` ${CAPTURES}claude-firststart-osc7501 2382`);
  await waitFor(
    c.session,
    () => app.state.sessions.some((s) => s.prompt?.question === "Do you want to proceed?"),
    WAIT,
    "the prompt",
  );
  app.feed("o");
  assert.equal(app.state.overlay?.type, "answer");
  Deno.kill(c.session.pid, "SIGUSR1");
  // The whole prompt, not only its question: the fake draws the options 300 ms later.
  await waitForText(c.session, /Try the new fullscreen renderer\?[\s\S]*Enter to confirm/, WAIT);
  app.feed("1");
  await waitFor(
    c.session,
    () => /changed since it was read/.test(app.state.message?.text ?? ""),
    WAIT,
    "the refusal",
  );
  assert.equal(app.state.message?.error, true);
  assert.deepEqual(c.keys(), []);
});

Deno.test("text typed by mistake after o answers nothing: `oh yes` closes the overlay at `h`", async () => {
  await using t = setup();
  const { app, fake } = t;
  const c = fake("c3");
  await waitFor(
    c.session,
    () => app.state.sessions.some((s) => s.prompt?.question === "Do you want to proceed?"),
    WAIT,
    "the prompt",
  );
  const overlay = () => app.state.overlay?.type ?? null;
  app.feed("oh yes");
  assert.equal(overlay(), null, "h closed it");
  // Then a real answer: the only key the agent ever got is its own.
  app.feed("o");
  assert.equal(overlay(), "answer");
  app.feed("2");
  await waitFor(c.session, () => c.keys().length > 0, WAIT, "the key at the fake agent");
  await waitFor(
    c.session,
    () => /✓ c3: answered Yes, and always allow/.test(app.state.message?.text ?? ""),
    WAIT,
    "the receipt",
  );
  assert.deepEqual(c.keys(), ["2"]);
});
