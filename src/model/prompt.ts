/**
 * What a blocked agent asks and how to answer it (docs/manifests.md
 * "Prompts"): read from the screen by src/detect/prompt.ts, kept in the
 * session's view, answered by `ctl answer` (src/control/answer.ts). Plain
 * data only.
 */

export interface PromptOption {
  /** As on screen, without its number, selection marker or key hint. */
  readonly label: string;
  /** Key names to press in order (KEY_NAMES or one character): `["1"]`, `["Down", "Enter"]`. */
  readonly keys: readonly string[];
}

export interface Prompt {
  readonly question: string;
  /** What it is about (the command, the file), or the agent's declared message; null if neither. */
  readonly subject: string | null;
  readonly options: readonly PromptOption[];
  /** Keys that cancel (dismiss) the prompt when the screen offers it, else null. */
  readonly cancel: readonly string[] | null;
  /** Option number (1-based) that approves / denies, when the reader names one. */
  readonly approve: number | null;
  readonly deny: number | null;
}

/** How a prompt is answered: an option by number, or the reader's approve / deny. */
export type Choice =
  | { readonly type: "option"; readonly n: number }
  | { readonly type: "approve" }
  | { readonly type: "deny" };

/** Key names a prompt may use besides single printable characters. */
export const KEY_NAMES = ["Enter", "Esc", "Tab", "Up", "Down", "Left", "Right"] as const;

/** Same question and the same option labels: the prompt someone read is still there. */
export function samePrompt(a: Prompt | null, b: Prompt | null): boolean {
  if (a === null || b === null) return a === b;
  return a.question === b.question && a.options.length === b.options.length &&
    a.options.every((o, i) => o.label === b.options[i]!.label);
}

/** Every field equal (the selection moved: same prompt, other keys). */
export function equalPrompts(a: Prompt | null, b: Prompt | null): boolean {
  return a === b || JSON.stringify(a) === JSON.stringify(b);
}
