/**
 * What a SessionDetector (session_detector.ts) is given: the session it reads
 * (a live Session, or a capture being replayed: DetectedSession), and the
 * context every detector shares — the catalog, the clock and the scheduler
 * its timers run on, the schedule's times, and the sink its events go to.
 * The schedule's defaults are here, once, for the hub and for replay.
 */

import type { DetectionEvent } from "../model/events.ts";
import type { SessionStatus } from "../model/session.ts";
import type { ProcessInfo, ScreenView } from "../model/snapshot.ts";
import type { AgentIdentity } from "../session/identity.ts";
import type { SessionEvent } from "../session/session_events.ts";
import { MID_UPDATE_MAX_MS } from "../session/terminal.ts";
import type { Scheduler } from "../util/ticker.ts";
import type { Catalog } from "./catalog.ts";

/** The schedule's defaults (docs/detection.md, Scheduling): one place, live and in replay. */
export const SETTLE_MS = 30;
export const MAX_WAIT_MS = 100;

/** What a detector reads of its session: a live Session, or a capture being replayed. */
export interface DetectedSession {
  readonly id: string;
  readonly pid: number;
  readonly status: SessionStatus;
  /** Output written and not yet on screen (not read from the PTY, or not parsed). */
  readonly outputBehind: boolean;
  /** Inside a synchronized update: the screen is a frame half drawn. */
  readonly midUpdate: boolean;
  screenView(): ScreenView;
  /** Its environment: a usage limit's reset printed with no zone is in its `TZ` (docs/limits.md). */
  readonly env?: Readonly<Record<string, string>>;
  /** The foreground process while running (S4), or null. */
  foreground(): ProcessInfo | null;
  on(listener: (e: SessionEvent) => void): Disposable;
}

/** What every session's detector shares: the catalog, the clock and the sink. */
export interface DetectorContext {
  /** Replaced by a reload (DetectionHub.setCatalog), then catalogChanged() on each detector. */
  catalog: Catalog;
  identities: readonly AgentIdentity[];
  /** The detector's clock (ms): timers are measured and states stamped with it. */
  readonly now: () => number;
  /** Where its timers run: the process's ticker live, one on a virtual clock in replay. */
  readonly scheduler: Scheduler;
  readonly settleMs: number;
  readonly maxWaitMs: number;
  readonly midUpdateMaxMs: number;
  /** Into the runtime's reducer (or a replay's). */
  emit(e: DetectionEvent): void;
  /** After every classification (replay's points; nothing live). */
  readonly classified?: (id: string) => void;
  /** The wall clock (epoch ms) at a time of `now` (replay: the capture's start plus it). */
  readonly epochAt?: (now: number) => number;
  /** The zone of a reset printed with none, when the session's env has no `TZ` (replay). */
  readonly timeZone?: string;
}

export interface DetectorOptions {
  readonly now: () => number;
  readonly scheduler: Scheduler;
  /** Quiet time after output before classifying (default SETTLE_MS). */
  readonly settleMs?: number;
  /** Longest delay between output and a classification under steady output (default MAX_WAIT_MS). */
  readonly maxWaitMs?: number;
  /** Longest hold on a half-drawn frame (default MID_UPDATE_MAX_MS; tests lengthen it). */
  readonly midUpdateMaxMs?: number;
  readonly classified?: (id: string) => void;
  readonly epochAt?: (now: number) => number;
  readonly timeZone?: string;
}

/** The context with the schedule's defaults filled in. */
export function detectorContext(
  catalog: Catalog,
  emit: (e: DetectionEvent) => void,
  options: DetectorOptions,
): DetectorContext {
  return {
    catalog,
    identities: catalog.identities(),
    now: options.now,
    scheduler: options.scheduler,
    settleMs: options.settleMs ?? SETTLE_MS,
    maxWaitMs: options.maxWaitMs ?? MAX_WAIT_MS,
    midUpdateMaxMs: options.midUpdateMaxMs ?? MID_UPDATE_MAX_MS,
    emit,
    ...(options.classified ? { classified: options.classified } : {}),
    ...(options.epochAt ? { epochAt: options.epochAt } : {}),
    ...(options.timeZone ? { timeZone: options.timeZone } : {}),
  };
}
