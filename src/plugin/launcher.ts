/**
 * The launcher's path (src/plugin/self.ts): main.ts adopts it first thing,
 * before any command runs. Imports nothing: every command loads it.
 */

/** The variable a launcher sets to its own absolute path. */
export const SELF_ENV = "LAZYSHELL_SELF";

let adopted: string | null = null;

/** Takes the launcher's path out of the environment (main.ts, before anything starts). */
export function adoptLauncher(): void {
  const value = Deno.env.get(SELF_ENV);
  if (value === undefined) return;
  Deno.env.delete(SELF_ENV);
  if (value.startsWith("/")) adopted = value;
}

/** The path adoptLauncher() took, or null (no launcher started this process). */
export function adoptedLauncher(): string | null {
  return adopted;
}
