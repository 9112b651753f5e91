/**
 * The image format the overlay writes, chosen per site with
 * `data-inpage-image-format="webp|jpeg|png"` on the page container: WebP by
 * default, so that a site whose image pipeline lacks WebP (an `<Image>`
 * wrapper that globs only `.jpg` and `.png`) can still take new images.
 *
 * @example
 * ```ts
 * import { imageFormat } from "./image_format.ts";
 *
 * console.assert(imageFormat("jpeg").format.type === "image/jpeg");
 * console.assert(imageFormat(null).format.extension === "webp");
 * console.assert(imageFormat("gif").unknown === "gif");
 * ```
 *
 * @module
 */

import { INPAGE_ATTRIBUTES } from "../../lib/wire/regions.ts";

/** The attribute on the page container that chooses the format. */
export const IMAGE_FORMAT_ATTRIBUTE: string = INPAGE_ATTRIBUTES.imageFormat;

/** An image format the overlay can write. */
export interface ImageFormat {
  /** Its MIME type, given to `canvas.toBlob`. */
  type: "image/webp" | "image/jpeg" | "image/png";
  /** The file name's extension. */
  extension: "webp" | "jpg" | "png";
  /** Its name in words. */
  label: "WebP" | "JPEG" | "PNG";
  /** The encoder's quality (lossy formats). */
  quality: number;
}

/** The formats, by the attribute's value. */
export const IMAGE_FORMATS: Readonly<Record<string, ImageFormat>> = {
  webp: { type: "image/webp", extension: "webp", label: "WebP", quality: 0.86 },
  jpeg: { type: "image/jpeg", extension: "jpg", label: "JPEG", quality: 0.86 },
  png: { type: "image/png", extension: "png", label: "PNG", quality: 1 },
};

/**
 * The format a container's attribute chooses, and the value when it names
 * none (then WebP, and the views warn).
 *
 * @param value the attribute's value, `null` when absent
 * @returns the format, and the unknown value if any
 */
export function imageFormat(
  value: string | null,
): { format: ImageFormat; unknown?: string } {
  const webp = IMAGE_FORMATS.webp!;
  if (value === null) return { format: webp };
  const name = value.trim().toLowerCase();
  const key = name === "jpg" ? "jpeg" : name;
  if (Object.hasOwn(IMAGE_FORMATS, key)) return { format: IMAGE_FORMATS[key]! };
  return { format: webp, unknown: value };
}
