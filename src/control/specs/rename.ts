/** `rename TARGET NAME` (C2). */

import { defineSpec, TARGET_ARG } from "../spec.ts";

export interface RenameResult {
  readonly id: string;
  readonly name: string;
  readonly previous: string;
}

export default defineSpec<RenameResult>({
  name: "rename",
  summary: "Rename a session",
  args: [
    TARGET_ARG,
    {
      name: "name",
      type: "string",
      positional: true,
      required: true,
      meta: "NAME",
      help: "new unique name",
    },
  ],
  format(r) {
    return `Renamed ${r.id} from ${r.previous} to ${r.name}`;
  },
});
