/**
 * The screens this client shows (the selected session's, or every tile's):
 * one reader per shown session, kept between frames so each frame reads
 * only the rows redrawn since the last one (src/session/screen_read.ts),
 * into the grid it read last time. Readers of sessions no longer shown go.
 * A frame half drawn inside a synchronized update is not shown (#hold).
 */

import { Frame } from "./core/frame.ts";
import type { ScreenReader } from "../session/screen_read.ts";
import type { Session } from "../session/session.ts";
import { MID_UPDATE_MAX_MS } from "../session/terminal.ts";
import type { TuiState } from "../model/tui.ts";
import { isTiled } from "./core/view/tiles.ts";
import { tiles } from "./core/view/tiles_layout.ts";

interface Shown {
  readonly session: Session;
  readonly reader: ScreenReader<Frame>;
  grid: Frame | null;
  offset: number;
  /** Since when the grid has been held for a synchronized update, or null. */
  heldSince: number | null;
}

export interface Read {
  readonly grid: Frame;
  /** Rows read again [from, to); null: all of them. */
  readonly rows: readonly [number, number] | null;
}

/** What one frame shows of the sessions (Screens.forFrame). */
export interface FrameScreens {
  /** The selected session's screen (not tiled). */
  readonly screen: Frame | null;
  /** Its rows read again [from, to); null: all of them. */
  readonly rows: readonly [number, number] | null;
  /** Every tile's screen, drawn whole (tiled). */
  readonly tiles?: Map<string, Frame | null>;
}

export class Screens implements Disposable {
  readonly #get: (id: string) => Session | undefined;
  readonly #shown = new Map<string, Shown>();

  constructor(get: (id: string) => Session | undefined) {
    this.#get = get;
  }

  /** Readers of every session but `ids` are dropped. */
  keep(ids: readonly string[]): void {
    for (const [id, shown] of this.#shown) {
      if (!ids.includes(id)) {
        shown.reader[Symbol.dispose]();
        this.#shown.delete(id);
      }
    }
  }

  /**
   * The screens a frame of state `s` shows: every tile's (docs/tui.md,
   * Several at once), or the selected session's; none on a plugin tab.
   * Readers of sessions no longer shown go.
   */
  forFrame(s: TuiState): FrameScreens {
    if (s.tab !== 0 || !s.selected) return { screen: null, rows: null };
    if (isTiled(s)) {
      const ids = tiles(s).map((t) => t.id);
      this.keep(ids);
      const grids = ids.map((id) => [id, this.read(id, s.scroll[id] ?? 0)?.grid ?? null] as const);
      return { screen: null, rows: null, tiles: new Map(grids) };
    }
    this.keep([s.selected]);
    const read = this.read(s.selected, s.scroll[s.selected] ?? 0);
    return { screen: read?.grid ?? null, rows: read?.rows ?? null };
  }

  /** The grid session `id`'s screen was last read into, or null. */
  last(id: string): Frame | null {
    return this.#shown.get(id)?.grid ?? null;
  }

  /** Session `id`'s screen `offset` lines up its scrollback, or null when it is gone. */
  read(id: string, offset: number): Read | null {
    const session = this.#get(id);
    if (!session) return null;
    let shown = this.#shown.get(id);
    // By object, not id: a respawned session (`W`) has a new emulator under the same id.
    if (shown?.session !== session) {
      shown?.reader[Symbol.dispose]();
      shown = {
        session,
        reader: session.screenReader((cols, rows) => new Frame(cols, rows)),
        grid: null,
        offset,
        heldSince: null,
      };
      this.#shown.set(id, shown);
    }
    const grid = shown.grid;
    const same = grid && grid.cols === session.cols && grid.rows === session.rows;
    if (same && offset === shown.offset && this.#hold(shown)) {
      return { grid, rows: [0, 0] };
    }
    const read = shown.reader.read(offset, shown.grid);
    shown.grid = read.grid;
    shown.offset = offset;
    return { grid: read.grid, rows: read.rows };
  }

  /**
   * The program is drawing a frame inside a synchronized update: the last
   * complete one stays on show until the update ends, as a terminal does,
   * at most MID_UPDATE_MAX_MS. The rows it redraws meanwhile are read after.
   */
  #hold(shown: Shown): boolean {
    if (!shown.session.midUpdate) {
      shown.heldSince = null;
      return false;
    }
    const now = performance.now();
    shown.heldSince ??= now;
    return now - shown.heldSince < MID_UPDATE_MAX_MS;
  }

  [Symbol.dispose](): void {
    this.keep([]);
  }
}
