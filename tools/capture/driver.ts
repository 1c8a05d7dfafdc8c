/**
 * The capture driver: runs one agent CLI in a real PTY against the mock
 * model server, answers terminal queries through HeadlessTerminal like a real
 * terminal (optionally the OSC 7501 probe too), plays a scenario like a user
 * and writes a capture folder (recorder.ts).
 *
 * Invariants: the mock listens on 127.0.0.1 only; every run is bounded
 * (hardLimitMs); the CLI and anything it left behind (found by PTY session
 * or by the capture's isolated HOME) is ended by PID and checked via /proc.
 */

import { OSC7501_QUERY_REPLY } from "../../src/model/agent.ts";
import { type Pty, spawnPty } from "../../src/session/pty.ts";
import { HeadlessTerminal } from "../../src/session/terminal.ts";
import { type MockEvent, type MockRequest, startMockServer } from "./mock/server.ts";
import { quit, sleep, summarize } from "./driver_util.ts";
import type { AgentProfile, LaunchSpec, ScenarioName } from "./profile.ts";
import { captureProcesses, endProcesses, formatProcs } from "./procs.ts";
import { type At, type InputSource, Recorder, type TruthState } from "./recorder.ts";
import { type Player, SCENARIO_BODIES } from "./scenarios.ts";
import { SideChannels } from "./side.ts";

export interface CaptureOptions {
  readonly agent: AgentProfile;
  readonly scenario: ScenarioName;
  /** Where the CLIs are installed (`<lab>/node_modules/.bin`) and homes/work dirs go. */
  readonly lab: string;
  /** Parent folder of the capture folder. */
  readonly outDir: string;
  readonly name?: string;
  readonly answerOsc7501?: boolean;
  readonly termReplies?: boolean;
  readonly focusOut?: boolean;
  readonly env?: Readonly<Record<string, string>>;
  /** Scales the scenario's waits, typing and the mock's streaming (1 = like a person). */
  readonly pace?: number;
  readonly hardLimitMs?: number;
  readonly cols?: number;
  readonly rows?: number;
  readonly log?: (line: string) => void;
}

export interface CaptureResult {
  readonly name: string;
  readonly dir: string;
  readonly rawBytes: number;
  readonly forced: boolean;
  readonly exit: { exitCode: number; signal: number } | null;
  /** Pids still around after the CLI exited, ended by the driver. */
  readonly leftovers: readonly number[];
}

export const SCRIPTS_DIR = new URL("./scripts", import.meta.url).pathname;

export function captureName(o: CaptureOptions): string {
  const size = (o.cols ?? 120) !== 120 || (o.rows ?? 32) !== 32 ? `${o.cols}x${o.rows}` : "";
  return o.name ?? [
    o.agent.id,
    o.scenario,
    size,
    o.answerOsc7501 ? "osc7501" : "",
    o.termReplies === false ? "noreplies" : "",
    o.focusOut ? "focusout" : "",
  ].filter(Boolean).join("-");
}

