/**
 * Which environment values are secrets: the env tab masks them until
 * revealed on purpose (plugins/env), and the state file of `lazyshell
 * restore` never writes them (it keeps the name and reads the value again
 * from the environment at restore). Pure.
 *
 * A rule, not a list of variables: a name with a secret word in it, a data
 * store's connection string, or a value that carries a credential whatever
 * its name — a URL with a password or token in it, or a token of a
 * well-known shape.
 */

/** Words anywhere in the name, then short ones only as a whole `_`-separated word (not PATH, PWD). */
const SECRET_NAME = new RegExp(
  [
    "TOKEN|SECRET|KEY|PASSWORD|PASSWD|PASSPHRASE|CREDENTIAL|AUTH|PRIVATE|COOKIE|SIGNATURE|SALT",
    "DSN|WEBHOOK|JWT|CONNECTION_?STRING",
    "(^|_)(PASS|PW|PAT|SK|PSK|OTP)($|_)",
    // MY_CRED, GCP_CREDS, SMTP_PASSCODE, X_AUTH...: after a `_`, any ending (not PASSENGER)
    "(^|_)CRED|_PASS",
    "_PWD($|_)", // MYSQL_PWD; PWD and OLDPWD are directories
    // A data store's connection string: DATABASE_URL, MONGODB_URI, REDIS_URL, AMQP_URL ...
    "(^|_)(DATABASE|DB|MONGO|REDIS|POSTGRES|PG|MYSQL|MARIADB|AMQP|RABBIT|KAFKA|ELASTIC)\\w*_UR[LI]$",
  ].join("|"),
  "i",
);

/** A URL with `user:password@` (or a long `token@`) before its host. */
const URL_CREDENTIAL = /[a-z][a-z0-9+.-]*:\/\/([^\s/@:]*:[^\s/@]+|[^\s/@:]{16,})@/i;
/** Token shapes that are secrets wherever they appear: JWTs, GitHub, GitLab, Slack, Stripe, AWS keys. */
const TOKEN_VALUE =
  /eyJ[\w-]{8,}\.[\w-]{8,}\.|\b(gh[pousr]_|github_pat_|glpat-|xox[abprs]-|sk_(live|test)_|rk_live_)\w{8,}|\bAKIA[0-9A-Z]{16}\b/;

export function isSecretName(name: string): boolean {
  return SECRET_NAME.test(name);
}

/** Whether a variable's value is masked: a secret name, or a credential in the value. */
export function isSecret(name: string, value: string): boolean {
  return isSecretName(name) || URL_CREDENTIAL.test(value) || TOKEN_VALUE.test(value);
}
