/**
 * End to end: `lazyshell` in a folder with a lazyshell.yml while a server
 * already runs. The project starts with a new server only, so the client
 * says, in one line left on the terminal, that this attach did not start it
 * and which command does (src/client/project_notice.ts).
 */

import assert from "node:assert/strict";
import { screenText, waitForText } from "../src/session/test_util.ts";
import { lab as e2eLab, RUN_MAIN } from "./e2e_lab.ts";
import { projectNotice, projectServerName } from "../src/client/project_notice.ts";

const WAIT = 30_000;
const CTRL_RIGHT_BRACKET = "\x1d";

Deno.test("lazyshell in a project folder with a server running says the project was not started, and how", async () => {
  await using l = e2eLab("lazyshell-project-notice-");
  const first = l.client(100, 30);
  await waitForText(first, "No sessions", WAIT);
  first.write(CTRL_RIGHT_BRACKET + "d");
  await first.exited;

  const proj = `${l.dir}/myproj`;
  Deno.mkdirSync(proj);
  Deno.writeTextFileSync(`${proj}/lazyshell.yml`, "sessions:\n  - name: api\n");
  const b = l.store.create({ command: `cd ${proj} && exec ${RUN_MAIN}`, cols: 200, rows: 30 });
  await waitForText(b, "No sessions", WAIT);
  b.write(CTRL_RIGHT_BRACKET + "d");
  await b.exited;
  const text = screenText(b).replaceAll("\n", ""); // the line wraps at 200 columns
  assert.match(
    text,
    new RegExp(
      `lazyshell: server default was already running, so this attach did not start ` +
        `${proj}/lazyshell\\.yml \\(a project starts with a new server\\): start it in a server ` +
        `of its own with \`lazyshell -L myproj --project ${proj}/lazyshell\\.yml\``,
    ),
    screenText(b),
  );
  const ls = await l.run("ls");
  assert.doesNotMatch(ls.stdout, /api/, "the running server started nothing");
});

Deno.test("the suggested server name: the project folder's, never the running one's", () => {
  assert.equal(projectServerName("/home/u/my app/lazyshell.yml", "default"), "my-app");
  assert.equal(projectServerName("/home/u/.hidden/lazyshell.yml", "default"), "project");
  assert.equal(projectServerName("/home/u/api/lazyshell.yml", "api"), "api-project");
  assert.equal(projectServerName("/lazyshell.yml", "default"), "project");
});

Deno.test("--project FILE is resolved from the current folder and quoted when it must be", () => {
  assert.equal(
    projectNotice({ project: "../my app/p.yml", cwd: "/w/x", home: null, server: "default" }),
    "lazyshell: server default was already running, so this attach did not start /w/my app/p.yml " +
      "(a project starts with a new server): start it in a server of its own with " +
      "`lazyshell -L my-app --project '/w/my app/p.yml'`",
  );
  assert.equal(projectNotice({ cwd: "/", home: null, server: "default" }), null);
});

Deno.test("lazyshell in the project folder of the server that started with it says nothing", async () => {
  await using l = e2eLab("lazyshell-project-notice-own-");
  const proj = `${l.dir}/myproj`;
  Deno.mkdirSync(proj);
  Deno.writeTextFileSync(`${proj}/lazyshell.yml`, "sessions:\n  - name: api\n");
  // The server starts with the project (--project: trusted, nothing asked), then a new attach
  // from the same folder finds that file again.
  const first = l.store.create({
    command: `cd ${proj} && exec ${RUN_MAIN} --project ${proj}/lazyshell.yml`,
    cols: 200,
    rows: 30,
  });
  await waitForText(first, "api", WAIT);
  first.write(CTRL_RIGHT_BRACKET + "d");
  await first.exited;
  const again = l.store.create({ command: `cd ${proj} && exec ${RUN_MAIN}`, cols: 200, rows: 30 });
  await waitForText(again, "api", WAIT);
  again.write(CTRL_RIGHT_BRACKET + "d");
  await again.exited;
  assert.doesNotMatch(screenText(again), /did not start/, screenText(again));
});
