/**
 * How the mock model fails on purpose (pure data + decisions, no runtime):
 * the error replies each wire API really sends for a rate limit, an
 * overload, a bad key and an exhausted quota, a stream cut mid-answer, and
 * a transient failure that recovers.
 *
 * The failure is chosen from the last user text, like a script
 * (scripts.ts): `LAB-FAIL-RATE`, `LAB-FAIL-RATE-LONG` (a rate limit whose
 * message is longer than a terminal row, asking to retry in 1 s), `LAB-FAIL-OVERLOAD`, `LAB-FAIL-AUTH`,
 * `LAB-FAIL-QUOTA`, `LAB-FAIL-CUT`, `LAB-FAIL-FLAKY`. Every request of such
 * a turn fails (a CLI's retries included), except `FLAKY`, whose first
 * FLAKY_FAILURES main requests fail with an overload and the next one
 * answers normally. `LAB-FAIL-LIMIT` is a usage limit (docs/limits.md) in each
 * API's real shape, resetting LIMIT_RESET_SECONDS after the turn's first
 * limited request: Anthropic's unified rate-limit headers (`rejected`, the
 * reset epoch, `five_hour`, no retry), OpenAI's `usage_limit_reached` body
 * with `resets_at`, Gemini's RESOURCE_EXHAUSTED with a retry delay over
 * 300 s. Every request of that turn before the reset gets the same reset;
 * after it the limit has lifted and the turn answers (LimitWindows): Claude
 * Code, continuing by itself, sends the very turn again.
 */

import type { ApiName } from "./apis.ts";

export const FAILURES = [
  "rate",
  "rate-long",
  "overload",
  "auth",
  "quota",
  "cut",
  "flaky",
  "limit",
  "limit-week",
] as const;
export type FailureMode = typeof FAILURES[number];

/** How many main requests of a `flaky` turn fail before one succeeds. */
export const FLAKY_FAILURES = 2;

/** A usage limit resets this long after the reply (seconds): a few, so a run sees it lift. */
export const LIMIT_RESET_SECONDS = 90;
/** Gemini's retry delay for a usage limit: over its 300 s threshold (it then shows the limit). */
export const GEMINI_LIMIT_DELAY_SECONDS = 400;

/** Seconds a rate limit or overload asks the client to wait (`Retry-After`). */
export const RETRY_AFTER_SECONDS = 2;

/** An HTTP error reply. */
export interface ErrorReply {
  readonly status: number;
  readonly headers: Readonly<Record<string, string>>;
  readonly body: unknown;
}

const MARKER = /LAB-FAIL-(RATE-LONG|RATE|OVERLOAD|AUTH|QUOTA|CUT|FLAKY|LIMIT-WEEK|LIMIT)\b/;

/** The failure the last user text asks for, or null. */
export function failureOf(lastUserText: string): FailureMode | null {
  const m = MARKER.exec(lastUserText);
  return m ? m[1]!.toLowerCase() as FailureMode : null;
}

/**
 * The HTTP error for `mode` in `api`'s own shape, or null when the mode is
 * not an HTTP error (`cut` streams, then drops the connection). `flaky`
 * fails as an overload.
 */
export function errorReply(
  api: ApiName,
  mode: FailureMode,
  now: number = Date.now(),
): ErrorReply | null {
  switch (mode) {
    case "limit":
    case "limit-week":
      return usageLimit(api, Math.floor(now / 1000) + LIMIT_RESET_SECONDS, mode === "limit-week");
    case "rate":
      return withRetry(RATE[api]);
    case "rate-long":
      return withRetry(RATE_LONG[api], 1);
    case "overload":
    case "flaky":
      return withRetry(OVERLOAD[api]);
    case "auth":
      return plain(AUTH[api]);
    case "quota":
      return plain(QUOTA[api]);
    case "cut":
      return null;
  }
}

type Shape = { readonly status: number; readonly body: unknown };

