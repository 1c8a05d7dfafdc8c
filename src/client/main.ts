/**
 * argv → client (`lazyshell`, `lazyshell --project FILE`, `attach`, `ls`,
 * `kill-server`, `restore`, `reload`), parsed here with no commander: the client must start in
 * about a bare Deno start-up. `-L NAME` was already taken off by main.ts.
 */

import { UserError } from "../errors.ts";
import type { ClientOptions } from "./client.ts";
import type { RestoreRequest } from "../wire/protocol.ts";

/** The client command `args` names, or null when it is another command. */
export function clientCommand(args: readonly string[]): Omit<ClientOptions, "version"> | null {
  // `-y`/`--yes` (trust the nearest lazyshell.yml as it is now) may come first.
  if (args[0] === "-y" || args[0] === "--yes") {
    const rest = clientCommand(args.slice(1));
    return rest && rest.start ? { ...rest, yes: true } : null;
  }
  const [first, ...rest] = args;
  if (first === undefined) return { mode: "attach", start: true };
  if (first === "--project" || first.startsWith("--project=")) {
    const project = first === "--project" ? rest[0] : first.slice("--project=".length);
    const extra = first === "--project" ? rest.slice(1) : rest;
    if (!project) throw new UserError("--project needs a file");
    if (extra.length > 0) throw new UserError(`Unexpected argument: ${extra[0]}`);
    return { mode: "attach", start: true, project };
  }
  if (first === "restore") {
    if (rest.some((a) => a === "-h" || a === "--help")) return null;
    return { mode: "restore", start: true, restore: restoreArgs(rest) };
  }
  if (first === "web") {
    if (rest.some((a) => a === "-h" || a === "--help")) return null;
    const unknown = rest.find((a) => a !== "--rotate" && a !== "--off");
    if (unknown !== undefined) {
      throw new UserError(`Unknown option for web: ${unknown} (expected --rotate, --off)`);
    }
    return {
      mode: "web",
      start: false,
      web: { rotate: rest.includes("--rotate"), off: rest.includes("--off"), qr: false },
    };
  }
  if (first === "attach" && (rest[0] === "-t" || rest[0]?.startsWith("-t"))) {
    // `attach -t TARGET`, as tmux: that session shown first (an id or a name).
    const target = rest[0] === "-t" ? rest[1] : rest[0].slice(2);
    const extra = rest.slice(rest[0] === "-t" ? 2 : 1);
    if (!target) throw new UserError("-t needs a session (an id or a name)");
    if (extra.length > 0) throw new UserError(`Unexpected argument for attach: ${extra[0]}`);
    return { mode: "attach", start: false, select: target };
  }
  if (first === "attach" || first === "ls" || first === "kill-server" || first === "reload") {
    if (rest.some((a) => a === "-h" || a === "--help")) return null; // commander prints the help
    if (rest.length > 0) throw new UserError(`Unexpected argument for ${first}: ${rest[0]}`);
    return { mode: first, start: false };
  }
  return null;
}

/** `restore [--all|--forget] [NAME...]` (docs/restore.md). */
function restoreArgs(args: readonly string[]): RestoreRequest {
  let all = false;
  let forget = false;
  const names: string[] = [];
  let optionsEnded = false;
  for (const arg of args) {
    if (!optionsEnded && arg === "--") optionsEnded = true;
    else if (!optionsEnded && arg === "--all") all = true;
    else if (!optionsEnded && arg === "--forget") forget = true;
    else if (!optionsEnded && arg.startsWith("-")) {
      throw new UserError(`Unknown option for restore: ${arg} (expected --all, --forget, names)`);
    } else names.push(arg);
  }
  if (all && names.length > 0) throw new UserError("restore takes --all or names, not both");
  return { all, forget, names };
}

/** `-L NAME` or `-LNAME` in front: which server; null when absent. */
export function serverFlag(args: readonly string[]): { name: string | null; rest: string[] } {
  const [first, second, ...rest] = args;
  if (first === "-L") {
    if (second === undefined) throw new UserError("-L needs a server name");
    return { name: second, rest };
  }
  if (first?.startsWith("-L") && first.length > 2) {
    return { name: first.slice(2), rest: second === undefined ? rest : [second, ...rest] };
  }
  return { name: null, rest: [...args] };
}
