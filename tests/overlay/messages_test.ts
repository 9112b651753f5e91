import assert from "node:assert/strict";
import { EditorError, INVALID_REASONS } from "../../client/mod.ts";
import {
  failureSentence,
  reasonSentence,
  retrySentence,
} from "../../overlay/messages.ts";
import { loadLanguage, useLanguage } from "../../overlay/i18n/mod.ts";

Deno.test("every 422 reason has its own sentence, and an unknown one a general sentence", () => {
  const sentences = INVALID_REASONS.map((reason) => reasonSentence(reason));
  assert.equal(new Set(sentences).size, INVALID_REASONS.length);
  assert.equal(
    reasonSentence(undefined),
    "This field was refused by the page rules.",
  );
  assert.equal(reasonSentence("toString"), reasonSentence(undefined));
  assert.match(reasonSentence("link"), /https:/);
});

Deno.test("a 429 says when to retry, in seconds or minutes with the time, written as the interface's language writes times", async () => {
  const now = new Date(2026, 10, 23, 10, 0, 0);
  assert.equal(retrySentence(1, now), "Try again in 1 second.");
  assert.equal(retrySentence(45, now), "Try again in 45 seconds.");
  assert.equal(
    retrySentence(61, now),
    "Try again in 2 minutes (at 10:01 AM).",
  );
  await loadLanguage("fr");
  assert.equal(
    retrySentence(61, now),
    "Réessayez dans 2 minutes (à 10:01).",
  );
  useLanguage("en");
  assert.equal(retrySentence(undefined, now), "Try again in a few minutes.");
  assert.match(
    failureSentence(
      new EditorError("rate_limited", { status: 429, retryAfter: 120 }),
    ),
    /^Too many requests in a short time\. Try again in 2 minutes \(at \d{1,2}:\d\d [AP]M\)\.$/,
  );
});
