import assert from "node:assert/strict";
import { ConfigError } from "../errors.ts";
import { parseProject, resolvePath } from "./project.ts";

const dirs = new Set(["/p", "/p/api", "/p/web", "/srv"]);
const context = { baseDir: "/p", isDirectory: (d: string) => dirs.has(d) };
const parse = (text: string) => parseProject(text, "/p/lazyshell.yml", context);

function fails(text: string, expected: RegExp) {
  assert.throws(() => parse(text), (e) => {
    assert.ok(e instanceof ConfigError, `not a ConfigError: ${e}`);
    assert.match(e.message, expected);
    return true;
  });
}

const FULL = `# a project
sessions:
  - name: api
    command: npm run dev
    cwd: ./api
    group: backend
    env:
      PORT: 3000
      DEBUG: true
      NODE_ENV: development
    watch:
      - pattern: "ERR!"
      - pattern: "GET /health"
        notify: false
  - name: shell
  - name: logs
    command: tail -f /var/log/syslog
    cwd: /srv
`;

Deno.test("parseProject() reads every field, resolves cwd against the file", () => {
  const project = parse(FULL);
  assert.equal(project.file, "/p/lazyshell.yml");
  assert.deepEqual(project.sessions, [
    {
      name: "api",
      command: "npm run dev",
      cwd: "/p/api",
      group: "backend",
      env: { PORT: "3000", DEBUG: "true", NODE_ENV: "development" },
      watch: [{ pattern: "ERR!", notify: true }, { pattern: "GET /health", notify: false }],
      line: 3,
    },
    { name: "shell", command: null, cwd: "/p", group: null, env: {}, watch: [], line: 15 },
    {
      name: "logs",
      command: "tail -f /var/log/syslog",
      cwd: "/srv",
      group: null,
      env: {},
      watch: [],
      line: 16,
    },
  ]);
});

Deno.test("parseProject() accepts an empty file as no sessions", () => {
  assert.deepEqual(parse("").sessions, []);
  assert.deepEqual(parse("sessions: []\n").sessions, []);
});

Deno.test("parseProject() rejects bad YAML with file:line", () => {
  fails("sessions:\n  - name: api\n   command: x\n", /^\/p\/lazyshell\.yml:3: /);
  fails("sessions: [\n", /^\/p\/lazyshell\.yml:\d+: /);
});

Deno.test("parseProject() rejects an invalid regex at its line", () => {
  fails(
    "sessions:\n  - name: api\n    watch:\n      - pattern: '(oops'\n",
    /^\/p\/lazyshell\.yml:4: sessions\[0\]\.watch\[0\]\.pattern: Invalid pattern "\(oops": Unterminated group$/,
  );
});

Deno.test("parseProject() rejects unknown keys at their line", () => {
  fails(
    "sessions:\n  - name: api\n    comand: make\n",
    /^\/p\/lazyshell\.yml:3: Unknown key sessions\[0\]\.comand \(expected one of: name, command/,
  );
  fails("session:\n  - name: api\n", /^\/p\/lazyshell\.yml:1: Unknown key session /);
  fails(
    "sessions:\n  - name: api\n    watch:\n      - pattern: x\n        notfy: true\n",
    /^\/p\/lazyshell\.yml:5: Unknown key sessions\[0\]\.watch\[0\]\.notfy/,
  );
});

Deno.test("parseProject() rejects wrong types at their line", () => {
  fails("sessions:\n  - name: api\n    watch: ERR!\n", /:3: sessions\[0\]\.watch: .*array/i);
  fails("sessions:\n  - name: api\n    env: [A]\n", /:3: sessions\[0\]\.env: /);
  fails("sessions:\n  - command: make\n", /:2: sessions\[0\]\.name: /);
  fails(
    "sessions:\n  - name: api\n    watch:\n      - pattern: x\n        notify: yes please\n",
    /:5: /,
  );
  fails("sessions: 3\n", /:1: sessions: /);
});

Deno.test("parseProject() rejects a missing cwd, duplicate and reserved names", () => {
  fails(
    "sessions:\n  - name: api\n    cwd: ./nope\n",
    /^\/p\/lazyshell\.yml:3: sessions\[0\]\.cwd: Directory does not exist: \/p\/nope$/,
  );
  fails(
    "sessions:\n  - name: a\n  - name: a\n",
    /:3: sessions\[1\]\.name: Duplicate session name a$/,
  );
  fails("sessions:\n  - name: session-3\n", /:2: .*reserved for ids/);
  fails("sessions:\n  - name: a\n    group: two words\n", /:3: .*Invalid group name/);
  fails('sessions:\n  - name: a\n    group: "g\\e[31m"\n', /:3: .*Invalid group name/);
  fails('sessions:\n  - name: "a\\x85b"\n', /:2: .*Invalid session name/);
});

Deno.test("resolvePath() joins and normalises", () => {
  assert.equal(resolvePath("/p", "./api"), "/p/api");
  assert.equal(resolvePath("/p/", "../q/./r"), "/q/r");
  assert.equal(resolvePath("/p", "/abs"), "/abs");
  assert.equal(resolvePath("/p", "."), "/p");
});
