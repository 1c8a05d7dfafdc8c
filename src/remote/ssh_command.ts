/**
 * The ssh command line for `lazyshell -H DEST …` (docs/remote.md): which ssh
 * (`$LAZYSHELL_SSH`, else `ssh.command` in config.yml, else `ssh`; split into
 * words as a POSIX shell would, without running one, like git's
 * `GIT_SSH_COMMAND`), the destination as ssh takes it (`dev`, `me@box`,
 * `ssh://me@box:2222`), and the remote command, each of our words quoted for
 * the remote shell. Pure.
 *
 * Nothing here reaches a local shell: ssh is run with an argv. A destination
 * that starts with `-` would be read by ssh as an option (`-oProxyCommand=…`)
 * and one with spaces or control characters as more words or terminal
 * escapes: both are refused.
 */

import { UserError } from "../errors.ts";
import { printable } from "../model/printable.ts";

/** Words of a command string: quotes (' and ") and backslashes as sh reads them; no expansion. */
export function splitWords(text: string): string[] {
  const words: string[] = [];
  let word = "";
  let inWord = false;
  for (let i = 0; i < text.length; i++) {
    const c = text[i]!;
    if (c === "'") {
      const end = text.indexOf("'", i + 1);
      if (end === -1) throw new UserError(`Unclosed ' in ssh command: ${printable(text)}`);
      word += text.slice(i + 1, end);
      inWord = true;
      i = end;
    } else if (c === '"') {
      inWord = true;
      let j = i + 1;
      for (; j < text.length && text[j] !== '"'; j++) {
        if (text[j] === "\\" && j + 1 < text.length && '"\\$`\n'.includes(text[j + 1]!)) j++;
        word += text[j];
      }
      if (j >= text.length) throw new UserError(`Unclosed " in ssh command: ${printable(text)}`);
      i = j;
    } else if (c === "\\") {
      if (i + 1 < text.length) word += text[++i];
      inWord = true;
    } else if (c === " " || c === "\t" || c === "\n") {
      if (inWord) words.push(word);
      word = "";
      inWord = false;
    } else {
      word += c;
      inWord = true;
    }
  }
  if (inWord) words.push(word);
  return words;
}

/** One word for the remote POSIX shell: single-quoted unless it is plainly safe. */
export function shellQuote(word: string): string {
  if (/^[A-Za-z0-9_./=:@%+,-]+$/.test(word)) return word;
  return `'${word.replaceAll("'", `'\\''`)}'`;
}

export interface Destination {
  /** ssh's arguments before the remote command: `[-p PORT] [user@]host`. */
  readonly args: readonly string[];
  /** How messages name it: the destination as given (checked printable). */
  readonly label: string;
}

/** `dev`, `me@box`, `ssh://me@box:2222` (the port taken out as `-p`); refuses option-like names. */
export function parseDestination(dest: string): Destination {
  if (dest === "") throw new UserError("-H needs a host (dev, me@box, ssh://me@box:2222)");
  if (dest.startsWith("-")) {
    throw new UserError(`Invalid host ${printable(dest)}: it would be read as an ssh option`);
  }
  // deno-lint-ignore no-control-regex -- refusing control characters is the point
  if (/[\x00-\x20\x7f-\x9f]/.test(dest)) {
    throw new UserError(`Invalid host ${printable(JSON.stringify(dest))}: spaces or controls`);
  }
  if (dest.startsWith("ssh://")) {
    const m = /^ssh:\/\/(?:([^@/]+)@)?(\[[^\]/]+\]|[^:/@]+)(?::(\d{1,5}))?\/?$/.exec(dest);
    if (!m || m[2]!.startsWith("-")) {
      throw new UserError(`Invalid ssh URL ${printable(dest)} (ssh://[user@]host[:port])`);
    }
    const host = m[2]!.replace(/^\[(.*)\]$/, "$1");
    const target = m[1] ? `${m[1]}@${host}` : host;
    return { args: [...(m[3] ? ["-p", m[3]] : []), target], label: dest };
  }
  return { args: [dest], label: dest };
}

export interface SshPlan {
  /** argv: ssh's words, `-T`, the destination, then the remote command as one string. */
  readonly argv: readonly string[];
}

/**
 * `ssh [words of the ssh command] -T DEST -- <remote> bridge MODE [-L NAME] [--start]`.
 * `remote` is the remote lazyshell as the user wrote it for the remote shell
 * (`lazyshell`, `~/.deno/bin/lazyshell`): their own words, passed as written;
 * our words after it are quoted.
 */
export function sshArgv(
  ssh: readonly string[],
  dest: Destination,
  remote: string,
  bridge: readonly string[],
): string[] {
  if (ssh.length === 0) {
    throw new UserError("The ssh command is empty (LAZYSHELL_SSH, ssh.command)");
  }
  const command = [remote.trim() || "lazyshell", ...bridge.map(shellQuote)].join(" ");
  return [...ssh, "-T", ...dest.args, command];
}
