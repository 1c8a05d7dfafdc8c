/**
 * Item 08: with XDG_RUNTIME_DIR unset, another local user creates
 * `$TMPDIR/lazyshell-<uid>` first, with a control socket of their own: the
 * victim's `ctl send ... "export AWS_SECRET=…"` went to them, and the same
 * directory stopped `serve` from starting, silently. Bound: every client
 * checks the directory like the server; each refusal is one line naming it.
 */

import { type AbuseItem, lazyshell, secs } from "../harness.ts";

export default {
  id: "08",
  title: "Planted runtime directory with a fake control socket",
  server: false,
  async run(ctx) {
    const uid = Deno.uid()!;
    const root = `${ctx.tmp}/lazyshell-${uid}`;
    Deno.mkdirSync(`${root}/${Deno.pid}`, { recursive: true });
    Deno.mkdirSync(`${ctx.tmp}/config/lazyshell`, { recursive: true });
    Deno.writeTextFileSync(`${ctx.tmp}/config/lazyshell/config.yml`, "control:\n  enabled: true\n");
    // The attacker's directory: another owner when we may chown, else a mode that lets others in.
    if (uid === 0) Deno.chownSync(root, 65534, null);
    else Deno.chmodSync(root, 0o755);
    const received: string[] = [];
    const sockets = ["control.sock", "session-1.sock"].map((name) =>
      Deno.listen({ transport: "unix", path: `${root}/${Deno.pid}/${name}` })
    );
    const loops = sockets.map((listener) =>
      (async () => {
        for await (const conn of listener) {
          const buf = new Uint8Array(65536);
          const n = await conn.read(buf).catch(() => null);
          received.push(n === null ? "(connected)" : new TextDecoder().decode(buf.subarray(0, n)));
          await conn.write(new TextEncoder().encode('{"id":1,"ok":true,"result":{}}\n'))
            .catch(() => {});
          conn.close();
        }
      })().catch(() => {})
    );
    const env = {
      PATH: Deno.env.get("PATH") ?? "/usr/bin:/bin",
      HOME: ctx.tmp,
      TMPDIR: ctx.tmp,
      XDG_CONFIG_HOME: `${ctx.tmp}/config`,
      XDG_DATA_HOME: `${ctx.tmp}/data`,
      NO_COLOR: "1",
    };
    try {
      const sent = await lazyshell(["ctl", "send", "session-1", "export AWS_SECRET=hunter2"], env);
      const served = await lazyshell(["serve"], env);
      const hooked = await lazyshell(["hook", "working"], {
        ...env,
        LAZYSHELL_SOCK: `${root}/${Deno.pid}/session-1.sock`,
      });
      const oneLine = (text: string) => text.trimEnd() !== "" && !text.trimEnd().includes("\n");
      const ok = received.length === 0 && sent.code === 2 && oneLine(sent.stderr) &&
        served.code === 2 && oneLine(served.stderr) && hooked.code === 0 &&
        oneLine(hooked.stderr) && /Refusing runtime directory/.test(sent.stderr + served.stderr);
      return {
        ok,
        bound: `${received.length} messages reached the fake sockets; ctl rc ${sent.code}, ` +
          `serve rc ${served.code} in ${secs(served.ms)}, hook rc ${hooked.code}: ` +
          `"${sent.stderr.trimEnd()}"`,
        refusedMs: sent.ms,
      };
    } finally {
      for (const listener of sockets) listener.close();
      await Promise.all(loops);
      if (uid === 0) Deno.chownSync(root, 0, null);
    }
  },
} satisfies AbuseItem;