function withRetry(s: Shape, seconds = RETRY_AFTER_SECONDS): ErrorReply {
  return { ...s, headers: { "retry-after": String(seconds) } };
}

function plain(s: Shape): ErrorReply {
  return { ...s, headers: {} };
}

/** Anthropic: `{type: "error", error: {type, message}}`. */
const anthropicError = (status: number, type: string, message: string): Shape => ({
  status,
  body: { type: "error", error: { type, message }, request_id: "req_lab_mock" },
});

/** OpenAI (Responses and Chat Completions): `{error: {message, type, param, code}}`. */
const openaiError = (status: number, type: string, code: string | null, message: string) => ({
  status,
  body: { error: { message, type, param: null, code } },
});

/** Gemini: `{error: {code, message, status}}`. */
const geminiError = (status: number, state: string, message: string): Shape => ({
  status,
  body: { error: { code: status, message, status: state } },
});

const RATE_TEXT =
  "Rate limit reached for mock-model on requests per min (RPM): Limit 3, Used 3, Requested 1.";

const RATE: Readonly<Record<ApiName, Shape>> = {
  anthropic: anthropicError(
    429,
    "rate_limit_error",
    "This request would exceed the rate limit for your organization of 50 requests per minute.",
  ),
  responses: openaiError(429, "requests", "rate_limit_exceeded", RATE_TEXT),
  chat: openaiError(429, "requests", "rate_limit_exceeded", RATE_TEXT),
  gemini: geminiError(
    429,
    "RESOURCE_EXHAUSTED",
    "Resource has been exhausted (e.g. check quota).",
  ),
};

/** A provider's rate-limit message as long as the real ones: wider than a 120-column row. */
const RATE_LONG_TEXT =
  "Rate limit reached for mock-model in organization org-lab0000000000000000 " +
  "on tokens per min (TPM): Limit 30000, Used 29740, Requested 1820. Please try again in 1s. " +
  "Visit https://platform.openai.com/account/rate-limits to learn more.";

const RATE_LONG: Readonly<Record<ApiName, Shape>> = {
  anthropic: anthropicError(429, "rate_limit_error", RATE_LONG_TEXT),
  responses: openaiError(429, "tokens", "rate_limit_exceeded", RATE_LONG_TEXT),
  chat: openaiError(429, "tokens", "rate_limit_exceeded", RATE_LONG_TEXT),
  gemini: geminiError(429, "RESOURCE_EXHAUSTED", RATE_LONG_TEXT),
};

const OVERLOAD_TEXT = "The server is overloaded. Please try again later.";

const OVERLOAD: Readonly<Record<ApiName, Shape>> = {
  anthropic: anthropicError(529, "overloaded_error", "Overloaded"),
  responses: openaiError(503, "server_error", null, OVERLOAD_TEXT),
  chat: openaiError(503, "server_error", null, OVERLOAD_TEXT),
  gemini: geminiError(503, "UNAVAILABLE", "The model is overloaded. Please try again later."),
};

const KEY_TEXT = "Incorrect API key provided: lab-dumm***-key.";

const AUTH: Readonly<Record<ApiName, Shape>> = {
  anthropic: anthropicError(401, "authentication_error", "invalid x-api-key"),
  responses: openaiError(401, "invalid_request_error", "invalid_api_key", KEY_TEXT),
  chat: openaiError(401, "invalid_request_error", "invalid_api_key", KEY_TEXT),
  gemini: geminiError(
    400,
    "INVALID_ARGUMENT",
    "API key not valid. Please pass a valid API key.",
  ),
};

const QUOTA_TEXT = "You exceeded your current quota, please check your plan and billing details.";

