/**
 * The dependency rule (README "Dependency rule", docs/architecture.md), enforced by reading imports:
 * - pure layers import no runtime (no Deno.*, node-pty, xterm, node:*);
 * - the engine (src/runtime/) and the runtimes under it never import the TUI (src/tui/);
 * - nothing imports the TUI's wiring (src/tui/ outside its pure core/) but the server that
 *   runs it (src/server/), the client that shows it (src/client/), main.ts and cli/;
 * - the client and the server import nothing of each other: what both speak is in src/wire/;
 * - folders form no import cycle;
 * - only src/platform/ reads the OS's process files (no other module of src/ or tools/ names them).
 */

import assert from "node:assert/strict";

const ROOT = new URL("../", import.meta.url).pathname;

/** Pure folders: every module under them. */
const PURE_FOLDERS = [
  "src/model/",
  "src/limits/",
  "src/detect/",
  "src/tui/core/",
];
/** Pure files inside otherwise-runtime folders: a schema, parser or reducer each. */
const PURE_FILES = [
  "src/runtime/state.ts",
  "src/config/config.ts",
  "src/config/yaml_file.ts",
  "src/config/project.ts",
  "src/config/project_path.ts",
  "src/ipc/protocol.ts",
  "src/ipc/conversation.ts",
  "src/ipc/integrations.ts",
  "src/wire/protocol.ts",
  "src/restore/state_file.ts",
  "src/restore/plan.ts",
  "src/plugin/protocol.ts",
  "src/plugin/view.ts",
  "src/plugin/lifecycle.ts",
  "src/git/parse.ts",
  "src/git/base.ts",
  "src/git/branch_name.ts",
  "src/util/nearest.ts",
  "src/util/yaml_error.ts",
  "src/util/duration.ts",
  "src/util/lines.ts",
  "src/util/width.ts",
  "src/util/width_table.ts",
];
const PURE = [...PURE_FOLDERS, ...PURE_FILES];
const RUNTIMES = [
  "src/runtime/",
  "src/replay/",
  "src/session/",
  "src/ipc/",
  "src/plugin/",
  "src/notify/",
  "src/control/",
  "src/restore/",
  "src/git/",
];
const RUNTIME_PACKAGES = /^(npm:)?(@lydell\/node-pty|@xterm\/headless)|^node:/;

interface SourceFile {
  readonly path: string;
  readonly text: string;
  readonly imports: readonly string[];
}

function walk(dir: string): string[] {
  const out: string[] = [];
  for (const entry of Deno.readDirSync(`${ROOT}${dir}`)) {
    const path = `${dir}${entry.name}`;
    if (entry.isDirectory) out.push(...walk(`${path}/`));
    else if (entry.name.endsWith(".ts") && !/_test\.ts$|test_util\.ts$/.test(entry.name)) {
      out.push(path);
    }
  }
  return out;
}

function resolve(from: string, spec: string): string {
  if (!spec.startsWith(".")) return spec;
  const parts = from.split("/").slice(0, -1);
  for (const piece of spec.split("/")) {
    if (piece === "..") parts.pop();
    else if (piece !== ".") parts.push(piece);
  }
  return parts.join("/");
}

/** What a module at `path` imports: static, side-effect-only (`import "x";`) and dynamic. */
function importsOf(path: string, text: string): string[] {
  return [
    ...text.matchAll(/^\s*(?:import|export)\b[^;]*?\bfrom\s+["']([^"']+)["']/gms),
    ...text.matchAll(/^\s*import\s*["']([^"']+)["']/gm),
    ...text.matchAll(/\bimport\(\s*["']([^"']+)["']\s*\)/g),
  ].map((m) => resolve(path, m[1] ?? ""));
}

function sources(): SourceFile[] {
  const files = ["main.ts", ...walk("src/")];
  return files.map((path) => {
    const text = Deno.readTextFileSync(`${ROOT}${path}`);
    return { path, text, imports: importsOf(path, text) };
  });
}

