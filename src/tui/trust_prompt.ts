/**
 * The TUI's question about a new or changed ./lazyshell.yml
 * (runtime/project_trust.ts), asked on the plain terminal before anything
 * starts: the splash gives the terminal back, the answer is one line
 * (y/N, no by default), the splash comes back.
 */

import { leaveSplash, showSplash, splashShown } from "./splash.ts";

export function askOnTerminal(summary: string): boolean {
  const splash = splashShown();
  leaveSplash();
  console.log(summary);
  const yes = confirm("Start these sessions?");
  if (splash) showSplash();
  return yes;
}
