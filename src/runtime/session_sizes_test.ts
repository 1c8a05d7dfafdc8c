import assert from "node:assert/strict";
import type { WindowSize } from "../config/config.ts";
import { SessionSizes } from "./session_sizes.ts";

function lab(policy: WindowSize) {
  const sizes = new Map<string, string>();
  const session = (id: string) => ({
    id,
    resize: (cols: number, rows: number) => void sizes.set(id, `${cols}x${rows}`),
  });
  const all = [session("a"), session("b")];
  let current = policy;
  const sized = new SessionSizes(
    { get: (id) => all.find((s) => s.id === id), list: () => all },
    () => current,
  );
  return { sized, sizes, set: (p: WindowSize) => (current = p) };
}

Deno.test("SessionSizes, latest: the claiming client's size; a resize moves only its own and free ones", () => {
  const { sized, sizes } = lab("latest");
  sized.claim("a", "big", 160, 45);
  assert.equal(sizes.get("a"), "160x45");
  sized.resizeFor("small", 100, 30);
  assert.equal(sizes.get("a"), "160x45", "owned by big");
  assert.equal(sizes.get("b"), "100x30", "nobody's: follows");
  sized.forgetClient("big");
  sized.resizeFor("small", 90, 28);
  assert.equal(sizes.get("a"), "90x28", "free again");
});

Deno.test("SessionSizes, latest: a session its owner left follows the client active last that shows it", () => {
  const { sized, sizes } = lab("latest");
  sized.show("small", new Map([["a", { cols: 57, rows: 22 }]]));
  sized.show("tiny", new Map([["a", { cols: 39, rows: 18 }], ["b", { cols: 39, rows: 18 }]]));
  sized.show("big", new Map([["a", { cols: 151, rows: 48 }], ["b", { cols: 151, rows: 48 }]]));
  sized.claim("b", "tiny", 39, 18);
  sized.claim("a", "small", 57, 22);
  sized.claim("a", "big", 151, 48);
  sized.claim("b", "big", 151, 48);
  sized.forgetClient("big");
  assert.equal(sizes.get("a"), "57x22", "small claimed last of those showing it");
  assert.equal(sizes.get("b"), "39x18", "only tiny shows it");
  sized.resizeFor("tiny", 30, 10);
  assert.equal(sizes.get("a"), "57x22", "owned by small now");
  assert.equal(sizes.get("b"), "30x10", "owned by tiny now");
  sized.forgetClient("small");
  assert.equal(sizes.get("a"), "39x18", "tiny shows it: it follows tiny, never active on it");
});

Deno.test("SessionSizes, smallest: the smallest pane showing it; a client leaving sizes it again", () => {
  const { sized, sizes, set } = lab("smallest");
  sized.claim("a", "x", 1, 1);
  assert.equal(sizes.get("a"), undefined, "claims count under latest only");
  sized.show("big", new Map([["a", { cols: 150, rows: 40 }]]));
  sized.show("small", new Map([["a", { cols: 80, rows: 20 }]]));
  assert.equal(sizes.get("a"), "80x20");
  sized.forgetClient("small");
  assert.equal(sizes.get("a"), "150x40");
  set("largest");
  sized.show("small", new Map([["a", { cols: 80, rows: 20 }]]));
  assert.equal(sizes.get("a"), "150x40");
});
