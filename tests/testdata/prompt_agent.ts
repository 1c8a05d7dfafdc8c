/**
 * A fake agent for `ctl answer` tests: it draws a real captured prompt by
 * replaying a capture's bytes up to a blocked offset, then reacts to keys
 * like the agent would. Copied to `claude.ts` / `codex.ts` / `opencode.ts`
 * so that lazyshell identifies it as that agent (deno + script name).
 *
 *   deno run -A claude.ts CAPTURE_DIR OFFSET LOG [CHANGE_DIR CHANGE_OFFSET]
 *
 * Every key (not the terminal's own replies) is appended to LOG as a JSON
 * line `{"key": "..."}`. Arrows only move nothing; any other key answers:
 * the prompt is erased (and, if the capture declared its state over OSC
 * 7501, `working` is declared), unless $IGNORE_KEYS is set. SIGUSR1 redraws
 * the screen with another capture's prompt (a prompt that changed).
 */

const [dir, offset, log, changeDir, changeOffset] = Deno.args;
const enc = new TextEncoder();
const dec = new TextDecoder();
const logFile = Deno.openSync(log!, { create: true, append: true });
const record = (o: unknown) => logFile.writeSync(enc.encode(JSON.stringify(o) + "\n"));

function write(data: Uint8Array | string) {
  const bytes = typeof data === "string" ? enc.encode(data) : data;
  let done = 0;
  while (done < bytes.length) done += Deno.stdout.writeSync(bytes.subarray(done));
}

// Listening before anything is drawn: a SIGUSR1 sent once the prompt shows must not kill us.
if (changeDir !== undefined) {
  Deno.addSignalListener("SIGUSR1", async () => {
    write("\x1b[2J\x1b[3J\x1b[H");
    // Only the screen changes: the other capture's OSC 7501 declarations are left out, so
    // that the session stays blocked on a different prompt whenever it is read.
    const bytes = Deno.readFileSync(`${changeDir}/output.raw`).subarray(0, Number(changeOffset));
    // deno-lint-ignore no-control-regex -- OSC 7501 records are the subject
    const text = dec.decode(bytes).replace(/\x1b\]7501;[^\x07\x1b]*(?:\x07|\x1b\\)/g, "");
    // Drawn in two writes with a pause, as agents redraw (and as a loaded machine delivers a
    // PTY's bytes): the question shows before its options do, and a test must wait for both.
    const question = text.indexOf("\n", text.search(/\w\?/)) + 1;
    write(text.slice(0, question));
    await new Promise((r) => setTimeout(r, 300));
    write(text.slice(question));
    record({ changed: true });
  });
}

const prompt = Deno.readFileSync(`${dir}/output.raw`).subarray(0, Number(offset));
const declares = dec.decode(prompt).includes("\x1b]7501;state=");
Deno.stdin.setRaw(true);
write(prompt);
record({ drawn: true });

// deno-lint-ignore no-control-regex
const ARROWS = /^\x1b[[O][A-D]$/;
/**
 * What the terminal answers to queries in the replayed bytes: OSC and DCS
 * strings, and CSI reports (DA1/DA2 `c`, CPR `R`, DSR `n`, DECRPM `$y`).
 * They are taken out of a read, not the read dropped: on a loaded machine
 * the reply to the redrawn prompt's query and the next key arrive in one
 * read (CI lost a key that way).
 */
// deno-lint-ignore no-control-regex
const REPLIES = /\x1b\][^\x07\x1b]*(?:\x07|\x1b\\)|\x1bP[^\x1b]*\x1b\\|\x1b\[[?>]?[\d;]*\$?[cRny]/g;

const buf = new Uint8Array(1024);
for (;;) {
  const n = await Deno.stdin.read(buf);
  if (n === null) break;
  const key = dec.decode(buf.subarray(0, n)).replace(REPLIES, "");
  if (key === "") continue;
  record({ key });
  if (key === "\x03") break;
  if (ARROWS.test(key) || Deno.env.get("IGNORE_KEYS")) continue;
  write(
    (declares ? "\x1b]7501;state=working\x1b\\" : "") +
      `\x1b[2J\x1b[H  answered ${JSON.stringify(key)}\r\n`,
  );
}
