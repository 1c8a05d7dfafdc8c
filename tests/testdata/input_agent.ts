/**
 * A fake agent with an input box, for `ctl send` receipts. It draws like
 * Claude Code (input box between two rules, "? for shortcuts"; working:
 * "esc to interrupt") and is copied to `claude.ts` so that lazyshell
 * identifies it. How it treats Enter is $MODE:
 *
 *   submit  takes the text: clears the box and works
 *   clear   clears the box, nothing else on screen changes
 *   paste   the first Enter is a newline inside the text (as in a paste burst),
 *           the second one submits
 *   stuck   never takes it
 *   blip    never takes it, but shows itself working for a moment at each Enter (Codex
 *           declares such a blip while it starts)
 *   starting  ignores Enter for $STARTING_MS after it drew its idle screen, with nothing on
 *           screen to say so (Codex offline, while its start-up waits on the network), then
 *           takes the text as `submit` does
 *
 *   deno run -A claude.ts LOG      (every read from stdin is appended to LOG)
 */

const log = Deno.openSync(Deno.args[0]!, { create: true, append: true });
const mode = Deno.env.get("MODE") ?? "submit";
const startedAt = performance.now();
const starting = () =>
  mode === "starting" && performance.now() - startedAt < Number(Deno.env.get("STARTING_MS") ?? 0);
const enc = new TextEncoder();
const rule = "─".repeat(60);
let text = "";
let enters = 0;

function draw(working: boolean, lines: string[]) {
  const footer = working ? "  esc to interrupt" : "  ? for shortcuts";
  const body = working ? ["✻ Whirring… (1s)", ""] : [];
  const out = ["\x1b[H\x1b[2J", "Claude Code v2.1.332", "", ...body, rule, ...lines, rule, footer];
  Deno.stdout.writeSync(enc.encode(out.join("\r\n")));
}

const box = () => [`❯ ${text}`, ...(enters > 0 && mode === "paste" ? ["  "] : [])];
Deno.stdin.setRaw(true);
draw(false, box());
const buf = new Uint8Array(1024);
for (;;) {
  const n = await Deno.stdin.read(buf);
  if (n === null) break;
  const data = new TextDecoder().decode(buf.subarray(0, n));
  log.writeSync(enc.encode(JSON.stringify({ data }) + "\n"));
  if (data.startsWith("\x1b[") && data.length > 1) continue; // the terminal's replies
  if (data === "\x03") break;
  if (data !== "\r") {
    text += data;
    draw(false, box());
    continue;
  }
  enters++;
  if (mode === "blip") {
    draw(true, box());
    await new Promise((r) => setTimeout(r, 300));
    draw(false, box());
    continue;
  }
  if (mode === "stuck" || (mode === "paste" && enters === 1) || starting()) {
    draw(false, box());
    continue;
  }
  text = "";
  draw(mode !== "clear", box());
}
