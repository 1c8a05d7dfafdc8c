/**
 * A fake Claude Code resumed on an earlier conversation (`claude --resume`):
 * it starts by drawing that conversation's last turn, complete
 * ("✻ Worked for 26s"), over its idle input box. Any key starts a turn of
 * its own: "esc to interrupt" for a second, then its own completion line.
 * Copied to `claude.ts` so that lazyshell identifies it as Claude Code.
 */

const enc = new TextEncoder();
const write = (s: string) => Deno.stdout.writeSync(enc.encode(s));
const rule = "─".repeat(60);
const screen = (last: string) =>
  write(
    "\x1b[2J\x1b[H ▐▛███▜▌   Claude Code v2.1.332\r\n\r\n" +
      "❯ LAB-TOOL: an earlier prompt\r\n\r\n● Done: an earlier answer.\r\n\r\n" +
      `${last}\r\n\r\n${rule}\r\n❯ \r\n${rule}\r\n  ? for shortcuts\r\n`,
  );

Deno.stdin.setRaw(true);
screen("✻ Worked for 26s · done 5:13 PM");
const buf = new Uint8Array(1024);
while (true) {
  const n = await Deno.stdin.read(buf);
  if (n === null) break;
  write(
    "\x1b[2J\x1b[H ▐▛███▜▌   Claude Code v2.1.332\r\n\r\n❯ a new prompt\r\n\r\n" +
      `✽ Thinking… (1s · esc to interrupt)\r\n\r\n${rule}\r\n❯ \r\n${rule}\r\n` +
      "  esc to interrupt\r\n",
  );
  await new Promise((r) => setTimeout(r, 1500));
  screen("✻ Worked for 2s · done 5:20 PM");
}
