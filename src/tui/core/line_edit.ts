/** Line editing for the TUI's text inputs (input line, palette, forms): pure. */

import type { KeyEvent } from "./keys.ts";

/** Text after a key: printable text appended; backspace, ctrl+u (all), ctrl+w (a word) remove. */
export function edit(text: string, key: Pick<KeyEvent, "name" | "text">): string {
  if (key.name === "backspace" || key.name === "ctrl+h") return [...text].slice(0, -1).join("");
  if (key.name === "ctrl+u") return "";
  if (key.name === "ctrl+w") return text.replace(/\S+\s*$/, "");
  return key.text ? text + key.text : text;
}
