import assert from "node:assert/strict";
import {
  encodeLegacyMouse,
  encodeSgrMouse,
  type InputEvent,
  keyBytes,
  KeyDecoder,
  type KeyEvent,
} from "./keys.ts";

const names = (events: InputEvent[]) => events.map((e) => e.type === "key" ? e.name : e.type);

/** Every key name of the plugin protocol (docs/plugin-protocol.md) and the keymap, with the bytes a terminal sends for it. */
const TABLE: [string, string][] = [
  ["a", "a"],
  ["A", "A"],
  ["é", "é"],
  ["界", "界"],
  ["1", "1"],
  ["?", "?"],
  [":", ":"],
  ["enter", "\r"],
  ["space", " "],
  ["tab", "\t"],
  ["shift+tab", "\x1b[Z"],
  ["backspace", "\x7f"],
  ["ctrl+h", "\x08"],
  ["ctrl+a", "\x01"],
  ["ctrl+c", "\x03"],
  ["ctrl+x", "\x18"],
  ["ctrl+j", "\n"],
  ["ctrl+@", "\x00"],
  ["ctrl+\\", "\x1c"],
  ["ctrl+]", "\x1d"],
  ["ctrl+_", "\x1f"],
  ["alt+x", "\x1bx"],
  ["alt+X", "\x1bX"],
  ["alt+enter", "\x1b\r"],
  ["alt+ctrl+a", "\x1b\x01"],
  ["alt+space", "\x1b "],
  ["up", "\x1b[A"],
  ["down", "\x1b[B"],
  ["right", "\x1b[C"],
  ["left", "\x1b[D"],
  ["up", "\x1bOA"],
  ["home", "\x1b[H"],
  ["end", "\x1b[F"],
  ["home", "\x1b[1~"],
  ["end", "\x1b[4~"],
  ["insert", "\x1b[2~"],
  ["delete", "\x1b[3~"],
  ["pgup", "\x1b[5~"],
  ["pgdown", "\x1b[6~"],
  ["ctrl+up", "\x1b[1;5A"],
  ["shift+right", "\x1b[1;2C"],
  ["alt+left", "\x1b[1;3D"],
  ["ctrl+shift+down", "\x1b[1;6B"],
  ["ctrl+delete", "\x1b[3;5~"],
  ["f1", "\x1bOP"],
  ["f2", "\x1bOQ"],
  ["f3", "\x1bOR"],
  ["f4", "\x1bOS"],
  ["f1", "\x1b[1P"],
  ["f5", "\x1b[15~"],
  ["f6", "\x1b[17~"],
  ["f10", "\x1b[21~"],
  ["f11", "\x1b[23~"],
  ["f12", "\x1b[24~"],
  ["shift+f5", "\x1b[15;2~"],
];

Deno.test("KeyDecoder names every key the Bubble Tea way and keeps its bytes", () => {
  for (const [name, raw] of TABLE) {
    const events = new KeyDecoder().feed(raw);
    assert.equal(events.length, 1, `one event for ${JSON.stringify(raw)}`);
    const key = events[0] as KeyEvent;
    assert.equal(key.name, name, `bytes ${JSON.stringify(raw)}`);
    assert.equal(key.raw, raw);
  }
});

Deno.test("KeyDecoder holds a lone ESC until flush (the Esc timeout)", () => {
  const d = new KeyDecoder();
  assert.deepEqual(d.feed("\x1b"), []);
  assert.ok(d.pending);
  assert.deepEqual(names(d.flush()), ["esc"]);
  assert.ok(!d.pending);
});

Deno.test("KeyDecoder completes a sequence split across chunks", () => {
  const d = new KeyDecoder();
  assert.deepEqual(d.feed("\x1b["), []);
  assert.deepEqual(d.feed("1;5"), []);
  assert.deepEqual(names(d.feed("A")), ["ctrl+up"]);
});

