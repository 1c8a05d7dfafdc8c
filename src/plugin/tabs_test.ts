import assert from "node:assert/strict";
import type { PluginEntry } from "./discovery.ts";
import { spawnGroup } from "./procgroup_posix.ts";
import type { HostRequest, SessionEntry } from "./protocol.ts";
import { PluginTabs } from "./tabs.ts";
import { fixture } from "./test_util.ts";
import type { PluginHost } from "./host.ts";

const entry = (id: string, file: string): PluginEntry => ({
  id,
  command: [fixture(file)],
  builtin: false,
  source: fixture(file),
});

const session: SessionEntry = {
  id: "session-1",
  name: "api",
  group: null,
  status: "running",
  agent: null,
  state: null,
  since: null,
  stats: null,
  turns: 0,
  turnStartedAt: null,
  lastTurnMs: null,
  selected: true,
  cwd: "/tmp",
};

function waitView(tabs: PluginTabs, id: string, text: string, changed: Set<() => void>) {
  return new Promise<void>((resolve, reject) => {
    const host = tabs.get(id)!;
    const check = () => {
      if (!(host.state.frame?.view ?? "").includes(text)) return;
      clearTimeout(timer);
      changed.delete(check);
      resolve();
    };
    const timer = setTimeout(() => {
      changed.delete(check);
      reject(new Error(`${id}: no "${text}" in ${JSON.stringify(host.state)}`));
    }, 15_000);
    changed.add(check);
    check();
  });
}

Deno.test("plugin tabs get agents, config sections, subscribed data and route requests", async () => {
  const requests: HostRequest[] = [];
  const changed = new Set<() => void>();
  await using tabs = new PluginTabs({
    env: { HOME: "/home/t", PATH: Deno.env.get("PATH") ?? "" },
    sections: { plain: { greeting: "hello" } },
    width: 80,
    height: 20,
    spawn: spawnGroup,
    feed: {
      sessions: () => [session],
      environment: () => ({ A: "1" }),
      selected: () => "session-1",
      watchers: () => [],
      agents: () =>
        Promise.resolve([{
          id: "claude",
          name: "Claude Code",
          installed: false,
          version: null,
          managedDir: null,
          readDirs: [],
        }]),
      request: (r) => {
        requests.push(r);
        if (r.type === "arm_watcher" && r.pattern === "ERR") throw new Error("No such session");
      },
    },
    onChange: () => {
      for (const c of [...changed]) c();
    },
  });
  tabs.start([entry("plain", "good"), entry("sub", "subscriber")]);
  const plain = tabs.get("plain") as PluginHost;
  await waitView(tabs, "plain", '"greeting":"hello"', changed); // init.config from the section
  await waitView(tabs, "plain", '"type":"agents"', changed);
  await waitView(tabs, "sub", '"type":"sessions"', changed);
  tabs.setActive("sub"); // neither subscribed to visible: nothing is sent
  tabs.sessionsChanged();
  plain.key("w", "w");
  await waitView(tabs, "plain", '"type":"result"', changed);
  assert.match(plain.state.frame!.view, /"requestId":"r1","ok":false,"error":"No such session"/);
  assert.equal(requests.length, 1);
  assert.ok(!plain.state.frame!.view.includes("sessions"), "v1 plugin got no sessions");
});
