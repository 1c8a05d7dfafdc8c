import assert from "node:assert/strict";
import {
  clientEnvironment,
  DEFAULT_UPDATE_ENVIRONMENT,
  environmentUpdate,
  MAX_CLIENT_ENV_BYTES,
} from "./update_env.ts";
import { parseConfig } from "../config/config.ts";
import { Runtime } from "../runtime/runtime.ts";
import { TEST_SHELL, testEnv } from "../session/test_util.ts";

Deno.test("environmentUpdate(): a listed variable the client has is set, one it lacks removed", () => {
  assert.deepEqual(
    environmentUpdate(["SSH_AUTH_SOCK", "DISPLAY", "ANTHROPIC_API_KEY"], {
      SSH_AUTH_SOCK: "/run/agent",
      ANTHROPIC_API_KEY: "",
      PATH: "/bin",
    }),
    { SSH_AUTH_SOCK: "/run/agent", DISPLAY: null, ANTHROPIC_API_KEY: "" },
  );
});

Deno.test("clientEnvironment(): bounded, the default list first, bad names and huge values left out", () => {
  const env: Record<string, string> = {
    SSH_AUTH_SOCK: "/run/agent",
    "BAD-NAME": "x",
    HUGE: "x".repeat(9000),
  };
  for (let i = 0; i < 2000; i++) env[`FILLER_${String(i).padStart(4, "0")}`] = "y".repeat(40);
  const sent = clientEnvironment(env);
  assert.equal(sent.SSH_AUTH_SOCK, "/run/agent");
  assert.equal(sent["BAD-NAME"], undefined);
  assert.equal(sent.HUGE, undefined);
  assert.ok(JSON.stringify(sent).length <= MAX_CLIENT_ENV_BYTES + 4096);
  assert.ok(Object.keys(sent).length > 100, "the rest while it fits");
});

Deno.test("config update_environment: tmux's list and the agents' keys by default, names checked", () => {
  const config = parseConfig("", "config.yml").config;
  assert.deepEqual(config.update_environment, [...DEFAULT_UPDATE_ENVIRONMENT]);
  for (const name of ["SSH_AUTH_SOCK", "DISPLAY", "ANTHROPIC_API_KEY", "OPENAI_API_KEY"]) {
    assert.ok(config.update_environment.includes(name), name);
  }
  assert.deepEqual(
    parseConfig("update_environment: [MY_TOKEN]\n", "config.yml").config.update_environment,
    ["MY_TOKEN"],
  );
  assert.throws(
    () => parseConfig('update_environment: ["A B"]\n', "config.yml"),
    /update_environment/,
  );
});

Deno.test("update_environment: new sessions get the attaching client's variables, a reload's list at once", async () => {
  const env = testEnv({ SSH_AUTH_SOCK: "/run/server-agent", MY_TOKEN: "server" });
  await using runtime = new Runtime({
    env,
    config: parseConfig(`shell: ${TEST_SHELL}\n`, "config.yml"),
    cwd: "/",
  });
  const childEnv = (name: string) => runtime.createSession({ name, command: "sleep 30" }).env;
  runtime.clientAttached({ ANTHROPIC_API_KEY: "sk-client", MY_TOKEN: "client" });
  const first = childEnv("first");
  assert.equal(first.ANTHROPIC_API_KEY, "sk-client", "a listed variable the client has");
  assert.equal(first.SSH_AUTH_SOCK, undefined, "a listed variable the client lacks is removed");
  assert.equal(first.MY_TOKEN, "server", "an unlisted one stays the server's");
  await runtime.reconfigure({
    loaded: parseConfig(`shell: ${TEST_SHELL}\nupdate_environment: [MY_TOKEN]\n`, "config.yml"),
    catalog: runtime.catalog,
  });
  const second = childEnv("second");
  assert.equal(second.MY_TOKEN, "client", "the new list, from the same client");
  assert.equal(second.SSH_AUTH_SOCK, "/run/server-agent", "no longer listed: the server's again");
  assert.equal(first.ANTHROPIC_API_KEY, "sk-client", "a running session keeps its environment");
});
