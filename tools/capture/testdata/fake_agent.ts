// deno-lint-ignore-file no-control-regex
/**
 * A tiny agent CLI for the driver's end-to-end test (no real CLI, no network):
 * it probes the terminal like Claude Code (`OSC 7501 ; ?` + DA1 in one
 * write), declares OSC 7501 states only when the probe was answered before
 * the DA1 reply, talks Chat Completions to the mock at $MOCK_URL, and draws:
 *   idle     "❯ " input line, footer "? for shortcuts"
 *   working  streamed text, footer "esc to interrupt" (Esc interrupts)
 *   blocked  "Do you want to proceed?" / "❯ 1. Yes" / "  2. No" (Enter approves, Esc denies)
 * Ctrl+C twice exits.
 */

const enc = new TextEncoder();
const dec = new TextDecoder();
const out = (s: string) => Deno.stdout.writeSync(enc.encode(s));
const MOCK = Deno.env.get("MOCK_URL") ?? "";
const TOOLS = [{
  type: "function",
  function: { name: "bash", parameters: { properties: { command: {} } } },
}];

type Mode = "idle" | "working" | "blocked";
let mode: Mode = "idle";
let declare = false;
let input = "";
let ctrlC = 0;
const transcript: string[] = [];
let messages: Record<string, unknown>[] = [];
let abort: AbortController | null = null;
let pendingCall: { id: string; name: string } | null = null;

function osc7501(state: string) {
  if (declare) out(`\x1b]7501;state=${state}:app=fake-agent\x07`);
}

function draw() {
  const rows = [...transcript.slice(-20), ""];
  if (mode === "blocked") {
    rows.push(" Bash command", "   touch lab-file.txt", " Do you want to proceed?");
    rows.push(" ❯ 1. Yes", "   2. No", " Esc to cancel");
  } else {
    rows.push("────────", `❯ ${input}`, "────────");
    rows.push(mode === "working" ? "  ✻ Working… · esc to interrupt" : "  ? for shortcuts");
  }
  out("\x1b[H\x1b[2J" + rows.join("\r\n"));
}

function setMode(next: Mode) {
  mode = next;
  osc7501(next === "working" ? "working" : next === "blocked" ? "blocked:kind=permission" : "idle");
  draw();
}

async function turn() {
  setMode("working");
  transcript.push("● ");
  abort = new AbortController();
  try {
    const res = await fetch(`${MOCK}/v1/chat/completions`, {
      method: "POST",
      body: JSON.stringify({ model: "mock-model", stream: true, tools: TOOLS, messages }),
      signal: abort.signal,
    });
    let buf = "";
    let text = "";
    for await (const part of res.body!.pipeThrough(new TextDecoderStream())) {
      buf += part;
      let i: number;
      while ((i = buf.indexOf("\n\n")) >= 0) {
        const data = buf.slice(0, i).replace(/^data: /, "");
        buf = buf.slice(i + 2);
        if (data === "[DONE]") continue;
        const delta = JSON.parse(data).choices[0]?.delta ?? {};
        if (delta.content) {
          text += delta.content;
          transcript[transcript.length - 1] = `● ${text}`.replaceAll("\n", " ");
          draw();
        }
        const call = delta.tool_calls?.[0];
        if (call) pendingCall = { id: call.id, name: call.function.name };
      }
    }
    messages.push({ role: "assistant", content: text });
    if (pendingCall) {
      setMode("blocked");
    } else {
      transcript.push("✻ Worked for 1s");
      osc7501("done");
      mode = "idle";
      draw();
    }
  } catch {
    transcript.push("  ⎿  Interrupted · What should Claude do instead?");
    setMode("idle");
  } finally {
    abort = null;
  }
}

function key(k: string) {
  if (k === "\x03") {
    if (++ctrlC >= 2) {
      osc7501("clear");
      Deno.exit(0);
    }
    return;
  }
  ctrlC = 0;
  if (mode === "working" && k === "\x1b") abort?.abort();
  else if (mode === "blocked" && (k === "\r" || k === "\x1b")) {
    const call = pendingCall!;
    pendingCall = null;
    if (k === "\x1b") {
      transcript.push("  ⎿  Interrupted · What should Claude do instead?");
      setMode("idle");
      return;
    }
    messages.push({
      role: "assistant",
      tool_calls: [{ id: call.id, function: { name: call.name } }],
    });
    messages.push({ role: "tool", tool_call_id: call.id, content: "" });
    turn();
  } else if (mode === "idle") {
    if (k === "\r") {
      transcript.push(`> ${input}`);
      messages = [{ role: "user", content: input }];
      input = "";
      turn();
    } else if (!k.startsWith("\x1b")) {
      input += k;
      draw();
    }
  }
}

/** Like Claude Code: 7501 probe + DA1; the probe counts only if answered before DA1. */
async function probe(): Promise<string> {
  out("\x1b]7501;?\x07\x1b[c");
  let got = "";
  const timeout = new Promise<null>((r) => setTimeout(() => r(null), 1000));
  while (!/\x1b\[\?[\d;]*c/.test(got)) {
    const next = await Promise.race([nextRead(), timeout]);
    if (next === null) break;
    pending = null;
    if (next.done) break;
    got += dec.decode(next.value);
  }
  const da1 = got.search(/\x1b\[\?[\d;]*c/);
  const reply = got.indexOf("\x1b]7501;?");
  declare = reply >= 0 && (da1 < 0 || reply < da1);
  return got.replace(/\x1b\][^\x07\x1b]*(\x07|\x1b\\)|\x1b\[\?[\d;]*c/g, "");
}

Deno.stdin.setRaw(true);
const reader = Deno.stdin.readable.getReader();
// One read in flight at a time: a read that lost a race to the probe's timeout is reused.
let pending: Promise<ReadableStreamReadResult<Uint8Array>> | null = null;
const nextRead = () => (pending ??= reader.read());
const early = await probe();
out("\x1b]0;✳ Fake Agent\x07");
setMode("idle");
for (const ch of early) key(ch);
while (true) {
  const { value, done } = await nextRead();
  pending = null;
  if (done) break;
  const text = dec.decode(value);
  // A lone Esc is a key; anything longer starting with ESC is a sequence (ignored).
  if (text.startsWith("\x1b")) key(text === "\x1b" ? "\x1b" : text);
  else for (const ch of text) key(ch);
}
