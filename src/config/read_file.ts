/**
 * Reads a file lazyshell takes settings from (config.yml, a project file,
 * an agent manifest) with a size and a type limit: a regular file (a
 * symlink to one is fine) of at most MAX_SETTINGS_FILE_BYTES. Anything
 * else is refused before it is opened or read whole — a 72 MB file would
 * hold start-up for as long as YAML takes to parse it, a FIFO would block
 * it forever, a symlink to /dev/zero would grow memory until the process
 * dies.
 */

/** Far above any real settings file (the built-in manifests are under 5 KiB). */
export const MAX_SETTINGS_FILE_BYTES = 256 * 1024;

/** A file refused by its type or size; the message is the one-line reason. */
export class FileRefused extends Error {
  override readonly name = "FileRefused";
}

/** The text of `path`; NotFound as Deno throws it, FileRefused for a file it will not read. */
export function readSettingsFile(path: string | URL, max = MAX_SETTINGS_FILE_BYTES): string {
  const info = Deno.statSync(path);
  if (!info.isFile) throw new FileRefused(`Not a regular file (${kindOf(info)}): not read`);
  const over = (size: string) =>
    new FileRefused(`${size}, over the ${max / 1024} KiB limit of a settings file: not read`);
  if (info.size > max) throw over(`${info.size} bytes`);
  using file = Deno.openSync(path);
  const buffer = new Uint8Array(max + 1);
  let length = 0;
  while (length < buffer.length) {
    const n = file.readSync(buffer.subarray(length));
    if (n === null) break;
    length += n;
  }
  // It grew between stat and read.
  if (length > max) throw over("more than that");
  return new TextDecoder().decode(buffer.subarray(0, length));
}

function kindOf(info: Deno.FileInfo): string {
  if (info.isDirectory) return "a directory";
  if (info.isFifo) return "a FIFO";
  if (info.isCharDevice) return "a character device";
  if (info.isBlockDevice) return "a block device";
  if (info.isSocket) return "a socket";
  return "not a file";
}
