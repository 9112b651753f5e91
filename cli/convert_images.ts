/**
 * The images of `editor convert`: a string that names an image file by path,
 * the file it names, its sides and the accepted name it is copied under.
 *
 * @module
 */

import { basename, dirname, extname, join, relative } from "node:path";
import { imageHeader } from "../lib/images/image_header.ts";
import { ImageFormatError } from "../lib/images/image_format_error.ts";
import { isImageName } from "../lib/pages/media_rule.ts";
import { IMAGES_FOLDER } from "../lib/wire/names.ts";
import { IMAGE_SLUG_MAX } from "../lib/limits.ts";
import { slug } from "./front_matter.ts";

const IMAGE_PATH =
  /^(?![a-z][a-z0-9+.-]*:)(?!\/\/)[^\s?#]+\.(?:jpe?g|png|webp|gif|svg|avif|bmp|tiff?)$/i;

/** The extensions the media rule accepts, by format read from the bytes. */
const EXTENSIONS: Record<string, readonly string[]> = {
  jpeg: ["jpg", "jpeg"],
  png: ["png"],
  webp: ["webp"],
};

/**
 * Whether a string names an image file by path (`/images/banner.png`,
 * `team/Alice_Smith.JPG`): no scheme, no query, no white space, an image
 * extension.
 *
 * @param value the string
 * @returns true when it reads as an image path
 * @example
 * ```ts
 * import { isImagePath } from "./convert_images.ts";
 * import assert from "node:assert/strict";
 *
 * assert.equal(isImagePath("/images/Banner.PNG"), true);
 * assert.equal(isImagePath("https://example.com/a.png"), false);
 * ```
 */
export function isImagePath(value: string): boolean {
  return IMAGE_PATH.test(value);
}

/** An image file copied into `public/images/` under an accepted name. */
export interface ImageCopy {
  /** The file named by the pages, from the checkout. */
  from: string;
  /** The copy, `public/images/{name}`. */
  to: string;
}

/**
 * The image files of one conversion: where a path names a file, the accepted
 * name each file gets (the same for the same file, never the same for two
 * files with different bytes), and the copies that puts in `public/images/`.
 *
 * @example
 * ```ts
 * import { ImageNames } from "./convert_images.ts";
 * import assert from "node:assert/strict";
 *
 * const root = await Deno.realPath(await Deno.makeTempDir());
 * const names = new ImageNames(root, root);
 * assert.equal(await names.find("/images/none.png", "a.md"), undefined);
 * await Deno.remove(root, { recursive: true });
 * ```
 */
export class ImageNames {
  /** Stored name by the real path of the file it copies. */
  readonly names = new Map<string, string>();
  /** Real path of the file by stored name. */
  readonly taken = new Map<string, string>();
  /** Planned copies, by real path of the file. */
  readonly copies = new Map<string, ImageCopy>();

  /**
   * Starts a conversion's names.
   *
   * @param root the checkout, as given
   * @param realRoot the checkout's real path: no file outside it is read
   */
  constructor(readonly root: string, readonly realRoot: string) {}

  /**
   * The file a path names: in `public/`, beside the source, or in the
   * checkout, never outside it.
   *
   * @param path the path as the page writes it
   * @param source the page's source file, from the checkout
   * @returns the file's real path, or `undefined`
   */
  async find(path: string, source: string): Promise<string | undefined> {
    const candidates = path.startsWith("/")
      ? [join("public", path), path.slice(1)]
      : [
        join(dirname(source), path),
        join("public", path),
        join(IMAGES_FOLDER, path),
        path,
      ];
    for (const candidate of candidates) {
      const real = await Deno.realPath(join(this.root, candidate)).catch(() =>
        undefined
      );
      if (real === undefined) continue;
      if (!real.startsWith(this.realRoot + "/")) continue;
      if ((await Deno.stat(real)).isFile) return real;
    }
    return undefined;
  }

  /**
   * An accepted name for a file, the same for the same file; a copy is
   * planned when no file of that name holds its bytes.
   *
   * @param real the file's real path
   * @param format its format, read from its bytes
   * @returns the name, which passes the media rule
   */
  async nameFor(real: string, format: string): Promise<string> {
    const known = this.names.get(real);
    if (known !== undefined) return known;
    const images = join(this.realRoot, IMAGES_FOLDER);
    const inside = real.startsWith(images + "/")
      ? relative(images, real)
      : basename(real);
    const extension = extname(inside).slice(1).toLowerCase();
    const accepted = EXTENSIONS[format]!;
    const ext = accepted.includes(extension) ? extension : accepted[0]!;
    const stem = inside.slice(0, inside.length - extname(inside).length)
      .split(/[/\\]/).map(slug).filter(Boolean).join("-")
      .slice(0, IMAGE_SLUG_MAX).replace(/-+$/, "") || "image";
    for (let n = 1;; n++) {
      const name = n === 1 ? `${stem}.${ext}` : `${stem}-${n}.${ext}`;
      if (!isImageName(name)) throw new Error(`Not an image name: ${name}`);
      const holder = this.taken.get(name);
      if (holder !== undefined && holder !== real) continue;
      const at = join(images, name);
      const existing = await Deno.realPath(at).catch(() => undefined);
      if (
        holder === undefined && existing !== undefined && existing !== real &&
        !await sameBytes(existing, real)
      ) continue;
      this.names.set(real, name);
      this.taken.set(name, real);
      if (existing === undefined) {
        this.copies.set(real, {
          from: relative(this.realRoot, real).replaceAll("\\", "/"),
          to: `${IMAGES_FOLDER}/${name}`,
        });
      }
      return name;
    }
  }
}

/** Whether two files hold the same bytes. */
async function sameBytes(a: string, b: string): Promise<boolean> {
  const [x, y] = await Promise.all([Deno.readFile(a), Deno.readFile(b)]);
  return x.byteLength === y.byteLength && x.every((byte, i) => byte === y[i]);
}

/**
 * The media object for an image path, or why there is none.
 *
 * @param conversion the names of this conversion
 * @param path the path as the page writes it
 * @param source the page's source file, from the checkout
 * @returns the name, the sides and the file's real path, or a sentence
 * @example
 * ```ts
 * import { ImageNames, mediaFor } from "./convert_images.ts";
 * import assert from "node:assert/strict";
 *
 * const root = await Deno.realPath(await Deno.makeTempDir());
 * const made = await mediaFor(new ImageNames(root, root), "/images/a.png", "a.md");
 * assert.match(String(made), /^no image file for "\/images\/a\.png"/);
 * await Deno.remove(root, { recursive: true });
 * ```
 */
export async function mediaFor(
  conversion: ImageNames,
  path: string,
  source: string,
): Promise<
  { src: string; width: number; height: number; real: string } | string
> {
  const real = await conversion.find(path, source);
  if (real === undefined) {
    return `no image file for ${JSON.stringify(path)} (looked in public/, ${
      dirname(source)
    }/ and the checkout); left as the string`;
  }
  let info;
  try {
    info = imageHeader(await Deno.readFile(real));
  } catch (error) {
    if (!(error instanceof ImageFormatError)) throw error;
    return `${
      JSON.stringify(path)
    } is not a JPEG, PNG or WebP image the media rule accepts (${error.message}); left as the string: convert the file, then run again`;
  }
  const src = await conversion.nameFor(real, info.format);
  return { src, width: info.width, height: info.height, real };
}
