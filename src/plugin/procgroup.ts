/**
 * A child process that can be ended with everything it started (docs/plugin-protocol.md):
 * a POSIX process group (procgroup_posix.ts) or a Windows Job Object
 * (jobobject_windows.ts). The plugin host and non-interactive exec use it.
 */

export interface GroupSpawnOptions {
  readonly cwd?: string;
  readonly env: Record<string, string>;
  /** "piped" for the protocol and exec; "null" when nothing is read. */
  readonly stdin: "piped" | "null";
}

export interface GroupStatus {
  readonly code: number | null;
  readonly signal: string | null;
}

export interface GroupProcess {
  readonly pid: number;
  readonly stdin: WritableStream<Uint8Array> | null;
  readonly stdout: ReadableStream<Uint8Array>;
  readonly stderr: ReadableStream<Uint8Array>;
  /** Resolves when the direct child has exited. */
  readonly status: Promise<GroupStatus>;
  /** Signals the whole group (POSIX) / ends the tree (Windows). Never throws. */
  signal(signal: "SIGTERM" | "SIGKILL"): void;
  /** After the child exited: kill whatever of its group is left. Never throws. */
  killLeftovers(): void;
}

export type GroupSpawner = (argv: readonly string[], options: GroupSpawnOptions) => GroupProcess;

/** The spawner for this OS; throws Deno.errors.NotFound etc. when the program cannot start. */
export async function groupSpawner(
  os: typeof Deno.build.os = Deno.build.os,
): Promise<GroupSpawner> {
  if (os === "windows") return (await import("./jobobject_windows.ts")).spawnInJob;
  return (await import("./procgroup_posix.ts")).spawnGroup;
}
