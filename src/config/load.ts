/** Reads config.yml from disk (the runtime half of config.ts). */

import { ConfigError } from "../errors.ts";
import { type LoadedConfig, parseConfig } from "./config.ts";
import { configFile, type Env } from "./paths.ts";
import { FileRefused, readSettingsFile } from "./read_file.ts";

/** A missing file is the defaults; an unreadable or invalid one is a ConfigError. */
export function loadConfig(env: Env = Deno.env.toObject()): LoadedConfig {
  const file = configFile(env);
  let text: string;
  try {
    text = readSettingsFile(file);
  } catch (error) {
    if (error instanceof Deno.errors.NotFound) return parseConfig("", file);
    if (error instanceof FileRefused) throw new ConfigError(file, null, error.message);
    throw new ConfigError(file, null, `Cannot read: ${(error as Error).message}`);
  }
  return parseConfig(text, file);
}
