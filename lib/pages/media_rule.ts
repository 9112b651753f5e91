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

const EXTENSIONS = "jpg, jpeg, png or webp";

/**
 * Why a string is not an acceptable image name, in words naming what is
 * wrong (its case, a character, its extension, a hyphen, its length).
 *
 * @param name the candidate
 * @returns the reason, or `undefined` when it is an image name
 * @example
 * ```ts
 * import { imageNameProblem } from "./media_rule.ts";
 *
 * console.assert(imageNameProblem("banner.png") === undefined);
 * console.assert(imageNameProblem("Banner.PNG")?.includes("upper-case"));
 * ```
 */
export function imageNameProblem(name: string): string | undefined {
  if (isImageName(name)) return undefined;
  const quoted = JSON.stringify(
    name.length > 80 ? name.slice(0, 80) + "…" : name,
  );
  if (name.length > IMAGE_NAME_MAX) {
    return `${quoted} is longer than ${IMAGE_NAME_MAX} characters`;
  }
  if (name === "") return "the image name is empty";
  if (name.includes("/") || name.includes("\\")) {
    return `${quoted} is a path, not a file name`;
  }
  if (/[A-Z]/.test(name)) {
    const lower = name.toLowerCase();
    return `${quoted} has upper-case letters: image names are lower case${
      isImageName(lower) ? ` (${JSON.stringify(lower)})` : ""
    }`;
  }
  const dot = name.lastIndexOf(".");
  if (dot < 0) return `${quoted} has no extension (${EXTENSIONS})`;
  const extension = name.slice(dot + 1);
  if (!/^(?:jpg|jpeg|png|webp)$/.test(extension)) {
    return `${quoted} has the extension ${
      JSON.stringify("." + extension)
    }, not ${EXTENSIONS}`;
  }
  const stem = name.slice(0, dot);
  const other = [...stem].find((char) => !/[a-z0-9-]/.test(char));
  if (other !== undefined) {
    const code = other.codePointAt(0) as number;
    return `${quoted} holds the character ${JSON.stringify(other)} (U+${
      code.toString(16).toUpperCase().padStart(4, "0")
    }): only a-z, 0-9 and single hyphens before the extension`;
  }
  return `${quoted} starts or ends with a hyphen, or has two in a row: words of a-z and 0-9 joined by single hyphens`;
}
