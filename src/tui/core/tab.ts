/**
 * A tab beside Sessions (T1, P7): what the TUI needs from a plugin tab.
 * The plugin host implements it; the TUI draws `render()` in the body and
 * routes keys, pastes and mouse events to the active tab. Pure interface.
 *
 * Global keys (`q ? : tab shift+tab 1-9`) reach the tab only while
 * `capturing` is true (P3); every other key goes to the tab.
 */

import type { StyledLine } from "./frame.ts";
import type { KeyEvent } from "./keys.ts";

export interface TabMouse {
  readonly kind: "wheel" | "click";
  /** Tab-relative cell. */
  readonly x: number;
  readonly y: number;
  /** Click: 0 left, 1 middle, 2 right; wheel: -1 up, 1 down. */
  readonly button: number;
}

export interface TabCommand {
  readonly name: string;
  readonly help: string;
}

export interface Tab {
  readonly id: string;
  /** At most 40 characters (P3 manifest title). */
  readonly title: string;
  readonly capturing: boolean;
  /** Palette commands the tab offers (`:name`). */
  readonly commands: readonly TabCommand[];
  /** The tab's content, clipped by the host to width x height. */
  render(width: number, height: number): readonly StyledLine[];
  key(key: KeyEvent): void;
  paste(text: string): void;
  mouse(event: TabMouse): void;
  command(name: string): void;
  /** The tab area changed size. */
  resize(width: number, height: number): void;
  /** Fires when the tab's content or title changed (the host redraws). */
  onChange(listener: () => void): Disposable;
}
