/** Regenerates the Keys section of README.md from src/tui/core/keymap.ts: `deno run -A tools/readme_keys.ts`. */

import { withKeysSection } from "../src/tui/core/keymap.ts";

const file = new URL("../README.md", import.meta.url);
const text = Deno.readTextFileSync(file);
const next = withKeysSection(text);
if (next !== text) Deno.writeTextFileSync(file, next);
console.log(
  next === text ? "README.md Keys section is up to date" : "README.md Keys section updated",
);
