import assert from "node:assert/strict";
import { UserError } from "../errors.ts";
import { bridgeTarget, hostFlag } from "./main.ts";

const dirs: string[] = [];

function home(config: string | null): Record<string, string> {
  const dir = Deno.makeTempDirSync({ prefix: "lzs-remote-main-" });
  dirs.push(dir);
  Deno.mkdirSync(`${dir}/lazyshell`);
  if (config !== null) Deno.writeTextFileSync(`${dir}/lazyshell/config.yml`, config);
  return { XDG_CONFIG_HOME: dir, HOME: dir };
}

Deno.test("bridgeTarget: LAZYSHELL_SSH, else ssh.command, else ssh; a hosts: name, else a destination", async () => {
  const config = `ssh:\n  command: "ssh -J 'jump host'"\nhosts:\n  - name: dev\n` +
    `    destination: ssh://me@box:2222\n    command: ~/.deno/bin/lazyshell\n`;
  const env = home(config);
  const dev = await bridgeTarget("dev", env, "0.1.0");
  assert.deepEqual(dev.ssh, ["ssh", "-J", "jump host"]);
  assert.deepEqual(dev.dest, { args: ["-p", "2222", "me@box"], label: "dev" });
  assert.equal(dev.remote, "~/.deno/bin/lazyshell");
  assert.equal(dev.server, null);
  const other = await bridgeTarget("me@other", {
    ...env,
    LAZYSHELL_SSH: "myssh -q",
    LAZYSHELL_SERVER: "w",
  }, "0.1.0");
  assert.deepEqual([other.ssh, other.dest.args, other.remote, other.server], [
    ["myssh", "-q"],
    ["me@other"],
    "lazyshell",
    "w",
  ]);
  const none = await bridgeTarget("dev", home(null), "0.1.0");
  assert.deepEqual([none.ssh, none.dest.args], [["ssh"], ["dev"]]);
  // A bad config.yml is one line naming it, not a stack trace.
  await assert.rejects(() => bridgeTarget("dev", home("hosts: 3\n"), "0.1.0"), UserError);
  for (const dir of dirs.splice(0)) Deno.removeSync(dir, { recursive: true });
});

Deno.test("hostFlag: -H DEST and -HDEST in front", () => {
  assert.deepEqual(hostFlag(["-H", "dev", "ls"]), { dest: "dev", rest: ["ls"] });
  assert.deepEqual(hostFlag(["-Hdev", "ls"]), { dest: "dev", rest: ["ls"] });
  assert.deepEqual(hostFlag(["ls"]), { dest: null, rest: ["ls"] });
  assert.throws(() => hostFlag(["-H"]), UserError);
});

Deno.test("attach -t TARGET: the session shown first, as tmux; -H passes it to the host's server", async () => {
  const { clientCommand } = await import("../client/main.ts");
  const { selectedFirst } = await import("../server/remote_attach.ts");
  assert.deepEqual(clientCommand(["attach", "-t", "session-2"]), {
    mode: "attach",
    start: false,
    select: "session-2",
  });
  assert.deepEqual(clientCommand(["attach", "-tweb"])?.select, "web");
  assert.throws(() => clientCommand(["attach", "-t"]), /-t needs a session/);
  assert.throws(() => clientCommand(["attach", "-t", "a", "b"]), /Unexpected argument/);
  const sessions = [{ id: "session-1", name: "gpu" }, { id: "session-2", name: "web" }];
  assert.deepEqual(selectedFirst({ select: "web" }, sessions), { selected: "session-2", tab: 0 });
  assert.deepEqual(selectedFirst({ select: "session-1" }, sessions)?.selected, "session-1");
  assert.equal(selectedFirst({ select: "gone" }, sessions), null);
  assert.equal(selectedFirst({}, sessions), null);
});
