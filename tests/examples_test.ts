/** The example plugins work through the real host (any language, P7). */

import assert from "node:assert/strict";
import { TestHost } from "../src/plugin/test_util.ts";

const EXAMPLES = new URL("../examples/plugins/", import.meta.url).pathname;
const env = (data: string) => ({
  HOME: data,
  PATH: Deno.env.get("PATH") ?? "/usr/bin:/bin",
  XDG_DATA_HOME: data,
});

Deno.test("examples/plugins/hello: manifest, frames, keys, capturing field, command", async () => {
  const data = Deno.makeTempDirSync({ prefix: "lazyshell-hello-" });
  await using host = new TestHost({
    path: `${EXAMPLES}hello`,
    id: "hello",
    env: env(data),
    config: { greeting: "Hi" },
  });
  host.start();
  await host.until((s) => s.frame !== null, 30_000, "first frame");
  assert.deepEqual(host.state.manifest?.commands, [{ name: "shout", desc: "Greet in capitals" }]);
  assert.equal(host.state.manifest?.doctor, true);
  assert.match(host.view(), /Hi, world!/);
  host.key("x", "x");
  await host.until((s) => s.frame?.count === 1, 30_000, "count 1");
  host.key("n", "n");
  await host.until((s) => s.frame?.capturing === true, 30_000, "name field");
  for (const ch of "q1") host.key(ch, ch); // global keys reach it while it captures
  host.key("enter");
  await host.until((s) => s.frame?.view.includes("Hi, q1!") === true, 30_000, "name saved");
  host.command("shout");
  await host.until((s) => s.frame?.view.includes("HI, q1!") === true, 30_000, "shout");
  await host.close();
  assert.deepEqual(host.state.exit, { code: 0, signal: null });
});

const python = (() => {
  try {
    return new Deno.Command("python3", { args: ["--version"], stdout: "null", stderr: "null" })
      .outputSync().success;
  } catch {
    return false;
  }
})();

Deno.test({
  name: "examples/plugins/notes.py: a Python plugin with exec and the visible extension",
  ignore: !python,
  async fn() {
    const data = Deno.makeTempDirSync({ prefix: "lazyshell-notes-" });
    await using host = new TestHost({ path: `${EXAMPLES}notes.py`, id: "notes", env: env(data) });
    host.start();
    await host.until((s) => s.frame !== null, 30_000, "first frame");
    assert.equal(host.send({ type: "visible", visible: true }), true, "it subscribed");
    host.key("a", "a");
    await host.until((s) => s.frame?.capturing === true, 30_000, "field");
    host.paste("buy milk");
    host.key("enter");
    await host.until((s) => s.frame?.count === 1, 30_000, "one note");
    assert.equal(
      Deno.readTextFileSync(`${data}/lazyshell/plugins/notes/notes.txt`),
      "buy milk\n",
      "LAZYSHELL_DATA_DIR is the plugin's own directory",
    );
    host.command("git-log");
    // The exec_result line: commits (short hashes), or git's / the host's error.
    await host.until(
      (s) => /[0-9a-f]{7,} |fatal|not found/.test((s.frame?.view ?? "").split("\n").at(-1) ?? ""),
      15_000,
      "exec result",
    );
    assert.match(host.view(), /buy milk/);
  },
});

Deno.test("the minimal plugins in docs/plugin-protocol.md work as printed", async () => {
  const doc = Deno.readTextFileSync(new URL("../docs/plugin-protocol.md", import.meta.url));
  const blocks = [...doc.matchAll(/```(sh|python)\n(#!.*?)```/gs)];
  assert.equal(blocks.length, 2, "one sh and one Python example");
  for (const [, lang, code] of blocks) {
    if (lang === "python" && !python) continue;
    const dir = Deno.makeTempDirSync({ prefix: "lazyshell-doc-" });
    const path = `${dir}/mini`;
    Deno.writeTextFileSync(path, code!, { mode: 0o755 });
    await using host = new TestHost({ path, id: "mini", env: env(dir) });
    host.start();
    await host.until((s) => s.phase === "running", 30_000, `${lang} manifest`);
    assert.equal(host.state.manifest?.title, "Mini");
    host.key("x", "x");
    await host.until((s) => /got a key|key x/.test(s.frame?.view ?? ""), 30_000, `${lang} key`);
    await host.close();
    assert.deepEqual(host.state.exit, { code: 0, signal: null }, `${lang} exits on EOF`);
  }
});