const QUOTA: Readonly<Record<ApiName, Shape>> = {
  anthropic: anthropicError(
    400,
    "invalid_request_error",
    "Your credit balance is too low to access the Anthropic API. " +
      "Please go to Plans & Billing to upgrade or purchase credits.",
  ),
  responses: openaiError(429, "insufficient_quota", "insufficient_quota", QUOTA_TEXT),
  chat: openaiError(429, "insufficient_quota", "insufficient_quota", QUOTA_TEXT),
  gemini: geminiError(
    429,
    "RESOURCE_EXHAUSTED",
    "You exceeded your current quota, please check your plan and billing details.",
  ),
};

/** A usage limit resetting at `resetsAt` (epoch seconds), as each API answers it. */
export function usageLimit(api: ApiName, resetsAt: number, weekly = false): ErrorReply {
  switch (api) {
    case "anthropic":
      return {
        ...anthropicError(
          429,
          "rate_limit_error",
          "This request would exceed your account's rate limit. Please try again later.",
        ),
        headers: {
          "anthropic-ratelimit-unified-status": "rejected",
          "anthropic-ratelimit-unified-reset": String(resetsAt),
          "anthropic-ratelimit-unified-representative-claim": weekly ? "seven_day" : "five_hour",
          ...(weekly
            ? {
              "anthropic-ratelimit-unified-7d-status": "rejected",
              "anthropic-ratelimit-unified-7d-reset": String(resetsAt),
            }
            : {
              "anthropic-ratelimit-unified-5h-status": "rejected",
              "anthropic-ratelimit-unified-5h-reset": String(resetsAt),
            }),
          "x-should-retry": "false",
        },
      };
    case "responses":
    case "chat":
      return {
        status: 429,
        headers: {},
        body: {
          error: {
            type: "usage_limit_reached",
            message: "The usage limit has been reached",
            plan_type: "plus",
            resets_at: resetsAt,
            resets_in_seconds: LIMIT_RESET_SECONDS,
          },
        },
      };
    case "gemini":
      return {
        status: 429,
        headers: {},
        body: {
          error: {
            code: 429,
            message: "Quota exceeded for quota metric 'Generate Content API requests per day'.",
            status: "RESOURCE_EXHAUSTED",
            details: [
              {
                "@type": "type.googleapis.com/google.rpc.QuotaFailure",
                violations: [{
                  quotaMetric: "generativelanguage.googleapis.com/generate_requests",
                }],
              },
              {
                "@type": "type.googleapis.com/google.rpc.RetryInfo",
                retryDelay: `${GEMINI_LIMIT_DELAY_SECONDS}s`,
              },
            ],
          },
        },
      };
  }
}

/**
 * The usage limit of each turn, keyed by the line of its user text that holds
 * the marker (Claude Code sends the turn again with more text around it): the
 * turn's first request opens a window of LIMIT_RESET_SECONDS; each request
 * before its end is limited with the same reset; from the reset on the limit
 * has lifted. `LAB-FAIL-LIMIT-WEEK` is the same limit on Anthropic's weekly claim
 * (`seven_day`).
 */
export class LimitWindows {
  readonly #resets = new Map<string, number>();

  /** The reset (epoch seconds) while the turn is limited, or null once it lifted. */
  resetOf(turnText: string, now: number): number | null {
    const key = /^.*LAB-FAIL-LIMIT.*$/m.exec(turnText)?.[0] ?? turnText;
    const at = this.#resets.get(key);
    if (at === undefined) {
      const reset = Math.floor(now / 1000) + LIMIT_RESET_SECONDS;
      this.#resets.set(key, reset);
      return reset;
    }
    return now < at * 1000 ? at : null;
  }
}

/**
 * Counts the failed main requests of flaky turns (keyed by the turn's user
 * text): true while the request must still fail.
 */
export class FlakyCounter {
  readonly #served = new Map<string, number>();

  fails(turnText: string): boolean {
    const n = this.#served.get(turnText) ?? 0;
    if (n >= FLAKY_FAILURES) return false;
    this.#served.set(turnText, n + 1);
    return true;
  }
}
