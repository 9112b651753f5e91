/**
 * The overlay's sentences for each failure: a route's code and details
 * turned into words a site editor understands, in the interface's language
 * (`i18n/`): the server's own messages are never shown.
 *
 * @module
 */

import type { EditorError } from "../client/mod.ts";
import { plural, text, type TextKey } from "./i18n/mod.ts";

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
  const at = new Date(now.getTime() + seconds * 1000);
  const time = `${String(at.getHours()).padStart(2, "0")}:${
    String(at.getMinutes()).padStart(2, "0")
  }`;
  if (seconds < 60) return plural("retrySeconds", seconds);
  return plural("retryMinutes", Math.ceil(seconds / 60), { time });
}

/**
 * The sentence for a failed publish or upload, for codes without a dialog
 * of their own.
 *
 * @param error the failure
 * @returns a sentence
 */
export function failureSentence(error: EditorError): string {
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
