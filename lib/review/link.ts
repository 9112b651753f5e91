/**
 * Preview links of reviews: made for a number of hours, signed with
 * `EDITOR_PREVIEW_SECRET` (`lib/access/preview_token.ts`), and read back
 * without a session. A link opens a page of the site with
 * `?inpage-preview=TOKEN`; the loader then asks for the review it names.
 *
 * @module
 */

import { type Env, now } from "../http/env.ts";
import { kvOf } from "../access/kv_binding.ts";
import {
  previewSecret,
  readPreviewToken,
  signPreviewToken,
} from "../access/preview_token.ts";
import { pageAddress, PAGES_FOLDER, PREVIEW_PARAMETER } from "../wire/names.ts";
import type { ReviewLink } from "../wire/review.ts";
import { ReviewError } from "./review_error.ts";
import { openReview } from "./store.ts";

export { pageAddress };

/**
 * Makes a preview link of an open review.
 *
 * @param env the host's bindings (`EDITOR_PREVIEW_SECRET`, the clock)
 * @param id the review's id
 * @param hours how long it works: 1 to 168
 * @param page the site path it opens; default the first page's address
 * @returns the link and when it stops working
 * @throws {ReviewError} `no_preview_secret` without a usable secret,
 *   `not_found` for a review closed or unknown
 */
export async function makeLink(
  env: Env,
  id: string,
  hours: number,
  page?: string,
): Promise<ReviewLink> {
  const secret = previewSecret(env);
  if (secret === undefined) {
    throw new ReviewError(
      "no_preview_secret",
      "EDITOR_PREVIEW_SECRET is not set (or shorter than 32 characters): no preview link can be made",
    );
  }
  const record = await openReview(kvOf(env), id);
  const expiresAt = now(env) + hours * 3_600_000;
  const token = await signPreviewToken(secret, id, expiresAt);
  const address = page ?? pageAddress(record.pages[0]?.path ?? PAGES_FOLDER);
  return {
    url: `${address}?${PREVIEW_PARAMETER}=${token}`,
    expires: new Date(Math.floor(expiresAt / 1000) * 1000).toISOString(),
  };
}

/**
 * The id of the review a preview token names, once its signature and
 * expiry are checked.
 *
 * @param env the host's bindings (`EDITOR_PREVIEW_SECRET`, the clock)
 * @param token the token as received
 * @returns the review's id
 * @throws {ReviewError} `bad_token` for a token altered, expired, signed
 *   under another secret, or any token when no secret is set
 */
export async function previewedId(env: Env, token: string): Promise<string> {
  const secret = previewSecret(env);
  if (secret === undefined) {
    throw new ReviewError("bad_token", "no EDITOR_PREVIEW_SECRET to check it");
  }
  const read = await readPreviewToken(secret, token, now(env));
  if (!read.ok) {
    throw new ReviewError("bad_token", `preview token refused: ${read.reason}`);
  }
  return read.id;
}
