import assert from "node:assert/strict";

Deno.test("quietStderr() sends fd 2 to a log until restoreStderr() (in a child process)", async () => {
  const dir = Deno.makeTempDirSync();
  const script = `${dir}/child.ts`;
  const module = new URL("./stderr.ts", import.meta.url).href;
  Deno.writeTextFileSync(
    script,
    `import { quietStderr, restoreStderr } from "${module}";
console.error("before");
quietStderr(${JSON.stringify(`${dir}/data`)});
console.error("hidden");
restoreStderr();
console.error("after");
`,
  );
  const out = await new Deno.Command(Deno.execPath(), {
    args: ["run", "-q", "-A", script],
    stdout: "piped",
    stderr: "piped",
  }).output();
  assert.equal(out.code, 0);
  assert.equal(new TextDecoder().decode(out.stderr), "before\nafter\n");
  assert.equal(Deno.readTextFileSync(`${dir}/data/tui-stderr.log`), "hidden\n");
  Deno.removeSync(dir, { recursive: true });
});
