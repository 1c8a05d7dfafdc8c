/**
 * The npm package (`npm pack`, `deno task pack`): package.json's `bin`
 * (bin/lazyshell) runs `dist/pkg/main.js` with the deno@2.9.6 npm package.
 *
 * Why JavaScript: npm installs a package under `node_modules/`, and Deno,
 * like Node, refuses to strip types from TypeScript under `node_modules`
 * when it uses an npm-made node_modules (ERR_UNSUPPORTED_NODE_MODULES_TYPE_STRIPPING).
 * So each module is transformed to JavaScript with Deno's own transpiler
 * (node:module stripTypeScriptTypes), one file for one file: the tree, the
 * lazy imports of main.ts and every `import.meta.url`-relative path stay as
 * they are; relative `.ts` specifiers become `.js`. Bare specifiers
 * (`zod`, `@lydell/node-pty`) resolve in the node_modules npm installed
 * from package.json's dependencies (pinned like deno.json's imports).
 *
 *   deno run -A tools/dist/pack.ts            → dist/lazyshell-<version>.tgz
 *   deno run -A tools/dist/pack.ts --in-place → dist/pkg/ only (npm's prepack)
 */

import module from "node:module";
import { copy, DATA_FILES, ROOT, run, VERSION, writeBuildRecord } from "./build.ts";

/** Module folders of the program (besides main.ts); tests and test helpers stay out. */
const MODULE_DIRS = ["src", "plugins"];
const NOT_SHIPPED = /(_test|test_util)\.ts$/;

/** Relative `.ts` specifiers (imports, and `new URL("../../main.ts", …)`) → `.js`. */
export function toJsSpecifiers(code: string): string {
  return code.replace(/(["'])(\.{1,2}\/[^"'\n]*?)\.ts\1/g, "$1$2.js$1");
}

/** One TypeScript module as JavaScript (types removed, enums and the like transformed). */
export function transpile(source: string): string {
  const strip = (module as unknown as {
    stripTypeScriptTypes?: (code: string, options: { mode: string }) => string;
  }).stripTypeScriptTypes;
  if (!strip) {
    throw new Error(`Deno ${Deno.version.deno} cannot transpile here: run with Deno 2.9.6`);
  }
  return toJsSpecifiers(strip(source, { mode: "transform" }));
}

function modules(dir: string): string[] {
  const out: string[] = [];
  for (const entry of Deno.readDirSync(`${ROOT}${dir}`)) {
    const path = `${dir}/${entry.name}`;
    if (entry.isDirectory) out.push(...modules(path));
    else if (entry.name.endsWith(".ts") && !NOT_SHIPPED.test(entry.name)) out.push(path);
  }
  return out;
}

/** Builds the program into `out` (emptied first): JavaScript modules, data files, build.json. */
export async function buildPackage(out: string): Promise<number> {
  try {
    Deno.removeSync(out, { recursive: true });
  } catch (error) {
    if (!(error instanceof Deno.errors.NotFound)) throw error;
  }
  Deno.mkdirSync(out, { recursive: true });
  const files = ["main.ts", ...MODULE_DIRS.flatMap(modules)];
  for (const file of files) {
    const target = `${out}/${file.replace(/\.ts$/, ".js")}`;
    Deno.mkdirSync(target.slice(0, target.lastIndexOf("/")), { recursive: true });
    Deno.writeTextFileSync(target, transpile(Deno.readTextFileSync(`${ROOT}${file}`)));
  }
  copy(`${ROOT}deno.json`, `${out}/deno.json`);
  for (const data of DATA_FILES) copy(`${ROOT}${data}`, `${out}/${data}`);
  await writeBuildRecord(out);
  return files.length;
}

/** The package's files (package.json's `files`, plus what npm always adds) in `dir`, built. */
export async function stagePackage(dir: string): Promise<void> {
  for (const file of ["package.json", "README.md", "bin/lazyshell"]) {
    copy(`${ROOT}${file}`, `${dir}/${file}`);
  }
  await buildPackage(`${dir}/dist/pkg`);
}

/**
 * The tarball `npm pack` makes of this checkout, written to `dest`, built
 * in a scratch copy of the package's files so the checkout is not touched.
 */
export async function packTarball(dest: string): Promise<string> {
  const staging = Deno.makeTempDirSync({ prefix: "lazyshell-pack-" });
  try {
    await stagePackage(staging);
    Deno.mkdirSync(dest, { recursive: true });
    const out = await run("npm", [
      "pack",
      staging,
      "--ignore-scripts",
      "--json",
      "--pack-destination",
      dest,
    ]);
    if (out.code !== 0) throw new Error(`npm pack failed: ${out.stderr.trim()}`);
    const [result] = JSON.parse(out.stdout) as { filename: string }[];
    return `${dest.replace(/\/$/, "")}/${result!.filename}`;
  } finally {
    Deno.removeSync(staging, { recursive: true });
  }
}

if (import.meta.main) {
  if (Deno.args.includes("--in-place")) {
    const count = await buildPackage(`${ROOT}dist/pkg`);
    console.error(`lazyshell ${VERSION}: ${count} modules built into dist/pkg`);
  } else {
    console.log(await packTarball(`${ROOT}dist`));
  }
}
