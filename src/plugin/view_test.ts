import assert from "node:assert/strict";
import { sanitizeView, visibleWidth } from "./view.ts";

const E = "\x1b";
const BG = `${E}[48;5;236m`;
const view = (text: string, width = 80, height = 24, background = "") =>
  sanitizeView(text, { width, height, background });

Deno.test("SGR colours are kept and a styled line is closed", () => {
  assert.deepEqual(view(`${E}[1;31mred${E}[0m plain`), [`${E}[1;31mred${E}[0m plain${E}[0m`]);
});

Deno.test("every other control sequence is removed", () => {
  const cases: [string, string][] = [
    [`a${E}[2Jb`, "ab"], // clear screen
    [`a${E}[10;5Hb`, "ab"], // cursor position
    [`a${E}[?1049hb`, "ab"], // alt screen
    [`a${E}]0;title\x07b`, "ab"], // OSC with BEL
    [`a${E}]8;;http://x${E}\\link${E}]8;;${E}\\b`, "alinkb"], // hyperlink, ST
    [`a${E}P1$r${E}\\b`, "ab"], // DCS
    [`a${E}(Bb`, "ab"], // charset
    [`a${E}7b${E}8`, "ab"], // save/restore cursor
    [`a\rb\x07c\x08d\x00e\x7f\u009bf`, "abcdef"], // C0, DEL, C1
    [`a${E}[>4;1mb`, "ab"], // private "m" is not SGR
    [`cut${E}[`, "cut"], // truncated sequence
  ];
  for (const [input, expected] of cases) assert.deepEqual(view(input), [expected], input);
});

Deno.test("lines are clipped to the tab's width and height", () => {
  assert.deepEqual(view("abcdef\n123456\nxyz", 4, 2), ["abcd", "1234"]);
  assert.deepEqual(view("日本語", 5, 1), ["日本"], "wide characters take two columns");
  assert.deepEqual(view("a\tb", 20, 1), ["a       b"]);
  assert.deepEqual(view("trailing\n"), ["trailing"]);
  assert.deepEqual(view(""), []);
  assert.deepEqual(view("x", 0, 0), []);
});

Deno.test("SGR after the clip point still closes the style", () => {
  const [line] = view(`${E}[32mgreen text${E}[0m`, 3, 1);
  assert.equal(line, `${E}[32mgre${E}[0m${E}[0m`);
  assert.equal(visibleWidth(line!), 3);
});

Deno.test("the background is repainted after each reset", () => {
  assert.deepEqual(view(`${E}[1mb${E}[0mn${E}[mm${E}[0;2md`, 80, 1, BG), [
    `${E}[1mb${E}[0m${BG}n${E}[m${BG}m${E}[0;2m${BG}d${E}[0m${BG}`,
  ]);
  // 38;5;0 selects black: not a reset.
  assert.deepEqual(view(`${E}[38;5;0mk`, 80, 1, BG), [`${E}[38;5;0mk${E}[0m${BG}`]);
});

Deno.test("CRLF line ends are accepted", () => {
  assert.deepEqual(view("a\r\nb"), ["a", "b"]);
});

Deno.test("sanitised lines become styled spans", async () => {
  const { toSpans, VIEW_ATTRS, VIEW_RGB_FLAG } = await import("./view.ts");
  assert.deepEqual(toSpans("plain"), [{ text: "plain" }]);
  assert.deepEqual(toSpans(`${E}[1;31mred${E}[0m n ${E}[38;5;208;48;2;1;2;3mx${E}[22m`), [
    { text: "red", style: { fg: 1, attrs: VIEW_ATTRS.bold } },
    { text: " n " },
    { text: "x", style: { fg: 208, bg: VIEW_RGB_FLAG | 0x010203 } },
  ]);
  assert.deepEqual(toSpans(`${E}[7;92mi${E}[27;39mj`), [
    { text: "i", style: { fg: 10, attrs: VIEW_ATTRS.inverse } },
    { text: "j" },
  ]);
});