Deno.test("every form of import is read: a side-effect import does not slip past the rules", () => {
  const text = [
    'import "../tui/app.ts";',
    'import { a } from "./a.ts";',
    "import type {",
    "  B,",
    '} from "../model/b.ts";',
    'export * from "./c.ts";',
    'const d = await import("../session/d.ts");',
  ].join("\n");
  assert.deepEqual(importsOf("src/runtime/x.ts", text).sort(), [
    "src/model/b.ts",
    "src/runtime/a.ts",
    "src/runtime/c.ts",
    "src/session/d.ts",
    "src/tui/app.ts",
  ]);
});

const within = (path: string, prefixes: readonly string[]) =>
  prefixes.some((p) => (p.endsWith("/") ? path.startsWith(p) : path === p));

Deno.test("every pure entry exists, and no pure file sits in a pure folder", () => {
  const exists = (path: string) => {
    try {
      Deno.statSync(`${ROOT}${path}`);
      return true;
    } catch {
      return false;
    }
  };
  assert.deepEqual(PURE.filter((p) => !exists(p)), []);
  assert.deepEqual(PURE_FILES.filter((f) => within(f, PURE_FOLDERS)), []);
});

Deno.test("pure layers import no runtime and use no Deno API", () => {
  const problems: string[] = [];
  for (const file of sources().filter((f) => within(f.path, PURE))) {
    for (const spec of file.imports) {
      if (RUNTIME_PACKAGES.test(spec)) problems.push(`${file.path} imports ${spec}`);
      if (spec.startsWith("src/") && !within(spec, PURE) && spec !== "src/errors.ts") {
        problems.push(`${file.path} imports runtime module ${spec}`);
      }
    }
    if (/\bDeno\.(?!test\b)/.test(file.text.replace(/\/\/.*$|\/\*[\s\S]*?\*\//gm, ""))) {
      problems.push(`${file.path} uses the Deno API`);
    }
  }
  assert.deepEqual(problems, []);
});

Deno.test("the engine and the runtimes never import the TUI", () => {
  const problems = sources()
    .filter((f) => within(f.path, RUNTIMES))
    .flatMap((f) =>
      f.imports.filter((s) => s.startsWith("src/tui/")).map((s) => `${f.path} → ${s}`)
    );
  assert.deepEqual(problems, []);
});

Deno.test("nothing imports the TUI's wiring but the server, the client, main.ts and cli/", () => {
  const wiring = (s: string) => s.startsWith("src/tui/") && !within(s, PURE);
  const allowed = ["src/tui/", "src/cli/", "src/server/", "src/client/"];
  const problems = sources()
    .filter((f) => !allowed.some((a) => f.path.startsWith(a)))
    .filter((f) => f.path !== "main.ts")
    .flatMap((f) => f.imports.filter(wiring).map((s) => `${f.path} → ${s}`));
  assert.deepEqual(problems, []);
});

Deno.test("the client and the server share only the wire: neither imports the other", () => {
  const problems = sources()
    .flatMap((f) =>
      f.imports
        .filter((s) =>
          (f.path.startsWith("src/client/") && s.startsWith("src/server/")) ||
          (f.path.startsWith("src/server/") && s.startsWith("src/client/"))
        )
        .map((s) => `${f.path} → ${s}`)
    );
  assert.deepEqual(problems, []);
});

Deno.test("folders form no import cycle", () => {
  const folder = (path: string) => path.split("/").slice(0, 2).join("/");
  const edges = new Map<string, Set<string>>();
  for (const file of sources()) {
    for (const spec of file.imports.filter((s) => s.startsWith("src/"))) {
      const [a, b] = [folder(file.path), folder(spec)];
      if (a !== b) edges.set(a, (edges.get(a) ?? new Set()).add(b));
    }
  }
  const cycles: string[] = [];
  const visit = (node: string, trail: string[]) => {
    if (trail.includes(node)) {
      cycles.push([...trail.slice(trail.indexOf(node)), node].join(" → "));
      return;
    }
    for (const next of edges.get(node) ?? []) visit(next, [...trail, node]);
  };
  for (const node of edges.keys()) visit(node, []);
  assert.deepEqual(cycles, []);
});

/**
 * One stream per consumer (docs/architecture.md, One runtime state): the TUI, the plugin feed,
 * the control verbs and the state file's recorder read the runtime's state and change stream,
 * and act on sessions through their handles and verbs (`runtime.sessions`, `host.sessions`):
 * never the store's own events, the detection hub or the notifications (private to the runtime).
 */
Deno.test("the runtime's consumers never reach its store", () => {
  const consumers = ["src/tui/", "src/control/", "src/restore/recorder.ts", "src/server/"];
  const problems = sources()
    .filter((f) => within(f.path, consumers))
    .filter((f) => /\.store\b/.test(f.text.replace(/\/\/.*$|\/\*[\s\S]*?\*\//gm, "")))
    .map((f) => `${f.path} reaches .store`);
  assert.deepEqual(problems, []);
});

Deno.test("the emulator (xterm) stays in the session layer: others read screens through Session", () => {
  const problems = sources()
    // The web page's own xterm.js (src/web/assets/) is text served to a browser, not the emulator.
    .filter((f) => !f.path.startsWith("src/session/") && f.path !== "src/web/assets/bundle.gen.ts")
    .flatMap((f) => [
      ...f.imports.filter((s) => s === "src/session/xterm_internals.ts" || /@xterm\//.test(s))
        .map((s) => `${f.path} imports ${s}`),
      ...(/\.xterm\b/.test(f.text.replace(/\/\/.*$|\/\*[\s\S]*?\*\//gm, ""))
        ? [`${f.path} touches .xterm`]
        : []),
    ]);
  assert.deepEqual(problems, []);
});

/**
 * One truth per fact (docs/architecture.md, Conventions): a fact written twice drifts (two width
 * tables disagreed on 935 code points). Each of these is defined in one file.
 */
Deno.test("each shared fact is defined once", () => {
  const facts: [string, RegExp, string][] = [
    ["display width of a character", /function charWidth\(/, "src/util/width.ts"],
    [
      "duration text (1m32s)",
      /\bfunction (formatDuration|duration)\(|padStart\(2, "0"\)\}s`/,
      "src/util/duration.ts",
    ],
    ["capped line splitter", /indexOf\((0x0a|NEWLINE)\b/, "src/util/lines.ts"],
    ["entering the alternate screen", /\\x1b\[\?1049h/, "src/tui/core/terminal_modes.ts"],
    ["leaving the alternate screen", /\\x1b\[\?1049l/, "src/tui/core/terminal_modes.ts"],
  ];
  const files = [
    ...sources(),
    ...walk("plugins/").map((path) => ({
      path,
      text: Deno.readTextFileSync(`${ROOT}${path}`),
      imports: [],
    })),
  ];
  const problems: string[] = [];
  for (const [fact, pattern, home] of facts) {
    const where = files.filter((f) => pattern.test(f.text)).map((f) => f.path);
    if (where.join() !== home) {
      problems.push(`${fact}: ${where.join(", ") || "nowhere"} (want ${home})`);
    }
  }
  assert.deepEqual(problems, []);
});

Deno.test("the README's package map names every folder of src/", () => {
  const readme = Deno.readTextFileSync(`${ROOT}README.md`);
  const map = readme.slice(readme.indexOf("## Package map"), readme.indexOf("## Dependency rule"));
  const folders = [...Deno.readDirSync(`${ROOT}src`)].filter((e) => e.isDirectory)
    .map((e) => `src/${e.name}/`);
  assert.deepEqual(folders.filter((f) => !map.includes("`" + f + "`")), []);
});

/**
 * The platform seam (docs/architecture.md, "The platform seam"): what the OS tells of processes
 * is asked of src/platform/ (process_files.ts, proc_stat.ts, liveness.ts, terminal.ts), so that
 * another OS has one place to answer. Tests and benchmarks, which run on Linux, may read it.
 */
Deno.test("only src/platform/ names the OS's process files", () => {
  const files = [...sources().map((f) => f.path), ...walk("tools/")];
  const problems = files
    .filter((path) => !path.startsWith("src/platform/"))
    .filter((path) => Deno.readTextFileSync(`${ROOT}${path}`).includes("/proc/"))
    .map((path) => `${path} names /proc/`);
  assert.deepEqual(problems, []);
});
