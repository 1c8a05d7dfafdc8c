/**
 * Fault injection, for tests only (docs/architecture.md, "A failure ends its
 * owner, never its neighbours"): `LAZYSHELL_FAULT`, read once when a server
 * starts, makes chosen entry points throw, so that tests/fault_isolation_test.ts
 * can check that each failure ends its owner and nothing else. Nobody sets it
 * otherwise; unset, each point costs one null check (`faults?.hit(...)`).
 *
 * `LAZYSHELL_FAULT=POINT:TARGET[:COUNT],...`: POINT is where the throw is
 * (FAULT_POINTS), TARGET the owner it hits (`client-2`, `session-1`, a
 * control verb, a plugin id; `*` any), COUNT how many times (default: every
 * time).
 */

import { UserError } from "../errors.ts";

export const FAULT_POINTS = {
  /** A client's frame, inside its renderer's draw (target: client id). */
  draw: "a client's frame",
  /** A client's typed bytes, inside TuiApp.feed (target: client id). */
  input: "a client's input",
  /** A client's listener of the sessions' output (target: client id). */
  listener: "a session output listener",
  /** A control verb, inside its answer (target: verb name). */
  verb: "a control verb",
  /** A plugin's message, inside its handling (target: plugin id). */
  plugin: "a plugin's message",
  /** A hook message, inside its handling (target: session id). */
  hook: "a hook connection",
  /** A session's detection timer, inside its settle check (target: session id). */
  timer: "a timer",
} as const;

export type FaultPoint = keyof typeof FAULT_POINTS;

/** The error an armed point throws. */
export class InjectedFault extends Error {
  override readonly name = "InjectedFault";
}

interface Armed {
  readonly point: FaultPoint;
  readonly target: string;
  left: number;
}

export class Faults {
  readonly #armed: readonly Armed[];

  constructor(armed: readonly Armed[]) {
    this.#armed = armed;
  }

  /** Throws an InjectedFault when `point` is armed for `target` (and has throws left). */
  hit(point: FaultPoint, target: string): void {
    for (const a of this.#armed) {
      if (a.point !== point || (a.target !== "*" && a.target !== target) || a.left <= 0) continue;
      a.left--;
      throw new InjectedFault(`${point} in ${target} (LAZYSHELL_FAULT, tests only)`);
    }
  }
}

/** The armed points (null: none, always outside tests). */
export let faults: Faults | null = null;

/** Reads the switch (a bad one is a UserError naming the grammar); empty or undefined: none. */
export function armFaults(spec: string | undefined): void {
  faults = spec ? new Faults(parseFaults(spec)) : null;
}

export function parseFaults(spec: string): Armed[] {
  return spec.split(",").map((item) => {
    const [point, target, count, ...rest] = item.trim().split(":");
    const counted = count === undefined || /^[1-9][0-9]*$/.test(count);
    if (!point || !(point in FAULT_POINTS) || !target || rest.length > 0 || !counted) {
      throw new UserError(
        `Bad LAZYSHELL_FAULT item ${JSON.stringify(item)} (tests only: POINT:TARGET[:COUNT], ` +
          `POINT one of ${Object.keys(FAULT_POINTS).join(", ")})`,
      );
    }
    return { point: point as FaultPoint, target, left: count ? Number(count) : Infinity };
  });
}
