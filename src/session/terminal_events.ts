/**
 * In-band facts a session's emulator reports (docs/architecture.md, Data flow of one session). Bytes never
 * travel as events; only what the OSC handlers and xterm derive from them.
 */

export type Osc133Mark = "A" | "B" | "C" | "D";

export type TerminalEvent =
  | { readonly type: "title"; readonly title: string }
  /** A `state=...` OSC 7501 record, raw payload after `7501;`. */
  | { readonly type: "osc7501"; readonly payload: string }
  /** The program asked `OSC 7501 ; ?`; the reply was already written. */
  | { readonly type: "osc7501-query" }
  | { readonly type: "osc133"; readonly mark: Osc133Mark; readonly exitCode: number | null }
  /** A desktop notification the child wrote (OSC 9 or OSC 777;notify). */
  | {
    readonly type: "child-notify";
    readonly osc: 9 | 777;
    readonly title: string | null;
    readonly body: string;
  }
  | { readonly type: "bell" }
  | { readonly type: "alt-screen"; readonly active: boolean };

export type TerminalListener = (event: TerminalEvent) => void;
