import assert from "node:assert/strict";
import fc from "fast-check";
import {
  frame,
  FrameError,
  FrameReader,
  FrameType,
  helloProtocol,
  MAX_FRAME,
  parseExit,
  parseHello,
  parseResize,
  parseWelcome,
  SERVER_PROTOCOL,
  versionMismatch,
} from "./protocol.ts";

const hello = {
  protocol: SERVER_PROTOCOL,
  version: "0.1.0",
  mode: "attach" as const,
  cols: 120,
  rows: 32,
  tmux: true,
  cwd: "/work",
};

const restoreHello = {
  ...hello,
  mode: "restore" as const,
  restore: { all: false, forget: false, names: ["web", "api"] },
};

Deno.test("every message round-trips through a frame", () => {
  const reader = new FrameReader();
  const frames = reader.push(
    new Uint8Array([
      ...frame(FrameType.Hello, hello),
      ...frame(FrameType.Welcome, { protocol: 1, version: "0.1.0", pid: 42 }),
      ...frame(FrameType.Resize, { cols: 80, rows: 24 }),
      ...frame(FrameType.Exit, { reason: "detached", message: "", code: 0 }),
      ...frame(FrameType.Input, new Uint8Array([0x1b, 0x5b, 0x41])),
      ...frame(FrameType.Hello, restoreHello),
    ]),
  );
  assert.deepEqual(frames.map((f) => f.type), [1, 10, 3, 12, 2, 1]);
  assert.deepEqual(parseHello(frames[0]!.payload), hello);
  assert.deepEqual(parseWelcome(frames[1]!.payload), { protocol: 1, version: "0.1.0", pid: 42 });
  assert.deepEqual(parseResize(frames[2]!.payload), { cols: 80, rows: 24 });
  assert.deepEqual(parseExit(frames[3]!.payload), { reason: "detached", message: "", code: 0 });
  assert.deepEqual([...frames[4]!.payload], [0x1b, 0x5b, 0x41]);
  assert.deepEqual(parseHello(frames[5]!.payload), restoreHello);
});

Deno.test("frames split anywhere in the byte stream come out whole and in order", () => {
  fc.assert(
    fc.property(
      fc.array(fc.uint8Array({ maxLength: 300 }), { maxLength: 20 }),
      fc.array(fc.integer({ min: 1, max: 50 }), { minLength: 1, maxLength: 10 }),
      (payloads, cuts) => {
        const bytes = new Uint8Array(payloads.flatMap((p) => [...frame(FrameType.Output, p)]));
        const reader = new FrameReader();
        const got: Uint8Array[] = [];
        let at = 0;
        for (let i = 0; at < bytes.length; i++) {
          const n = cuts[i % cuts.length]!;
          got.push(...reader.push(bytes.subarray(at, at + n)).map((f) => f.payload));
          at += n;
        }
        assert.deepEqual(got.map((p) => [...p]), payloads.map((p) => [...p]));
      },
    ),
  );
});

Deno.test("a frame over the limit and malformed messages are FrameErrors, never crashes", () => {
  const big = new Uint8Array(5);
  big[0] = FrameType.Input;
  new DataView(big.buffer).setUint32(1, MAX_FRAME + 1);
  assert.throws(() => new FrameReader().push(big), FrameError);
  const bad = (o: unknown) => new TextEncoder().encode(JSON.stringify(o));
  assert.throws(() => parseHello(bad({ ...hello, mode: "steal" })), /Bad mode/);
  assert.throws(() => parseHello(bad({ ...hello, cols: 0 })), /Bad cols/);
  assert.throws(() => parseHello(new TextEncoder().encode("{nope")), /Not a JSON/);
  assert.throws(
    () => parseHello(bad({ ...restoreHello, restore: { names: ["ok", 3] } })),
    /Bad restore names/,
  );
  assert.throws(() => parseResize(bad([1, 2])), /Not a JSON object/);
  assert.throws(() => parseExit(bad({ reason: "bored", message: "", code: 0 })), /Bad reason/);
});

Deno.test("the first frame has its own limit (the hello), the others MAX_FRAME; any terminal size parses", () => {
  const hello = (length: number) => frame(FrameType.Hello, new Uint8Array(length));
  const input = (length: number) => frame(FrameType.Input, new Uint8Array(length));
  assert.throws(
    () => new FrameReader(MAX_FRAME, 1024).push(hello(1025)),
    /first frame \(the hello\) of 1025 bytes, over the limit of 1024/,
  );
  // Refused at the header, before any of the payload arrived.
  assert.throws(
    () => new FrameReader(MAX_FRAME, 1024).push(hello(MAX_FRAME).subarray(0, 5)),
    FrameError,
  );
  // Past the first frame, even in the same read, the normal limit holds.
  const reader = new FrameReader(MAX_FRAME, 1024);
  const both = new Uint8Array([...hello(1024), ...input(64 * 1024)]);
  assert.deepEqual(reader.push(both).map((f) => f.payload.length), [1024, 64 * 1024]);
  assert.throws(() => reader.push(input(MAX_FRAME + 1).subarray(0, 5)), /A frame of/);
  const size = (cols: number, rows: number) =>
    new TextEncoder().encode(JSON.stringify({ cols, rows }));
  assert.deepEqual(parseResize(size(65_535, 65_535)), { cols: 65_535, rows: 65_535 });
  assert.throws(() => parseResize(size(65_536, 10)), /Bad cols/);
});

Deno.test("a hello of another protocol still says which one it is", () => {
  const future = { protocol: 99, version: "9.0.0", anything: { new: true } };
  assert.equal(helloProtocol(new TextEncoder().encode(JSON.stringify(future))), 99);
  const line = versionMismatch({ version: "9.0.0", protocol: 99 }, {
    version: "0.1.0",
    protocol: 1,
  }, "work");
  assert.match(line, /server is version 0\.1\.0 \(protocol 1\), this client is 9\.0\.0/);
  assert.match(line, /`lazyshell -L work kill-server`/);
  assert.doesNotMatch(line, /\n/);
});

Deno.test("a hello may name the client's terminal; the welcome says whether the server took it", () => {
  const named = { ...hello, tty: { path: "/dev/pts/7", device: 34823, fs: 24 } };
  assert.deepEqual(parseHello(frame(FrameType.Hello, named).subarray(5)), named);
  const welcome = { protocol: SERVER_PROTOCOL, version: "0.1.0", pid: 42, tty: true };
  assert.deepEqual(parseWelcome(frame(FrameType.Welcome, welcome).subarray(5)), welcome);
  for (
    const tty of [
      "/dev/pts/7",
      { path: 7, device: 1, fs: 24 },
      { path: "/dev/pts/7", device: -1, fs: 24 },
      { path: "/dev/pts/7", device: 1 },
      { path: "/dev/pts/7" },
      { path: "x".repeat(300), device: 1, fs: 24 },
    ]
  ) {
    assert.throws(
      () => parseHello(frame(FrameType.Hello, { ...hello, tty }).subarray(5)),
      FrameError,
    );
  }
});
