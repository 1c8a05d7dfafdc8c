import assert from "node:assert/strict";
import type { PluginEntry } from "./discovery.ts";
import { spawnGroup } from "./procgroup_posix.ts";
import type { HostRequest, SessionEntry } from "./protocol.ts";
import { PluginTabs } from "./tabs.ts";
import { fixture, sessionEntry } from "./test_util.ts";
import type { PluginHost } from "./host.ts";

const entry = (id: string, file: string): PluginEntry => ({
  id,
  command: [fixture(file)],
  builtin: false,
  source: fixture(file),
});

const session: SessionEntry = sessionEntry({ cwd: "/tmp" });

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

/**
 * Resolves once the init line the `good` fixture kept in its data dir holds
 * `text` (frames are taken at the display rate: the frame that echoed it may
 * be replaced by the next one before it is read).
 */
async function waitInit(data: string, id: string, text: string): Promise<void> {
  const file = `${data}/lazyshell/plugins/${id}/init.json`;
  const deadline = Date.now() + 15_000;
  for (;;) {
    let init = "";
    try {
      init = Deno.readTextFileSync(file);
    } catch { /* not written yet */ }
    if (init.includes(text)) return;
    if (Date.now() > deadline) throw new Error(`${id}: no "${text}" in ${file}: ${init}`);
    await new Promise((r) => setTimeout(r, 20));
  }
}

