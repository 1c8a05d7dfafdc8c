/**
 * The few error types (docs/architecture.md, Conventions). Anything else is a bug: log it,
 * restore the terminal, exit. Users never see a stack trace for their own
 * mistake. Messages start with a capital letter and have no trailing period.
 */

/** A user mistake: one line on stderr, exit 2. */
export class UserError extends Error {
  override readonly name = "UserError";
}

/** A peer broke a wire contract: isolate the sender, keep running. */
export class ProtocolError extends Error {
  override readonly name = "ProtocolError";
  constructor(message: string, readonly field: string | null = null) {
    super(message);
  }
}

/** A file that cannot be used, with where and why: skip that file, keep the rest. */
export class FileError extends Error {
  constructor(
    readonly file: string,
    readonly line: number | null,
    readonly reason: string,
  ) {
    super(`${file}${line === null ? "" : `:${line}`}: ${reason}`);
  }
}

export class ManifestError extends FileError {
  override readonly name = "ManifestError";
}

export class ConfigError extends FileError {
  override readonly name = "ConfigError";
}

/** `error.message` for anything thrown. */
export function messageOf(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}