Deno.test("KeyDecoder takes an unfinished sequence literally on flush", () => {
  const d = new KeyDecoder();
  assert.deepEqual(d.feed("\x1b["), []);
  assert.deepEqual(names(d.flush()), ["alt+["]);
  assert.deepEqual(names(new KeyDecoder().feed("\x1b\x1b")), ["alt+esc"]);
});

Deno.test("KeyDecoder splits typed text into one key per character", () => {
  assert.deepEqual(names(new KeyDecoder().feed("hi 界\r")), ["h", "i", "space", "界", "enter"]);
});

Deno.test("KeyDecoder reads a bracketed paste whole, even across chunks", () => {
  const d = new KeyDecoder();
  const body = "line 1\r\n\x1b[A not a key\tend";
  assert.deepEqual(d.feed("x\x1b[200~" + body.slice(0, 10)), [{
    type: "key",
    name: "x",
    text: "x",
    raw: "x",
  }]);
  assert.deepEqual(d.feed(body.slice(10) + "\x1b[201"), []);
  assert.deepEqual(d.feed("~y"), [{ type: "paste", text: body }, {
    type: "key",
    name: "y",
    text: "y",
    raw: "y",
  }]);
});

Deno.test("KeyDecoder keeps a 1 MiB paste intact", () => {
  const d = new KeyDecoder();
  const body = "0123456789abcdef".repeat(65536);
  const events: InputEvent[] = [];
  const all = "\x1b[200~" + body + "\x1b[201~";
  for (let i = 0; i < all.length; i += 4093) events.push(...d.feed(all.slice(i, i + 4093)));
  assert.equal(events.length, 1);
  assert.equal(events[0]!.type === "paste" && events[0]!.text, body);
});

Deno.test("KeyDecoder reads SGR mouse reports (0-based cells)", () => {
  const d = new KeyDecoder();
  const [press, release, wheel, drag] = d.feed(
    "\x1b[<0;5;3M\x1b[<0;5;3m\x1b[<65;10;2M\x1b[<32;6;3M",
  );
  assert.deepEqual(
    [press, release, wheel, drag].map((e) =>
      e?.type === "mouse" ? [e.kind, e.button, e.x, e.y] : null
    ),
    [["press", 0, 4, 2], ["release", 0, 4, 2], ["wheel", 1, 9, 1], ["drag", 0, 5, 2]],
  );
  const e = press!;
  assert.ok(e.type === "mouse");
  assert.equal(encodeSgrMouse(e, 0, 0), "\x1b[<0;1;1M");
});

Deno.test("KeyDecoder ignores focus reports", () => {
  assert.deepEqual(new KeyDecoder().feed("\x1b[I\x1b[O"), []);
});

Deno.test("keyBytes() sends arrows in SS3 form when the child asked for application cursor keys", () => {
  const [up] = new KeyDecoder().feed("\x1b[A") as KeyEvent[];
  assert.equal(keyBytes(up!, false), "\x1b[A");
  assert.equal(keyBytes(up!, true), "\x1bOA");
  const [ctrlUp] = new KeyDecoder().feed("\x1b[1;5A") as KeyEvent[];
  assert.equal(keyBytes(ctrlUp!, true), "\x1b[1;5A");
});

Deno.test("KeyDecoder reads the host's DECRQM reply (synchronized output support)", () => {
  assert.deepEqual(new KeyDecoder().feed("\x1b[?2026;2$y"), [{
    type: "mode-report",
    mode: 2026,
    value: 2,
  }]);
});

Deno.test("encodeLegacyMouse() writes CSI M reports for children without SGR mouse", () => {
  const [press, release] = new KeyDecoder().feed("\x1b[<0;5;3M\x1b[<0;5;3m");
  assert.ok(press?.type === "mouse" && release?.type === "mouse");
  assert.equal(encodeLegacyMouse(press, 0, 0), "\x1b[M !!");
  assert.equal(encodeLegacyMouse(release, 1, 2), '\x1b[M#"#');
  assert.equal(encodeLegacyMouse(press, 300, 0), null);
});
