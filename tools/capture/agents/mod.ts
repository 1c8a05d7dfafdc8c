/** The CLIs the capture tool knows, by id. */

import type { AgentProfile } from "../profile.ts";
import { claude } from "./claude.ts";
import { codex } from "./codex.ts";
import { gemini } from "./gemini.ts";
import { opencode } from "./opencode.ts";
import { qwen } from "./qwen.ts";

export const AGENTS: Readonly<Record<string, AgentProfile>> = {
  claude,
  codex,
  opencode,
  gemini,
  qwen,
};