Deno.test("plugin tabs get agents, config sections, subscribed data and route requests", async () => {
  const requests: HostRequest[] = [];
  const changed = new Set<() => void>();
  const data = Deno.makeTempDirSync({ prefix: "lazyshell-tabs-" });
  await using tabs = new PluginTabs({
    env: { HOME: "/home/t", XDG_DATA_HOME: data, PATH: Deno.env.get("PATH") ?? "" },
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
  await waitInit(data, "plain", '"greeting":"hello"'); // init.config from the section
  await waitView(tabs, "plain", '"type":"agents"', changed);
  await waitView(tabs, "sub", '"type":"sessions"', changed);
  tabs.setActive("sub"); // neither subscribed to visible: nothing is sent
  tabs.sessionsChanged();
  plain.key("w", "w");
  await waitView(tabs, "plain", '"type":"result"', changed);
  assert.match(plain.state.frame!.view, /"requestId":"r1","ok":false,"error":"No such session"/);
  assert.equal(requests.length, 1);
  assert.ok(!plain.state.frame!.view.includes("sessions"), "v1 plugin got no sessions");
  // A reload changed `plain:` only: it starts again with it; `sub` runs on untouched.
  const sub = tabs.get("sub")!.pid;
  assert.deepEqual(await tabs.setSections({ plain: { greeting: "bonjour" } }), ["plain"]);
  await waitInit(data, "plain", '"greeting":"bonjour"');
  assert.equal(tabs.get("sub")!.pid, sub);
  Deno.removeSync(data, { recursive: true });
});

/** PluginTabs with a quick idle stop and a change notifier to wait on. */
function onDemandTabs(idleStopMs = 150) {
  const changed = new Set<() => void>();
  const tabs = new PluginTabs({
    env: { HOME: "/home/t", PATH: Deno.env.get("PATH") ?? "" },
    sections: {},
    width: 80,
    height: 20,
    spawn: spawnGroup,
    idleStopMs,
    feed: {
      sessions: () => [session],
      environment: () => ({}),
      selected: () => null,
      watchers: () => [],
      agents: () => Promise.resolve([]),
      request: () => {},
    },
    onChange: () => {
      for (const c of [...changed]) c();
    },
  });
  const until = (what: string, ok: () => boolean, ms = 15_000) =>
    new Promise<void>((resolve, reject) => {
      const check = () => {
        if (!ok()) return;
        clearTimeout(timer);
        clearInterval(poll);
        changed.delete(check);
        resolve();
      };
      const timer = setTimeout(() => {
        clearInterval(poll);
        changed.delete(check);
        reject(new Error(`Timed out waiting for ${what}`));
      }, ms);
      const poll = setInterval(check, 20);
      changed.add(check);
      check();
    });
  return { tabs, until };
}

/** Whether a process is still there (a zombie counts as gone: PID 1 reaps nothing here). */
function alive(pid: number): boolean {
  try {
    const stat = Deno.readTextFileSync(`/proc/${pid}/stat`);
    return stat.slice(stat.lastIndexOf(")") + 2)[0] !== "Z";
  } catch {
    return false;
  }
}

type Until = ReturnType<typeof onDemandTabs>["until"];

/** On-demand plugin `id`, running, shown to a client of its own. */
async function shown(tabs: PluginTabs, until: Until, id: string): Promise<string> {
  tabs.show(`${id}-client`, id);
  await until(`${id} to run`, () => tabs.get(id)!.state.phase === "running");
  return id;
}

/**
 * Hides the marker plugin now and resolves once it has stopped: a stop armed before it, with the
 * same idle delay, has had its turn by then (timers of one delay fire in the order they were set).
 * What the sleep of a fixed time stood for, as an event.
 */
async function hiddenUntilStopped(tabs: PluginTabs, until: Until, id: string): Promise<void> {
  const marker = tabs.get(id)!;
  tabs.show(`${id}-client`, null);
  await until(`${id} to stop`, () => !marker.awake && marker.state.phase === "stopped");
}

const lazy = (id: string): PluginEntry => ({
  ...entry(id, "good"),
  onDemand: true,
  manifest: {
    type: "manifest",
    title: "Lazy",
    help: [],
    commands: [{ name: "ping", desc: "Ping" }],
    doctor: false,
    subscribe: [],
    onDemand: true,
  },
});

Deno.test("an on-demand plugin starts when a client shows its tab, stops once hidden, starts again", async () => {
  const { tabs, until } = onDemandTabs();
  await using _ = tabs;
  tabs.start([lazy("lazy"), lazy("marker")]);
  const host = tabs.get("lazy")!;
  assert.equal(host.pid, null, "not started at launch");
  assert.equal(host.manifest?.title, "Lazy", "its tab shows the known manifest meanwhile");
  tabs.show("client-1", "lazy");
  // Running: the fixture read its init (it exits on any other first line) and sent its manifest.
  // Its first frame, which echoes the init, is no sign: the next message's frame (agents) may
  // replace it within one display tick.
  await until("it to run", () => host.state.phase === "running");
  const first = host.pid!;
  const marker = await shown(tabs, until, "marker");
  tabs.show("client-2", "lazy");
  tabs.show("client-1", null);
  await hiddenUntilStopped(tabs, until, marker);
  assert.ok(host.awake && alive(first), "another client still shows it");
  tabs.forget("client-2");
  await until("it to stop", () => !host.awake && host.state.phase === "stopped");
  await until("its process to be gone", () => !alive(first));
  assert.equal(host.manifest?.title, "Good", "the last manifest it sent stays for its tab");
  tabs.show("client-1", "lazy");
  await until("a fresh process to run", () => host.state.phase === "running" && host.pid !== first);
  assert.notEqual(host.pid, first);
  assert.ok(host.state.generation > 0);
});

Deno.test("a command wakes a sleeping on-demand plugin, which stops again once idle", async () => {
  const { tabs, until } = onDemandTabs();
  await using _ = tabs;
  tabs.start([lazy("lazy")]);
  const host = tabs.get("lazy")!;
  tabs.use("lazy");
  host.command("ping");
  await until("the command's frame", () => host.state.frame?.view === "command ping");
  await until("it to stop again", () => !host.awake && host.state.phase === "stopped");
});

Deno.test("a plugin opts in with onDemand in its manifest; a v1 plugin keeps running hidden", async () => {
  const { tabs, until } = onDemandTabs();
  await using _ = tabs;
  tabs.start([entry("od", "on_demand"), entry("plain", "good")]);
  const od = tabs.get("od")!;
  const plain = tabs.get("plain")!;
  await until("both to run", () => od.state.phase === "running" && plain.state.phase === "running");
  const pid = od.pid!;
  await until("the opted-in one to stop", () => !od.awake && !alive(pid));
  assert.ok(plain.awake, "a v1 plugin keeps today's lifecycle");
  tabs.show("client-1", "od");
  await until("it to start again", () => od.state.phase === "running");
});

Deno.test("a hidden on-demand plugin with an exec in flight is not stopped", async () => {
  const { tabs, until } = onDemandTabs(100);
  await using _ = tabs;
  tabs.start([lazy("lazy"), lazy("marker")]);
  const host = tabs.get("lazy")!;
  tabs.show("client-1", "lazy");
  await until("it to run", () => host.state.phase === "running");
  const marker = await shown(tabs, until, "marker");
  host.key("l", "l"); // a long exec
  await until("the exec", () => host.busy);
  tabs.show("client-1", null);
  await hiddenUntilStopped(tabs, until, marker);
  assert.ok(host.awake, "still running: its exec has not finished");
});

for (const subscribe of ["env", ""]) {
  Deno.test(
    `the selection's environment is read once for all the tabs that take it (${
      subscribe ? "two subscribe" : "none does"
    })`,
    async () => {
      const changed = new Set<() => void>();
      let reads = 0;
      await using tabs = new PluginTabs({
        env: {
          HOME: "/home/t",
          PATH: Deno.env.get("PATH") ?? "",
          ...(subscribe ? { LAZYSHELL_FIXTURE_SUBSCRIBE: subscribe } : {}),
        },
        sections: {},
        width: 80,
        height: 20,
        spawn: spawnGroup,
        feed: {
          sessions: () => [session],
          environment: () => {
            reads++;
            return { A: "1" };
          },
          selected: () => "session-1",
          watchers: () => [],
          agents: () => Promise.resolve([]),
          request: () => {},
        },
        onChange: () => {
          for (const c of [...changed]) c();
        },
      });
      tabs.start([entry("one", "good"), entry("two", "good")]);
      await waitView(tabs, "one", '"type":"agents"', changed);
      await waitView(tabs, "two", '"type":"agents"', changed);
      // Each tab that subscribes got the environment once it was ready.
      assert.equal(reads, subscribe ? 2 : 0);
      reads = 0;
      tabs.selectionChanged();
      tabs.selectionChanged();
      assert.equal(reads, subscribe ? 2 : 0, "one read a change, whatever the number of tabs");
    },
  );
}
