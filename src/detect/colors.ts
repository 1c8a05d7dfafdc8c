/**
 * Colour conditions of manifest rules (docs/manifests.md, "Colours"): a
 * colour spec — a name, `default`, `#rrggbb` or a palette index — compiled
 * into a test on a cell's colour (model/cells.ts Color). Names are
 * hue classes, not exact values, so one rule holds across an agent's
 * themes: opencode's error bar is #e06c75 in one theme and palette red in
 * another. Pure.
 */

import { type Color as CellColor, DEFAULT_COLOR, RGB_FLAG } from "../model/cells.ts";

export const COLOR_NAMES = [
  "red",
  "yellow",
  "green",
  "cyan",
  "blue",
  "magenta",
  "white",
  "black",
] as const;
export type ColorName = typeof COLOR_NAMES[number];

export type ColorTest = (c: CellColor) => boolean;

/** Hue classes in 60° steps around the wheel, each centred on its ANSI hue. */
const HUES: readonly ColorName[] = ["red", "yellow", "green", "cyan", "blue", "magenta"];

/** Below this chroma (max − min channel, 0–255) a colour is grey: white or black. */
const GREY_CHROMA = 38;

/** The xterm default palette 0–15. */
const ANSI16 = [
  0x000000,
  0xcd0000,
  0x00cd00,
  0xcdcd00,
  0x0000ee,
  0xcd00cd,
  0x00cdcd,
  0xe5e5e5,
  0x7f7f7f,
  0xff0000,
  0x00ff00,
  0xffff00,
  0x5c5cff,
  0xff00ff,
  0x00ffff,
  0xffffff,
];
const ANSI16_NAMES: readonly ColorName[] = [
  "black",
  "red",
  "green",
  "yellow",
  "blue",
  "magenta",
  "cyan",
  "white",
];
const CUBE = [0, 95, 135, 175, 215, 255];

/** 0xRRGGBB of a cell colour, or null for the default colour. */
export function rgbOf(c: CellColor): number | null {
  if (c === DEFAULT_COLOR || c < 0) return null;
  if (c >= RGB_FLAG) return c & 0xffffff;
  if (c < 16) return ANSI16[c]!;
  if (c < 232) {
    const i = c - 16;
    return (CUBE[Math.floor(i / 36)]! << 16) | (CUBE[Math.floor(i / 6) % 6]! << 8) | CUBE[i % 6]!;
  }
  const grey = 8 + (c - 232) * 10;
  return (grey << 16) | (grey << 8) | grey;
}

/** The colour class of a cell colour, or null for the default colour. */
export function colorName(c: CellColor): ColorName | null {
  if (c >= 0 && c < 16) return ANSI16_NAMES[c % 8]!; // the terminal's named colours
  const rgb = rgbOf(c);
  if (rgb === null) return null;
  const r = rgb >> 16, g = (rgb >> 8) & 0xff, b = rgb & 0xff;
  const max = Math.max(r, g, b), min = Math.min(r, g, b);
  const chroma = max - min;
  if (chroma < GREY_CHROMA) return max + min >= 255 ? "white" : "black";
  let hue: number;
  if (max === r) hue = ((g - b) / chroma + 6) % 6;
  else if (max === g) hue = (b - r) / chroma + 2;
  else hue = (r - g) / chroma + 4;
  return HUES[Math.round(hue) % 6]!;
}

/**
 * Compiles one colour spec; throws an Error with the reason when it is not
 * one (the manifest parser turns it into a ManifestError).
 */
export function colorTest(spec: string | number): ColorTest {
  if (typeof spec === "number") {
    if (!Number.isInteger(spec) || spec < 0 || spec > 255) {
      throw new Error(`Palette index ${spec} is not 0–255`);
    }
    return (c) => c === spec;
  }
  if (spec === "default") return (c) => c === DEFAULT_COLOR;
  const hex = /^#([0-9a-fA-F]{6})$/.exec(spec);
  if (hex) {
    const want = parseInt(hex[1]!, 16);
    return (c) => rgbOf(c) === want;
  }
  if ((COLOR_NAMES as readonly string[]).includes(spec)) return (c) => colorName(c) === spec;
  throw new Error(
    `Unknown colour "${spec}" (a name: ${COLOR_NAMES.join(", ")}; default; #rrggbb; or 0–255)`,
  );
}

/** One test for a spec or a list of specs (any of them). */
export function colorsTest(spec: string | number | readonly (string | number)[]): ColorTest {
  if (!Array.isArray(spec)) return colorTest(spec as string | number);
  const tests = (spec as readonly (string | number)[]).map(colorTest);
  return (c) => tests.some((t) => t(c));
}
