/**
 * The whitelist of image names, shared by page media references and by
 * uploaded images (whose rewritten name is re-checked against it).
 *
 * @module
 */

import { IMAGE_NAME_MAX } from "../limits.ts";

const IMAGE_NAME = /^[a-z0-9]+(?:-[a-z0-9]+)*\.(?:jpg|jpeg|png|webp)$/;

/**
 * Whether a string is an acceptable image name: lowercase words joined by
 * single hyphens, a `jpg`, `jpeg`, `png` or `webp` extension, at most 100
 * characters.
 *
 * @param name the candidate
 * @returns true when it passes the whitelist
 */
export function isImageName(name: string): boolean {
  return name.length <= IMAGE_NAME_MAX && IMAGE_NAME.test(name);
}
