/**
 * Commit messages: the request's message on one clean line.
 *
 * @module
 */

import { COMMIT_MESSAGE_MAX } from "../limits.ts";

// C0 and C1 controls, DEL, bidirectional and invisible formatting marks.
const INVISIBLE =
  // deno-lint-ignore no-control-regex
  /[\u0000-\u0008\u000b\u000c\u000e-\u001f\u007f-\u009f\u061c\u200b-\u200f\u202a-\u202e\u2060-\u2069\ufeff]/g;
const BREAKS = /[\t\n\r\u0085\u2028\u2029]+/g;

/**
 * Reduces a message to one line of at most 120 characters without control
 * characters; an empty result gives the fallback, cut the same way.
 *
 * @param message the request's message, if any
 * @param fallback e.g. `Update src/content/pages/en/home.json`
 * @returns the line
 * @example
 * ```ts
 * import { cleanCommitMessage } from "./commit_message.ts";
 * import assert from "node:assert/strict";
 *
 * assert.equal(cleanCommitMessage("Fix typo\n\nin the title\u0007", "Update"), "Fix typo in the title");
 * assert.equal(cleanCommitMessage("  ", "Update x"), "Update x");
 * ```
 */
export function cleanCommitMessage(
  message: string | undefined,
  fallback: string,
): string {
  return oneLine(message ?? "") || oneLine(fallback);
}

function oneLine(text: string): string {
  const flat = text.toWellFormed().replace(BREAKS, " ").replace(INVISIBLE, "")
    .replace(/ {2,}/g, " ").trim();
  const characters = [...flat];
  if (characters.length <= COMMIT_MESSAGE_MAX) return flat;
  return characters.slice(0, COMMIT_MESSAGE_MAX).join("").trimEnd();
}
