/**
 * Rewrites the name given to an uploaded image into the stored name: a slug
 * of the given name, the first 12 hex digits of the bytes' SHA-256, and the
 * extension of the format recognised from the bytes. The same bytes under
 * the same name always give the same stored name.
 *
 * Pure: no I/O, no `Deno.*`, safe for any host.
 *
 * @module
 */

import { isImageName } from "../pages/media_rule.ts";
import { IMAGE_SLUG_MAX, UPLOAD_NAME_MAX } from "../limits.ts";
import { codePoints } from "../encoding/text.ts";

const HASH_DIGITS = 12;
const EXTENSIONS = { jpeg: "jpg", png: "png", webp: "webp" } as const;
const IMAGE_EXTENSION = /\.(?:jpe?g|png|webp|gif|avif|heic|bmp|tiff?)$/i;
const SHA256_HEX = /^[0-9a-f]{64}$/;

/**
 * An upload name that cannot become a stored name: too long, or leaving
 * nothing once slugged.
 *
 * @example
 * ```ts
 * import { ImageNameError, imageName } from "./image_name.ts";
 * import assert from "node:assert/strict";
 *
 * assert.throws(
 *   () => imageName("???", "ab".repeat(32), "png"),
 *   ImageNameError,
 * );
 * ```
 */
export class ImageNameError extends Error {
  /**
   * Creates the error.
   *
   * @param message why the name is refused
   */
  constructor(message: string) {
    super(message);
    this.name = "ImageNameError";
  }
}

/**
 * The slug of an upload's name, checked once: at most 200 characters (code
 * points), and something left once slugged. Without a name the slug is
 * `image`. The route takes it before it looks at the bytes, so a refused
 * name answers 400 before an unsupported format answers 415.
 *
 * @example
 * ```ts
 * import { uploadSlug } from "./image_name.ts";
 * import assert from "node:assert/strict";
 *
 * assert.equal(uploadSlug("Café Crème.JPG"), "cafe-creme");
 * assert.equal(uploadSlug(undefined), "image");
 * ```
 *
 * @param given the name sent with the upload, if any
 * @returns the slug: `a-z`, `0-9` and inner `-`, at most 60 characters
 * @throws {ImageNameError} when the name has more than 200 characters or
 *   leaves an empty slug
 */
export function uploadSlug(given: string | undefined): string {
  if (given === undefined) return "image";
  if (codePoints(given, UPLOAD_NAME_MAX) > UPLOAD_NAME_MAX) {
    throw new ImageNameError(`Upload name over ${UPLOAD_NAME_MAX} characters`);
  }
  const slug = slugify(given);
  if (slug === "") throw new ImageNameError("Upload name leaves an empty slug");
  return slug;
}

/**
 * Builds the stored name of an upload: `{slug}-{12 hex}.{jpg|png|webp}`.
 *
 * The slug comes from the given name (see `uploadSlug`): NFKD; surrounding
 * white space and one final image-like extension dropped (`.jpg`, `.jpeg`,
 * `.png`, `.webp`, `.gif`, `.avif`, `.heic`, `.bmp`, `.tif`, `.tiff`, any
 * case); combining marks removed; lower case; runs of characters outside
 * `a-z0-9` turned into `-`; trimmed of `-`; cut to 60 characters (and trimmed
 * again). Without a name the slug is `image`.
 *
 * @example Rewriting a name
 * ```ts
 * import { imageName } from "./image_name.ts";
 *
 * const name = imageName("Café Crème.JPG", "ab".repeat(32), "jpeg");
 * if (name !== "cafe-creme-abababababab.jpg") throw new Error(name);
 * ```
 *
 * @param given the name sent with the upload, if any
 * @param sha256Hex the SHA-256 of the uploaded bytes, 64 lowercase hex digits
 * @param format the format recognised from the bytes
 * @returns the stored name, which passes `isImageName`
 * @throws {ImageNameError} when the given name has more than 200
 * characters, leaves an empty slug, or the result fails the media rule
 * @throws {TypeError} when `sha256Hex` is not 64 lowercase hex digits
 */
export function imageName(
  given: string | undefined,
  sha256Hex: string,
  format: "jpeg" | "png" | "webp",
): string {
  return storedImageName(uploadSlug(given), sha256Hex, format);
}

/**
 * The stored name from a slug `uploadSlug` gave: `{slug}-{12 hex}.{ext}`.
 *
 * @example
 * ```ts
 * import { storedImageName } from "./image_name.ts";
 * import assert from "node:assert/strict";
 *
 * assert.equal(
 *   storedImageName("sunset", "ab".repeat(32), "webp"),
 *   "sunset-abababababab.webp",
 * );
 * ```
 *
 * @param slug the slug of the given name
 * @param sha256Hex the SHA-256 of the uploaded bytes, 64 lowercase hex digits
 * @param format the format recognised from the bytes
 * @returns the stored name, which passes `isImageName`
 * @throws {ImageNameError} when the result fails the media rule
 * @throws {TypeError} when `sha256Hex` is not 64 lowercase hex digits
 */
export function storedImageName(
  slug: string,
  sha256Hex: string,
  format: "jpeg" | "png" | "webp",
): string {
  if (!SHA256_HEX.test(sha256Hex)) {
    throw new TypeError("sha256Hex must be 64 lowercase hex digits");
  }
  const name = `${slug}-${sha256Hex.slice(0, HASH_DIGITS)}.${
    EXTENSIONS[format]
  }`;
  if (!isImageName(name)) {
    throw new ImageNameError("Rewritten upload name fails the media rule");
  }
  return name;
}

function slugify(given: string): string {
  const slug = given
    .normalize("NFKD")
    .trim()
    .replace(IMAGE_EXTENSION, "")
    .replace(/\p{M}/gu, "")
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, "-")
    .replace(/^-+|-+$/g, "");
  return slug.slice(0, IMAGE_SLUG_MAX).replace(/-+$/, "");
}
