/**
 * Item 10d: the env tab showed DATABASE_URL, MONGODB_URI,
 * REDIS_URL, GITHUB_PAT, GH_PAT, CI_JOB_JWT, MYSQL_PWD, SLACK_WEBHOOK_URL
 * and STRIPE_SK unmasked. Bound: a rule (plugins/env/env.ts) masks them
 * and credentials in any variable's value, not PWD or PATH.
 */

import { isSecret } from "../../../plugins/env/env.ts";
import type { AbuseItem } from "../harness.ts";

const SECRETS: Record<string, string> = {
  DATABASE_URL: "postgres://app:s3cret@db:5432/app",
  MONGODB_URI: "mongodb+srv://root:hunter2@cluster0.example.net/prod",
  REDIS_URL: "redis://:p4ss@cache:6379/0",
  GITHUB_PAT: "github_pat_11ABCDEFG0123456789abcdef",
  GH_PAT: "ghp_0123456789abcdefghijklmnopqrstuvwxyz",
  CI_JOB_JWT: "eyJhbGciOiJSUzI1NiJ9.eyJzdWIiOiJqb2IifQ.c2ln",
  MYSQL_PWD: "root",
  SLACK_WEBHOOK_URL: "https://hooks.slack.com/services/T000/B000/XXXXXXXX",
  STRIPE_SK: "sk_live_51H0123456789",
  ANY_NAME: "https://deploy:tok3n@git.example.com/app.git",
};
const PLAIN: Record<string, string> = { PWD: "/src", OLDPWD: "/", PATH: "/bin", LANG: "C.UTF-8" };

export default {
  id: "10d",
  title: "Env tab masking of credentials",
  server: false,
  run() {
    const shown = Object.entries(SECRETS).filter(([n, v]) => !isSecret(n, v)).map(([n]) => n);
    const hidden = Object.entries(PLAIN).filter(([n, v]) => isSecret(n, v)).map(([n]) => n);
    return Promise.resolve({
      ok: shown.length === 0 && hidden.length === 0,
      bound: `${Object.keys(SECRETS).length - shown.length}/${Object.keys(SECRETS).length} ` +
        `credentials masked${shown.length ? ` (shown: ${shown.join(", ")})` : ""}; ` +
        `${hidden.length} plain variables masked${hidden.length ? ` (${hidden.join(", ")})` : ""}`,
    });
  },
} satisfies AbuseItem;
