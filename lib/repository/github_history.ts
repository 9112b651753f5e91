/**
 * What the GitHub history reads from answer headers: the next page of a
 * list (`Link`), and how long a rate limit asks to wait (`retry-after`, or
 * `x-ratelimit-remaining: 0` with `x-ratelimit-reset`). Pure functions.
 *
 * @module
 */

/** The longest wait passed on to the client, in seconds. */
const WAIT_MAX = 3_600;

/**
 * The `rel="next"` URL of a `Link` header, when it stays under the API's
 * root (the token is never sent anywhere else).
 *
 * @param link the header, or `null`
 * @param prefix the API root, ending with `/`
 * @returns the URL, or `undefined`
 * @example
 * ```ts
 * import { nextLink } from "./github_history.ts";
 * import assert from "node:assert/strict";
 *
 * const prefix = "https://api.github.com/";
 * const page = (n: number) => `${prefix}repositories/1300192/commits?page=${n}`;
 * assert.equal(
 *   nextLink(`<${page(2)}>; rel="next", <${page(5)}>; rel="last"`, prefix),
 *   page(2),
 * );
 * assert.equal(nextLink('<https://evil.example/x>; rel="next"', prefix), undefined);
 * ```
 */
export function nextLink(
  link: string | null,
  prefix: string,
): string | undefined {
  if (!link) return undefined;
  for (const part of link.split(",")) {
    const match = /^\s*<([^>]*)>\s*;(.*)$/.exec(part);
    if (!match) continue;
    const [, target = "", parameters = ""] = match;
    if (
      !/(?:^|;)\s*rel\s*=\s*"?(?:[^";]*\s)?next(?:\s[^";]*)?"?\s*(?:;|$)/i.test(
        parameters,
      )
    ) {
      continue;
    }
    let url: URL;
    try {
      url = new URL(target);
    } catch {
      return undefined;
    }
    const href = url.href;
    return href.startsWith(prefix) ? href : undefined;
  }
  return undefined;
}

/**
 * The seconds a rate-limited GitHub answer asks to wait: `retry-after`
 * (seconds, or an HTTP date), else `x-ratelimit-reset` (epoch seconds) when
 * `x-ratelimit-remaining` is `0`; at least 1 and at most an hour.
 *
 * @param headers the answer's headers
 * @param now the time in milliseconds
 * @returns the seconds, or `undefined` when GitHub gave no time
 * @example
 * ```ts
 * import { retryAfterOf } from "./github_history.ts";
 * import assert from "node:assert/strict";
 *
 * assert.equal(retryAfterOf(new Headers({ "retry-after": "60" }), 0), 60);
 * const reset = new Headers({
 *   "x-ratelimit-remaining": "0",
 *   "x-ratelimit-reset": "1000",
 * });
 * assert.equal(retryAfterOf(reset, 940_000), 60);
 * ```
 */
export function retryAfterOf(
  headers: Headers,
  now: number,
): number | undefined {
  const clamp = (seconds: number) =>
    Math.min(WAIT_MAX, Math.max(1, Math.ceil(seconds)));
  const retry = headers.get("retry-after")?.trim();
  if (retry) {
    if (/^\d{1,10}$/.test(retry)) return clamp(Number(retry));
    const date = Date.parse(retry);
    if (Number.isFinite(date)) return clamp((date - now) / 1000);
  }
  const reset = headers.get("x-ratelimit-reset")?.trim();
  if (
    headers.get("x-ratelimit-remaining")?.trim() === "0" && reset &&
    /^\d{1,12}$/.test(reset)
  ) {
    return clamp(Number(reset) - now / 1000);
  }
  return undefined;
}
