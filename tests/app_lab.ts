/**
 * A TUI loop (TuiApp) on a real Runtime in a temp dir, for the tests that
 * drive it with host-terminal bytes against real PTY sessions. Its disposal
 * ends the app, the runtime (its sessions) and removes the dir.
 */

import { parseConfig } from "../src/config/config.ts";
import { Runtime } from "../src/runtime/runtime.ts";
import { TuiApp } from "../src/tui/app.ts";
import { testEnv } from "../src/session/test_util.ts";

export interface AppLab extends AsyncDisposable {
  readonly dir: string;
  readonly runtime: Runtime;
  readonly app: TuiApp;
}

export interface AppLabOptions {
  /** The host terminal's size. */
  readonly cols: number;
  readonly rows: number;
  /** config.yml's text (default: empty). */
  readonly config?: string;
  /** The sessions' default size (default: the config's). */
  readonly sessionSize?: { readonly cols: number; readonly rows: number };
}

export function appLab(prefix: string, options: AppLabOptions): AppLab {
  const dir = Deno.makeTempDirSync({ prefix });
  const env = testEnv({ XDG_CONFIG_HOME: `${dir}/c`, XDG_DATA_HOME: `${dir}/d` });
  const runtime = new Runtime({
    env,
    config: parseConfig(options.config ?? "", "config.yml"),
    cwd: dir,
    ...options.sessionSize,
  });
  const app = new TuiApp({ runtime, write: () => {}, cols: options.cols, rows: options.rows });
  app.start();
  return {
    dir,
    runtime,
    app,
    async [Symbol.asyncDispose]() {
      app[Symbol.dispose]();
      await runtime[Symbol.asyncDispose]();
      Deno.removeSync(dir, { recursive: true });
    },
  };
}
