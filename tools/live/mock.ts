/**
 * `deno run -A tools/live/mock.ts [PORT_FILE]`: the capture mock model server
 * on 127.0.0.1, alone, until SIGTERM/SIGINT — for checking the TUI by hand
 * (tmux) with a real agent CLI. Prints its URL (and writes it to PORT_FILE).
 */

import { startMockServer } from "../capture/mock/server.ts";

await using mock = await startMockServer({
  onEvent: (e) =>
    e.kind !== "aux" && console.log(`${new Date().toISOString()} ${e.type} ${e.script ?? ""}`),
});
console.log(mock.url);
if (Deno.args[0]) Deno.writeTextFileSync(Deno.args[0], mock.url);
const stop = Promise.withResolvers<void>();
for (const s of ["SIGTERM", "SIGINT"] as const) Deno.addSignalListener(s, () => stop.resolve());
await stop.promise;
