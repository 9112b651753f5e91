/**
 * The overlay's sentences for each failure: a route's code and details
 * turned into words a site editor understands, in the interface's language
 * (`i18n/`): the server's own messages are never shown.
 *
 * @module
 */

import { language, plural, text, type TextKey } from "./i18n/mod.ts";

/** A failure as the sentences need it: the client's code, and when to retry. */
export interface Failure {
  /** The client's error code (`rate_limited`, `network`, …). */
  readonly code: string;
  /** Seconds to wait, on a 429. */
  readonly retryAfter?: number | undefined;
}

const REASONS: Readonly<Record<string, TextKey>> = {
  json: "reasonJson",
  shape: "reasonShape",
  depth: "reasonDepth",
  size: "reasonSize",
  key: "reasonKey",
  duplicate_key: "reasonDuplicateKey",
  id: "reasonId",
  duplicate_id: "reasonDuplicateId",
  media: "reasonMedia",
  link: "reasonLink",
  markup: "reasonMarkup",
  number: "reasonNumber",
  template: "reasonTemplate",
  empty: "reasonEmpty",
};

/**
 * The sentence for a 422 reason.
 *
 * @param reason the body's `reason`, if any
 * @returns a sentence
 */
export function reasonSentence(reason: string | undefined): string {
  return text(
    reason !== undefined && Object.hasOwn(REASONS, reason)
      ? REASONS[reason]!
      : "reasonOther",
  );
}

/**
 * The sentence for a problem at a field, worded for the kind of field.
 *
 * @param reason the problem's reason
 * @param kind how the field is shown (`text` for plain text), if known
 * @returns a sentence
 */
export function problemSentence(
  reason: string,
  kind?: string,
): string {
  if (kind === "text" && reason === "markup") return text("reasonPlainMarkup");
  return reasonSentence(reason);
}

/**
 * When to retry, in words.
 *
 * @param seconds the `retry-after` seconds, if known
 * @param now the current time
 * @returns a sentence such as "Try again in 3 minutes (at 10:42)."
 */
export function retrySentence(
  seconds: number | undefined,
  now: Date = new Date(),
): string {
  if (seconds === undefined) return text("retryLater");
  const time = clockTime(now.getTime() + seconds * 1000);
  if (seconds < 60) return plural("retrySeconds", seconds);
  return plural("retryMinutes", Math.ceil(seconds / 60), { time });
}

/**
 * The sentence for a failed publish or upload, for codes without a dialog
 * of their own.
 *
 * @param error the failure (an `EditorError`, or its code and retry)
 * @returns a sentence
 */
export function failureSentence(error: Failure): string {
  switch (error.code) {
    case "rate_limited":
      return text("failRateLimited", {
        retry: retrySentence(error.retryAfter),
      });
    case "too_large":
      return text("failTooLarge");
    case "unsupported_format":
      return text("failUnsupportedFormat");
    case "unauthorized":
      return text("sessionEnded");
    case "network":
      return text("failNetwork");
    case "unavailable":
      return text("failUnavailable");
    case "bad_request":
      return text("failBadRequest");
    case "not_found":
      return text("failNotFound");
    default:
      return text("failServer");
  }
}

/**
 * A time of day in the interface's language (`10:42`, `10 h 42`): the one
 * format of times the overlay shows.
 *
 * @param at milliseconds since the epoch
 * @returns the time
 */
export function clockTime(at: number): string {
  return new Date(at).toLocaleTimeString(language(), {
    hour: "numeric",
    minute: "2-digit",
  });
}

/**
 * A date and time in the interface's language and the person's time zone:
 * the one format of dates the overlay shows (History, drafts).
 *
 * @param at milliseconds since the epoch, or an ISO 8601 date
 * @param timeZone a time zone (default: the browser's)
 * @returns such as "25 Nov 2026, 17:41"; the date as given when unreadable
 */
export function dateTime(at: number | string, timeZone?: string): string {
  const time = new Date(at);
  if (Number.isNaN(time.getTime())) return String(at);
  return time.toLocaleString(language(), {
    dateStyle: "medium",
    timeStyle: "short",
    ...(timeZone === undefined ? {} : { timeZone }),
  });
}