export async function runCapture(o: CaptureOptions): Promise<CaptureResult> {
  const name = captureName(o);
  const log = o.log ?? ((line: string) => console.log(line));
  const pace = o.pace ?? 1;
  const cols = o.cols ?? 120;
  const rows = o.rows ?? 32;
  const answer7501 = o.answerOsc7501 ?? false;
  const termReplies = o.termReplies ?? true;
  const rec = Recorder.create(`${o.outDir}/${name}`, log);
  const stop = new AbortController();
  const mockEvents: MockEvent[] = [];
  const mockWaiters = new Set<(e: MockEvent) => void>();
  let firstToolRequest = true;

  const mock = await startMockServer({
    speed: pace,
    onEvent(e) {
      mockEvents.push(e);
      const { type, ...rest } = e;
      rec.event("mock", { event: type, ...rest });
      if (e.kind === "aux" || e.type === "unhandled" || e.type === "error") return;
      if (e.type === "stream_start") {
        rec.label("working", `mock: streaming text (script=${e.script}, api=${e.api})`, "mock");
      } else if (e.type === "tool_call_sent") {
        rec.label(
          "working",
          "mock: finished response with a tool call; permission prompt expected next",
          "mock",
        );
      } else if (e.type === "turn_end") {
        endTurn(e);
      } else if (e.type === "client_aborted") {
        rec.event("note", { note: "client closed the stream (interrupt)" });
      }
      mockWaiters.forEach((w) => w(e));
    },
    onRequest(r: MockRequest) {
      rec.jsonl("mock-requests.jsonl", summarize(rec.now(), r));
      const tools = (r.body as { tools?: unknown[] } | null)?.tools;
      if (firstToolRequest && Array.isArray(tools) && tools.length > 0) {
        firstToolRequest = false;
        const full = JSON.stringify({ url: r.url, headers: r.headers, body: r.body }, null, 1);
        Deno.writeTextFileSync(`${rec.dir}/mock-first-request.json`, full.slice(0, 400000));
      }
    },
  });

  let pty: Pty | null = null;
  let term: HeadlessTerminal | null = null;
  let side: SideChannels | null = null;
  let spec: LaunchSpec | null = null;
  let exit: { exitCode: number; signal: number } | null = null;
  const exited = Promise.withResolvers<void>();
  type ScreenTest = (screen: string, title: string) => boolean;
  const watchers = new Set<{ test: ScreenTest; hit: (at: At) => void }>();
  let turnsEnded = 0;
  /** The scenario labels turn ends itself (Player.ownTurnEnds). */
  let ownTurnEnds = false;
  /** Where the CLI's current busy spell began (null while it shows no working indicator). */
  let busyOnset: At | null = null;
  const isBusy = (screen: string, title: string) =>
    o.agent.busyRe !== undefined && (o.agent.busyRe.test(screen) || o.agent.busyRe.test(title));
  const turnWaiters = new Set<() => void>();
  /** End offsets of chunks handed to the emulator and not parsed yet. */
  const parsing: At[] = [];
  let leftovers: number[] = [];
  let forced = false;

  const send = (data: string, src: InputSource, note: string) => {
    if (!pty || exit) return;
    rec.input(data, src, note);
    pty.write(data);
  };
  const screenText = () => term?.visibleLines().join("\n") ?? "";
  const pause = (ms: number) => sleep(ms * pace, stop.signal);
  const snapshotProcs = (tag: string) => {
    if (!pty || !spec) return;
    const rows_ = captureProcesses(pty.pid, spec.env.HOME ?? "/nonexistent");
    Deno.writeTextFileSync(
      `${rec.dir}/procs-${tag}.txt`,
      formatProcs(tag, rec.now(), pty.pid, rows_),
    );
    rec.event("procs", { tag, file: `procs-${tag}.txt` });
  };

  /** The first output after which the screen (and title) passes `test`, or null after `ms`. */
  const waitFor = (test: ScreenTest, ms: number, what: string): Promise<At | null> => {
    if (test(screenText(), term?.title ?? "")) return Promise.resolve(rec.here());
    return new Promise((resolve) => {
      const done = (at: At | null) => {
        clearTimeout(timer);
        watchers.delete(w);
        stop.signal.removeEventListener("abort", abort);
        if (!at) {
          rec.event("timeout", { what });
          log(`   (timeout waiting for ${what})`);
        }
        resolve(at);
      };
      const w = { test, hit: (at: At) => done(at) };
      const abort = () => done(null);
      const timer = setTimeout(abort, ms);
      stop.signal.addEventListener("abort", abort, { once: true });
      watchers.add(w);
    });
  };

  /**
   * The model finished the turn; the CLI is done once its working indicator
   * has left the screen and title too (a loaded machine lags seconds behind).
   */
  const endTurn = async (e: MockEvent) => {
    const busy = o.agent.busyRe;
    const note = `mock: final response finished, end of turn (script=${e.script})`;
    if (ownTurnEnds) {
      rec.event("note", { note: `${note}; the scenario labels the turn's end` });
    } else if (!busy) {
      rec.label("done", note, "mock");
    } else {
      const at = await waitFor(
        (screen, title) => !busy.test(screen) && !busy.test(title),
        30000,
        "working indicator to leave",
      );
      if (at) rec.label("done", `${note}; working indicator gone`, "screen", at);
      else rec.label("done", `${note}; working indicator still shown after 30 s`, "mock");
    }
    turnsEnded++;
    turnWaiters.forEach((w) => w());
  };

  /**
   * Labels `state` where the screen first shows it (a loaded machine lags
   * seconds behind a key press), or at the key (`at`) when it never does.
   */
  const confirm = async (
    state: TruthState,
    note: string,
    test: ScreenTest,
    at: At,
    ms = 20000,
  ): Promise<void> => {
    const seen = await waitFor(test, ms, `screen to show ${state}`);
    if (seen) rec.label(state, `${note} (on screen)`, "screen", seen);
    else rec.label(state, note, "driver", at);
  };

  const player: Player = {
    agent: o.agent,
    focusOut: o.focusOut ?? false,
    wait: pause,
    waitScreen: (re, ms, what) => waitFor((screen) => re.test(screen), ms, what),
    waitState: waitFor,
    waitTurnEnd(ms) {
      return new Promise((resolve) => {
        const done = (ok: boolean) => {
          clearTimeout(timer);
          turnWaiters.delete(listen);
          stop.signal.removeEventListener("abort", abort);
          resolve(ok);
        };
        const listen = () => done(true);
        const abort = () => done(false);
        const timer = setTimeout(abort, ms);
        stop.signal.addEventListener("abort", abort, { once: true });
        turnWaiters.add(listen);
      });
    },
    turnsEnded: () => turnsEnded,
    waitMock(type, ms) {
      return new Promise((resolve) => {
        const done = (ok: boolean) => {
          clearTimeout(timer);
          mockWaiters.delete(listen);
          stop.signal.removeEventListener("abort", abort);
          resolve(ok);
        };
        const listen = (e: MockEvent) => e.type === type && e.kind !== "aux" && done(true);
        const abort = () => done(false);
        const timer = setTimeout(abort, ms);
        stop.signal.addEventListener("abort", abort, { once: true });
        mockWaiters.add(listen);
      });
    },
    async prompt(text) {
      for (const ch of text) {
        send(ch, "user", "typing");
        await pause(35);
      }
      await pause(700);
      // If no turn request reaches the mock within a minute the Enter was lost (taken as part
      // of a paste): press it again; the label goes to the one that worked. Codex can need
      // 90 s on a loaded machine (it installs its 424 MB app-server daemon into each new HOME).
      const busy = o.agent.busyRe;
      let at = rec.here();
      send("\r", "user", "Enter (submit prompt)");
      if (!(await player.waitMock("request", 60000))) {
        rec.event("note", { note: "no model request 60 s after Enter: pressing Enter again" });
        at = rec.here();
        send("\r", "user", "Enter again (the first one did not submit)");
      }
      const note = `user submitted prompt: ${text}`;
      // Working from the onset of the busy spell the turn's request falls in (a loaded CLI
      // may blink busy/idle before the turn really starts), or the next onset.
      const seen = !busy
        ? null
        : busyOnset ?? await waitFor((sc, title) => isBusy(sc, title), 20000, "working indicator");
      if (seen) rec.label("working", `${note} (on screen)`, "screen", seen);
      else rec.label("working", note, "driver", at);
    },
    key: (data, note) => send(data, "user", note),
    resize(c, r) {
      if (!pty || exit) return;
      rec.resize(c, r);
      pty.resize(c, r);
      term?.resize(c, r);
    },
    ownTurnEnds: () => void (ownTurnEnds = true),
    labelOnScreen: (state, note, test, ms) => confirm(state, note, test, rec.here(), ms),
    label: (state, note, source, at) => rec.label(state, note, source, at),
    note: (text) => rec.event("note", { note: text }),
    procs: snapshotProcs,
    screenText,
  };

  try {
    spec = await o.agent.setup({
      lab: o.lab,
      mockUrl: mock.url,
      mockPort: mock.port,
      scenario: o.scenario,
      name,
      scriptsDir: SCRIPTS_DIR,
    });
    const env = { ...spec.env, ...o.env };
    rec.writeJson("meta.json", {
      agent: o.agent.id,
      scenario: o.scenario,
      capture: name,
      cols,
      rows,
      answer_osc7501: answer7501,
      osc7501_reply: answer7501 ? OSC7501_QUERY_REPLY : null,
      terminal_replies: termReplies,
      focus_out: o.focusOut ?? false,
      started_epoch_ms: rec.startedEpochMs,
      mock_port: mock.port,
      file: spec.file,
      args: spec.args,
      cwd: spec.cwd,
      env,
      version: spec.version,
      pace,
      tool: "tools/capture (lazyshell)",
    });
    log(`capture ${name}: ${spec.file} ${spec.args.join(" ")} (mock on ${mock.url})`);
    side = new SideChannels(rec, spec, log);

    term = new HeadlessTerminal({
      cols,
      rows,
      scrollback: 2000,
      // HeadlessTerminal answers like a real terminal; the driver decides what reaches the CLI.
      reply(data) {
        if (data === OSC7501_QUERY_REPLY) {
          if (answer7501) send(data, "osc7501-reply", "capture answers the OSC 7501 probe");
          else rec.event("unanswered-osc7501-probe");
        } else if (termReplies) {
          send(data, "terminal-reply", "answer generated by the headless xterm emulator");
        } else {
          rec.event("suppressed-terminal-reply", { text: data });
        }
      },
    });
    term.on((e) => {
      const off = parsing[0]?.off ?? rec.rawLength;
      if (e.type === "osc7501") rec.event("osc7501", { data: e.payload, chunk_end: off });
      else if (e.type === "osc7501-query") rec.event("osc7501", { data: "?", chunk_end: off });
      else if (e.type === "title") rec.event("title", { title: e.title, chunk_end: off });
      else if (e.type === "child-notify" || e.type === "bell") rec.event(e.type, { ...e });
    });

    rec.label("starting", "process spawned; CLI booting", "driver");
    pty = spawnPty({ file: spec.file, args: spec.args, cwd: spec.cwd, env, cols, rows });
    rec.event("spawn", { pid: pty.pid });
    pty.onData((data) => {
      const at = rec.output(data);
      parsing.push(at);
      term?.write(data, () => {
        parsing.shift();
        if (watchers.size === 0 && !o.agent.busyRe) return;
        const screen = screenText();
        const title = term?.title ?? "";
        if (!isBusy(screen, title)) busyOnset = null;
        else busyOnset ??= at;
        for (const w of [...watchers]) if (w.test(screen, title)) w.hit(at);
      });
    });
    pty.onExit((e) => {
      exit = e;
      rec.event("exit", { ...e });
      log(`   child exited ${e.exitCode}/${e.signal}`);
      exited.resolve();
    });

    const hard = Promise.withResolvers<"hard">();
    const hardTimer = setTimeout(() => hard.resolve("hard"), o.hardLimitMs ?? 300000);
    try {
      const outcome = await Promise.race([
        SCENARIO_BODIES[o.scenario](player).then(() => "done" as const),
        hard.promise,
      ]);
      if (outcome === "hard") {
        forced = true;
        log("HARD LIMIT reached");
        rec.event("hard-limit");
      }
    } catch (error) {
      rec.event("scenario-error", { note: String((error as Error)?.stack ?? error) });
      log(String(error));
    } finally {
      clearTimeout(hardTimer);
      stop.abort();
    }
    await quit(pty, o.agent.quitKeys, send, exited.promise, () => exit !== null);
    // The emulator may still hold output; let it finish before the screen is gone.
    await term.flush();
    await sleep(300);
    const home = spec.env.HOME ?? "/nonexistent";
    const left = captureProcesses(null, home);
    if (left.length) {
      Deno.writeTextFileSync(
        `${rec.dir}/procs-after-exit.txt`,
        formatProcs("after-exit", rec.now(), pty.pid, left),
      );
      leftovers = await endProcesses(left.map((p) => p.pid));
      rec.event("cleanup", {
        note: "processes left running after the CLI exited (ended by PID)",
        pids: leftovers,
      });
      log(`   leftover pids ${leftovers.join(" ")}`);
    }
  } finally {
    stop.abort();
    await side?.close();
    if (spec?.configFiles) {
      for (const [file, text] of Object.entries(spec.configFiles)) {
        Deno.writeTextFileSync(`${rec.dir}/${file}`, text);
      }
    }
    await mock.close();
    term?.[Symbol.dispose]();
    rec.finish(name);
  }
  log(`wrote ${rec.dir} (${rec.rawLength} bytes raw)${forced ? " [forced]" : ""}`);
  return { name, dir: rec.dir, rawBytes: rec.rawLength, forced, exit, leftovers };
}
