/**
 * A plugin tab's lifecycle as a pure state machine (docs/plugin-protocol.md):
 * `step(state, event) → {state, effects}`. host.ts performs the effects
 * (spawn, write, signal, timers) and feeds back what happened; nothing
 * here touches a process, a clock or a stream.
 *
 *   starting ──manifest──▶ running ──stop──▶ stopping ──exited──▶ stopped
 *       │                     │                  (EOF; SIGTERM after STDIN_GRACE_MS;
 *       └──── failure ────────┴──▶ failed          SIGKILL KILL_AFTER_MS later)
 *
 * A failure (no manifest in time, a bad line, a full queue, an unexpected
 * exit) keeps its reason in `error`; the host adds the stderr tail. Only
 * `reload` (a new generation) leaves `failed`.
 */

import { HANGUP_MS } from "../model/teardown.ts";
import {
  type ExecRequest,
  type Frame,
  GLOBAL_KEYS,
  HOST_V1_TYPES,
  type HostMessage,
  type HostRequest,
  isRequest,
  KILL_AFTER_MS,
  type Manifest,
  MANIFEST_TIMEOUT_MS,
  type PluginMessage,
  subscriptionFor,
  subscriptionsOf,
} from "./protocol.ts";

/** After stdin EOF, a plugin has this long to exit before SIGTERM (model/teardown.ts). */
export const STDIN_GRACE_MS = HANGUP_MS;

export type Phase = "starting" | "running" | "stopping" | "stopped" | "failed";
export type Timer = "manifest" | "term" | "kill";

export interface ExitInfo {
  readonly code: number | null;
  readonly signal: string | null;
}

export interface TabState {
  readonly id: string;
  readonly phase: Phase;
  readonly manifest: Manifest | null;
  readonly frame: Frame | null;
  /** Why the plugin failed (one line), or null. */
  readonly error: string | null;
  /** Set once the process is gone. */
  readonly exit: ExitInfo | null;
  /** Bumped by every (re)start; stale events from an older child are ignored by the host. */
  readonly generation: number;
}

export type LifeEvent =
  | { readonly type: "started" }
  | { readonly type: "spawn_failed"; readonly reason: string }
  | { readonly type: "message"; readonly message: PluginMessage }
  | { readonly type: "bad_line"; readonly reason: string }
  /** lazyshell itself failed while handling the plugin (util/guard.ts): the plugin is failed. */
  | { readonly type: "host_fault"; readonly reason: string }
  | { readonly type: "queue_full"; readonly queued: number }
  | { readonly type: "timeout"; readonly timer: Timer }
  | { readonly type: "exited"; readonly exit: ExitInfo }
  | { readonly type: "stop" };

export type Effect =
  | { readonly type: "send_init" }
  | { readonly type: "start_timer"; readonly timer: Timer; readonly ms: number }
  | { readonly type: "cancel_timer"; readonly timer: Timer }
  | { readonly type: "close_stdin" }
  | { readonly type: "signal"; readonly signal: "SIGTERM" | "SIGKILL" }
  | { readonly type: "kill_leftovers" }
  /** The manifest arrived: extension messages may now flow. */
  | { readonly type: "ready"; readonly manifest: Manifest }
  | { readonly type: "exec"; readonly request: ExecRequest }
  | { readonly type: "request"; readonly request: HostRequest }
  /** Something the tab draws changed. */
  | { readonly type: "changed" };

export interface Step {
  readonly state: TabState;
  readonly effects: readonly Effect[];
}

export function initialState(id: string, generation = 0): TabState {
  return {
    id,
    phase: "starting",
    manifest: null,
    frame: null,
    error: null,
    exit: null,
    generation,
  };
}

const live = (phase: Phase) => phase === "starting" || phase === "running";

function fail(state: TabState, error: string): Step {
  return {
    state: { ...state, phase: "failed", error },
    effects: [
      { type: "cancel_timer", timer: "manifest" },
      { type: "close_stdin" },
      { type: "signal", signal: "SIGTERM" },
      { type: "start_timer", timer: "kill", ms: KILL_AFTER_MS },
      { type: "changed" },
    ],
  };
}

function describeExit(exit: ExitInfo): string {
  if (exit.signal !== null) return `Killed by ${exit.signal}`;
  return `Exited with code ${exit.code}`;
}

