/**
 * The overlay's sentences for each failure: a route's code and details
 * turned into words a site editor understands.
 *
 * @module
 */

import type { EditorError } from "../client/mod.ts";

const REASONS: Readonly<Record<string, string>> = {
  json: "The page could not be read as JSON.",
  shape: "This field holds the wrong kind of value.",
  depth: "The page is nested too deeply.",
  size: "The page holds too many values.",
  key: "A field has a name that is not allowed.",
  duplicate_key: "A field name appears twice.",
  id: "An id may hold only letters, digits, - and _.",
  duplicate_id: "Two parts of the page share the same id.",
  media: "This image is not a valid image reference.",
  link:
    "This link is not allowed. Use a page of the site (/about), a #section, or an https:, http:, mailto: or tel: address.",
  markup: "This text holds formatting that is not allowed.",
  number: "A number here cannot be stored exactly.",
  empty: "This field is now empty.",
};

/**
 * The sentence for a 422 reason.
 *
 * @param reason the body's `reason`, if any
 * @returns a sentence
 */
export function reasonSentence(reason: string | undefined): string {
  return (reason !== undefined && Object.hasOwn(REASONS, reason))
    ? REASONS[reason] as string
    : "This field was refused by the page rules.";
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
  if (kind === "text" && reason === "markup") {
    return "Plain text cannot hold “<” or anything written like HTML: remove it.";
  }
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
  if (seconds === undefined) return "Try again in a few minutes.";
  const at = new Date(now.getTime() + seconds * 1000);
  const time = `${String(at.getHours()).padStart(2, "0")}:${
    String(at.getMinutes()).padStart(2, "0")
  }`;
  if (seconds < 60) {
    return `Try again in ${seconds} second${seconds === 1 ? "" : "s"}.`;
  }
  const minutes = Math.ceil(seconds / 60);
  return `Try again in ${minutes} minute${
    minutes === 1 ? "" : "s"
  } (at ${time}).`;
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
      return `Too many requests in a short time. ${
        retrySentence(error.retryAfter)
      }`;
    case "too_large":
      return "This is too large to publish: make the page or the image smaller.";
    case "unsupported_format":
      return "This image format is not accepted: use a JPEG, PNG or WebP image between 1 and 10,000 pixels a side.";
    case "unauthorized":
      return "Your session has ended. Log in again; your changes are kept.";
    case "network":
      return "The server could not be reached. Your changes are kept: try again in a moment.";
    case "unavailable":
      return "The site's repository could not be reached. Your changes are kept: try again in a moment.";
    case "bad_request":
      return "The server refused this request as malformed. Your changes are kept.";
    case "not_found":
      return "This page file was not found in the repository.";
    default:
      return "Something went wrong on the server. Your changes are kept: try again in a moment.";
  }
}
