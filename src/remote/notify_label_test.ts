import assert from "node:assert/strict";
import { hostBytes } from "../notify/policy.ts";
import { labelNotifications, notifyLabel } from "./notify_label.ts";

const enc = (s: string) => new TextEncoder().encode(s);
const dec = (b: Uint8Array) => new TextDecoder().decode(b);

Deno.test("labelNotifications: the host before the body (OSC 9) and the title (OSC 777), tmux-wrapped too", () => {
  const label = notifyLabel("dev");
  const plain = hostBytes("api: needs you — Apply?", false);
  assert.equal(
    dec(labelNotifications(enc(`\x1b[2;3Hx${plain}\x1b[0m`), label)),
    "\x1b[2;3Hx\x1b]9;dev: api: needs you — Apply?\x07" +
      "\x1b]777;notify;dev: lazyshell;api: needs you — Apply?\x07\x1b[0m",
  );
  const wrapped = dec(labelNotifications(enc(hostBytes("api: done", true)), label));
  assert.ok(wrapped.includes("\x1b\x1b]9;dev: api: done"), JSON.stringify(wrapped));
  assert.ok(wrapped.includes("\x1b\x1b]777;notify;dev: lazyshell;"), JSON.stringify(wrapped));
  // No notification: the very same bytes.
  const frame = enc("\x1b[H\x1b]0;title\x07hello");
  assert.equal(labelNotifications(frame, label), frame);
});

Deno.test("notifyLabel: escapes shown as text, no ; to shift OSC 777's fields", () => {
  assert.equal(dec(notifyLabel("me@box;x\x1b]")), "me@box,x\\x1b]: ");
});