function onMessage(state: TabState, message: PluginMessage): Step {
  if (state.phase === "starting") {
    if (message.type !== "manifest") {
      return fail(state, `Expected a manifest as the first line, got "${message.type}"`);
    }
    return {
      state: { ...state, phase: "running", manifest: message },
      effects: [
        { type: "cancel_timer", timer: "manifest" },
        { type: "ready", manifest: message },
        { type: "changed" },
      ],
    };
  }
  if (state.phase !== "running") return { state, effects: [] };
  switch (message.type) {
    case "manifest":
      return {
        state: { ...state, manifest: message },
        effects: [{ type: "ready", manifest: message }, { type: "changed" }],
      };
    case "frame":
      return { state: { ...state, frame: message }, effects: [{ type: "changed" }] };
    case "exec":
      return { state, effects: [{ type: "exec", request: message }] };
    default:
      if (isRequest(message)) return { state, effects: [{ type: "request", request: message }] };
      return { state, effects: [] };
  }
}

export function step(state: TabState, event: LifeEvent): Step {
  switch (event.type) {
    case "started":
      if (state.phase !== "starting") return { state, effects: [] };
      return {
        state,
        effects: [
          { type: "send_init" },
          { type: "start_timer", timer: "manifest", ms: MANIFEST_TIMEOUT_MS },
          { type: "changed" },
        ],
      };
    case "spawn_failed":
      return {
        state: { ...state, phase: "failed", error: `Cannot start: ${event.reason}`, exit: null },
        effects: [{ type: "changed" }],
      };
    case "message":
      return onMessage(state, event.message);
    case "bad_line":
    case "host_fault":
      return live(state.phase) ? fail(state, event.reason) : { state, effects: [] };
    case "queue_full":
      return live(state.phase)
        ? fail(state, `Stopped reading its input (${event.queued} messages queued)`)
        : { state, effects: [] };
    case "timeout":
      return onTimeout(state, event.timer);
    case "exited":
      return onExit(state, event.exit);
    case "stop":
      if (!live(state.phase)) return { state, effects: [] };
      return {
        state: { ...state, phase: "stopping" },
        effects: [
          { type: "cancel_timer", timer: "manifest" },
          { type: "close_stdin" },
          { type: "start_timer", timer: "term", ms: STDIN_GRACE_MS },
          { type: "changed" },
        ],
      };
  }
}

function onTimeout(state: TabState, timer: Timer): Step {
  if (state.exit !== null) return { state, effects: [] };
  switch (timer) {
    case "manifest":
      return state.phase === "starting"
        ? fail(state, `No manifest within ${MANIFEST_TIMEOUT_MS / 1000} s of init`)
        : { state, effects: [] };
    case "term":
      return {
        state,
        effects: [
          { type: "signal", signal: "SIGTERM" },
          { type: "start_timer", timer: "kill", ms: KILL_AFTER_MS },
        ],
      };
    case "kill":
      return { state, effects: [{ type: "signal", signal: "SIGKILL" }] };
  }
}

function onExit(state: TabState, exit: ExitInfo): Step {
  const cleanup: Effect[] = [
    { type: "cancel_timer", timer: "manifest" },
    { type: "cancel_timer", timer: "term" },
    { type: "cancel_timer", timer: "kill" },
    { type: "kill_leftovers" },
    { type: "changed" },
  ];
  if (live(state.phase)) {
    return {
      state: { ...state, phase: "failed", error: describeExit(exit), exit },
      effects: cleanup,
    };
  }
  if (state.phase === "stopping") {
    return { state: { ...state, phase: "stopped", exit }, effects: cleanup };
  }
  return { state: { ...state, exit }, effects: cleanup };
}

/** Whether a key reaches the plugin: global keys only while its last frame captures (P3). */
export function receivesKey(state: TabState, key: string): boolean {
  if (state.phase !== "running") return false;
  return !GLOBAL_KEYS.has(key) || state.frame?.capturing === true;
}

/** Whether this plugin gets a host message: v1 always, extensions only when subscribed. */
export function wants(state: TabState, type: HostMessage["type"]): boolean {
  if (HOST_V1_TYPES.has(type)) return true;
  const needs = subscriptionFor(type);
  if (needs === "request") return true;
  if (state.manifest === null || needs === null) return false;
  return subscriptionsOf(state.manifest).has(needs);
}
