/**
 * Headless Chromium for the web view's tests and bench, driven by
 * playwright-core: Debian's `chromium` package (.ci/run installs it), or
 * $LAZYSHELL_CHROMIUM. Null, with the reason, where there is none.
 */

import { type Browser, chromium } from "playwright-core";
import { exists } from "../src/util/fs.ts";

const CANDIDATES = ["/usr/bin/chromium", "/usr/bin/chromium-browser", "/usr/bin/google-chrome"];

export function chromiumPath(): string | null {
  const named = Deno.env.get("LAZYSHELL_CHROMIUM");
  if (named) return named;
  return CANDIDATES.find((p) => exists(p)) ?? null;
}

/** Why the browser tests cannot run here, or null when they can. */
export const NO_BROWSER = chromiumPath() === null
  ? "web browser tests skipped: no Chromium (apt-get install chromium, or set LAZYSHELL_CHROMIUM)"
  : null;

export async function launch(args: readonly string[] = []): Promise<Browser> {
  return await chromium.launch({
    executablePath: chromiumPath()!,
    args: ["--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage", ...args],
  });
}
