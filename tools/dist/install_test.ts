import assert from "node:assert/strict";
import {
  ownsCommand,
  parseOptions,
  pathAdvice,
  setupCommand,
  upgradeHint,
  wrapperScript,
} from "./install.ts";

Deno.test("upgradeHint: the uninstall command works for a user without deno", () => {
  const v = Deno.version.deno;
  const none = () => null;
  assert.equal(
    upgradeHint({ PATH: "/usr/bin" }, "/src/lazyshell", none),
    `Upgrade: run this again. Uninstall: npx --yes deno@${v} task setup --uninstall, in /src/lazyshell (README: Install).`,
  );
  // npx's own deno, on PATH only while npx runs, is not the user's.
  const npx = () => "/home/me/.npm/_npx/1a2b/node_modules/.bin/deno";
  assert.equal(setupCommand({ PATH: "x" }, npx), `npx --yes deno@${v} task setup`);
  assert.equal(setupCommand({ PATH: "x" }, () => "/home/me/.deno/bin/deno"), "deno task setup");
});

Deno.test("parseOptions: ~/.local/bin and $XDG_DATA_HOME/lazyshell unless told otherwise", () => {
  assert.deepEqual(parseOptions([], { HOME: "/h" }), {
    compile: true,
    start: true,
    uninstall: false,
    binDir: "/h/.local/bin",
    dataDir: "/h/.local/share/lazyshell",
  });
  const o = parseOptions(["--no-compile", "--bin-dir", "bin", "--no-start"], {
    HOME: "/h",
    XDG_DATA_HOME: "/d",
    INIT_CWD: "/where/i/was",
  });
  assert.deepEqual([o.compile, o.start, o.binDir, o.dataDir], [
    false,
    false,
    "/where/i/was/bin",
    "/d/lazyshell",
  ]);
  assert.throws(() => parseOptions(["--force"], {}), /^Error: Unknown option: --force \(/);
});

Deno.test("pathAdvice: nothing when the folder is on PATH, else the line for the user's shell", () => {
  assert.equal(pathAdvice("/h/.local/bin", { PATH: "/usr/bin:/h/.local/bin/" }), null);
  assert.equal(
    pathAdvice("/h/.local/bin", { HOME: "/h", PATH: "/usr/bin", SHELL: "/bin/zsh" }),
    `echo 'export PATH="$HOME/.local/bin:$PATH"' >> ~/.zshrc   # then open a new shell`,
  );
  assert.equal(
    pathAdvice("/opt/bin", { HOME: "/h", PATH: "/usr/bin", SHELL: "/usr/bin/fish" }),
    "fish_add_path /opt/bin",
  );
});

Deno.test("ownsCommand: replaces only its own link or wrapper, never someone else's file", () => {
  const dir = Deno.makeTempDirSync();
  try {
    const data = `${dir}/data`;
    const command = `${dir}/lazyshell`;
    assert.equal(ownsCommand(command, data), true); // nothing there yet
    Deno.symlinkSync(`${data}/0.1.0/bin/lazyshell`, command);
    assert.equal(ownsCommand(command, data), true);
    Deno.removeSync(command);
    Deno.writeTextFileSync(command, wrapperScript(command, `${data}/0.1.0/lazyshell`, "0.1.0"));
    assert.equal(ownsCommand(command, data), true);
    Deno.writeTextFileSync(command, "#!/bin/sh\necho mine\n");
    assert.equal(ownsCommand(command, data), false);
    Deno.removeSync(command);
    Deno.symlinkSync("/usr/bin/true", command);
    assert.equal(ownsCommand(command, data), false);
  } finally {
    Deno.removeSync(dir, { recursive: true });
  }
});

Deno.test("wrapperScript: runs the binary with its own stable path for hooks", async () => {
  const dir = Deno.makeTempDirSync();
  try {
    const binary = `${dir}/bin ary`;
    Deno.writeTextFileSync(binary, '#!/bin/sh\necho "$LAZYSHELL_SELF|$*"\n', { mode: 0o755 });
    const command = `${dir}/lazyshell`;
    Deno.writeTextFileSync(command, wrapperScript(command, binary, "0.1.0"), { mode: 0o755 });
    const out = await new Deno.Command(command, { args: ["a b", "c"] }).output();
    assert.equal(new TextDecoder().decode(out.stdout), `${command}|a b c\n`);
  } finally {
    Deno.removeSync(dir, { recursive: true });
  }
});
