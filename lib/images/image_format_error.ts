/**
 * The error of the image checks, in a module of its own so that the one
 * error mapping can know it without loading the image header reader (and
 * its CRC-32) before an image is first uploaded.
 *
 * @module
 */

/** A format recognised from the bytes, as reported in the 415 `kind` field. */
export type ImageKind =
  | "jpeg"
  | "png"
  | "webp"
  | "gif"
  | "bmp"
  | "tiff"
  | "avif"
  | "heic"
  | "svg"
  | "ico"
  | "pdf"
  | "unknown";

/**
 * Bytes that are not an accepted image: `code` says what the bytes were
 * recognised as (`unknown` when nothing was; the 415 body calls it `kind`),
 * the message says why, for logs.
 *
 * @example
 * ```ts
 * import { ImageFormatError, imageHeader } from "./image_header.ts";
 * import assert from "node:assert/strict";
 *
 * assert.throws(
 *   () => imageHeader(new TextEncoder().encode("GIF89a")),
 *   (error) => error instanceof ImageFormatError && error.code === "gif",
 * );
 * ```
 */
export class ImageFormatError extends Error {
  /**
   * Creates the error.
   *
   * @param code what the bytes were recognised as (the 415 body's `kind`)
   * @param message why they are refused
   */
  constructor(readonly code: ImageKind, message: string) {
    super(message);
    this.name = "ImageFormatError";
  }
}
