/// <reference lib="dom" />
/**
 * Image replacement: pick a file, crop it with Cropper.js, scale it to at
 * most 2,400 px on its longer side and convert it in a canvas to the format
 * the site chose (WebP unless `data-inpage-image-format` says `jpeg` or
 * `png`); where the browser cannot make that format (its canvas gives PNG
 * when asked for WebP), to JPEG, or PNG for an image with transparent
 * parts, and the dialog says so.
 *
 * @module
 */

import type Cropper from "cropperjs";
import {
  IMAGE_FORMAT_ATTRIBUTE,
  type ImageFormat,
  imageFormat,
} from "../session/image_format.ts";
import { text, type TextKey } from "../i18n/mod.ts";
import { h, showDialog } from "../ui.ts";
import { altFields } from "./alt_text.ts";

/** Cropper.js's style sheet, made when the cropper first loads. */
let cropperSheet: CSSStyleSheet | undefined;

/** The longest side of an uploaded image, in pixels. */
export const LONG_SIDE_MAX = 2400;

/** Containers whose unknown format was already warned about. */
const warned = new WeakSet<Element>();

/**
 * The image format chosen for a page container
 * (`data-inpage-image-format`): WebP unless it says `jpeg` or `png`; an
 * unknown value is WebP and a console warning, once per container.
 *
 * @param container the `data-inpage-page` element, if any
 * @returns the format
 */
export function imageFormatOf(container: Element | null): ImageFormat {
  const { format, warning } = imageFormat(
    container?.getAttribute(IMAGE_FORMAT_ATTRIBUTE) ?? null,
  );
  if (warning && container && !warned.has(container)) {
    warned.add(container);
    console.warn(warning);
  }
  return format;
}

/** A cropped and converted image, ready to upload. */
export interface PreparedImage {
  /**
   * The image's bytes, in the chosen format, or JPEG or PNG where that
   * format cannot be made.
   */
  blob: Blob;
  /** The file name's extension for its type (`webp`, `jpg`, `png`). */
  extension: string;
  /** A name derived from the chosen file's. */
  name: string;
  /** The alternative text. */
  alt: string;
  /** Its width in pixels. */
  width: number;
  /** Its height in pixels. */
  height: number;
  /** When WebP could not be made: the sentence saying which format it is. */
  fallback?: string;
}

const RATIOS: Array<[TextKey | string, number]> = [
  ["cropFree", Number.NaN],
  ["16:9", 16 / 9],
  ["4:3", 4 / 3],
  ["1:1", 1],
];

/**
 * Asks for an image, lets the person crop it, and prepares it. A new file
 * needs its own alt text: the field starts empty, and the image is applied
 * only with words in it or marked as a decorative image (an empty alt).
 *
 * @param root the overlay's shadow root
 * @param format the format to write (see {@linkcode imageFormatOf})
 * @returns the prepared image, or `undefined` when cancelled
 */
export async function chooseImage(
  root: ShadowRoot,
  format: ImageFormat = imageFormat(null).format,
): Promise<PreparedImage | undefined> {
  let cropper: Cropper | undefined;
  let fileName = "image";
  const error = h("p", { class: "error", role: "alert" });
  /** Says which format the image is saved in when the chosen one cannot be made. */
  const note = h("p", { class: "note", role: "status" });
  const canMake = canEncode(format.type);
  /** Whether the chosen image has transparent pixels. */
  let transparent = false;
  const picture = h("img", { alt: "" });
  const crop = h("div", { class: "crop", hidden: true }, picture);
  const file = h("input", {
    type: "file",
    accept: "image/jpeg,image/png,image/webp",
  });
  const alt = altFields(undefined);
  const apply = h("button", {
    class: "primary",
    type: "submit",
    value: "apply",
  }, text("useImage"));
  let ready = false;
  /** Applied as soon as the cropper is ready (Enter pressed before). */
  let pending = false;
  const ratioButtons = RATIOS.map(([label, ratio], index) => {
    const button = h("button", {
      type: "button",
      "aria-pressed": index === 0 ? "true" : "false",
      onclick: () => {
        cropper?.setAspectRatio(ratio);
        for (const other of ratioButtons) {
          other.setAttribute("aria-pressed", String(other === button));
        }
      },
    }, label === "cropFree" ? text("cropFree") : label);
    return button;
  });
  const ratios = h(
    "div",
    {
      class: "ratios",
      role: "group",
      "aria-label": text("cropShape"),
      hidden: true,
    },
    h("span", {}, text("cropShapeLabel")),
    ...ratioButtons,
    h(
      "span",
      { class: "hint" },
      text("cropHint"),
    ),
  );
  file.addEventListener("change", () => {
    const chosen = file.files?.[0];
    if (!chosen) return;
    // A name the site already stored ends with its hash: drop it.
    fileName = chosen.name.replace(/\.[A-Za-z0-9]+$/, "")
      .replace(/-[0-9a-f]{12}$/, "") || "image";
    cropper?.destroy();
    ready = false;
    pending = false;
    picture.src = URL.createObjectURL(chosen);
    crop.hidden = false;
    ratios.hidden = false;
    error.textContent = "";
    picture.addEventListener("load", async () => {
      let part: typeof import("../cropper.ts");
      try {
        part = await import("../cropper.ts");
      } catch {
        error.textContent = text("cropperFailed");
        return;
      }
      const { Cropper, CROPPER_CSS } = part;
      if (!cropperSheet) {
        cropperSheet = new CSSStyleSheet();
        cropperSheet.replaceSync(CROPPER_CSS);
      }
      if (!root.adoptedStyleSheets.includes(cropperSheet)) {
        root.adoptedStyleSheets = [...root.adoptedStyleSheets, cropperSheet];
      }
      cropper = new Cropper(picture, {
        viewMode: 1,
        autoCropArea: 1,
        background: false,
        ready: () => {
          ready = true;
          transparent = hasTransparency(picture);
          void canMake.then((yes) => {
            note.textContent = yes ? "" : text(
              transparent ? "fallbackPng" : "fallbackJpeg",
              { format: format.label },
            );
          });
          if (pending) dialog.close("apply");
        },
      });
    }, { once: true });
    picture.addEventListener("error", () => {
      error.textContent = text("notAnImage");
    }, { once: true });
  });
  const form = h("form", { method: "dialog", novalidate: true });
  const dialog = h(
    "dialog",
    { class: "wide", "aria-labelledby": "inpage-image-title" },
    form,
  );
  form.append(
    h("h2", { id: "inpage-image-title" }, text("imageTitle")),
    h(
      "label",
      {},
      text("imageFile"),
      file,
      h(
        "span",
        { class: "hint" },
        text("imageFileHint", { format: format.label }),
      ),
    ),
    ratios,
    crop,
    ...alt.elements,
    note,
    error,
    h(
      "div",
      { class: "actions" },
      h("button", {
        type: "button",
        onclick: () => dialog.close("cancel"),
      }, text("cancel")),
      apply,
    ),
  );
  // Enter in a field presses "Use this image": the image is applied once
  // it is ready, and nothing typed is thrown away before.
  form.addEventListener("submit", (event) => {
    event.preventDefault();
    if (picture.getAttribute("src") === null) {
      error.textContent = text("chooseFirst");
      file.focus();
      return;
    }
    const missing = alt.problem();
    if (missing !== undefined) {
      error.textContent = missing;
      alt.input.focus();
      return;
    }
    if (!ready) {
      pending = true;
      error.textContent = "";
      return;
    }
    dialog.close("apply");
  });
  const answer = await showDialog(root, dialog);
  try {
    if (answer !== "apply" || !cropper) return undefined;
    const canvas = cropper.getCroppedCanvas({
      maxWidth: LONG_SIDE_MAX,
      maxHeight: LONG_SIDE_MAX,
      imageSmoothingEnabled: true,
      imageSmoothingQuality: "high",
    });
    const scaled = fitCanvas(canvas, LONG_SIDE_MAX);
    const fallbackType = transparent ? "image/png" : "image/jpeg";
    const type = await canMake ? format.type : fallbackType;
    let blob = await encode(scaled, type, format.quality);
    if (blob?.type !== type && type === format.type) {
      // Said it could, then could not: the fallback after all.
      blob = await encode(scaled, fallbackType, format.quality);
    }
    if (!blob || !EXTENSIONS[blob.type]) return undefined;
    return {
      blob,
      extension: EXTENSIONS[blob.type]!,
      ...(blob.type === format.type ? {} : {
        fallback: text(
          blob.type === "image/png" ? "fallbackPng" : "fallbackJpeg",
          { format: format.label },
        ),
      }),
      name: fileName,
      alt: alt.value(),
      width: scaled.width,
      height: scaled.height,
    };
  } finally {
    cropper?.destroy();
    if (picture.src) URL.revokeObjectURL(picture.src);
  }
}

/**
 * A canvas no longer than `max` on its longer side.
 *
 * @param canvas the cropped canvas
 * @param max the longest side allowed
 * @returns the same canvas, or a scaled copy
 */
export function fitCanvas(
  canvas: HTMLCanvasElement,
  max: number,
): HTMLCanvasElement {
  const longest = Math.max(canvas.width, canvas.height);
  if (longest <= max) return canvas;
  const scale = max / longest;
  const copy = document.createElement("canvas");
  copy.width = Math.max(1, Math.round(canvas.width * scale));
  copy.height = Math.max(1, Math.round(canvas.height * scale));
  const context = copy.getContext("2d");
  if (!context) return canvas;
  context.imageSmoothingQuality = "high";
  context.drawImage(canvas, 0, 0, copy.width, copy.height);
  return copy;
}

const EXTENSIONS: Readonly<Record<string, string>> = {
  "image/webp": "webp",
  "image/jpeg": "jpg",
  "image/png": "png",
};

function encode(
  canvas: HTMLCanvasElement,
  type: string,
  quality = 0.86,
): Promise<Blob | null> {
  return new Promise((resolve) => canvas.toBlob(resolve, type, quality));
}

/**
 * Whether this browser's canvas makes an image type (some give PNG when
 * asked for WebP).
 *
 * @param type the MIME type, such as `image/webp`
 * @returns whether an image of that type asked for is one
 */
export async function canEncode(type: string): Promise<boolean> {
  const canvas = document.createElement("canvas");
  canvas.width = canvas.height = 1;
  return (await encode(canvas, type))?.type === type;
}

/**
 * Whether an image has a pixel that is not fully opaque (looked at on a
 * copy at most 256 px a side).
 *
 * @param image a loaded image
 * @returns whether it has transparency
 */
export function hasTransparency(image: HTMLImageElement): boolean {
  const scale = Math.min(
    1,
    256 / Math.max(image.naturalWidth, image.naturalHeight, 1),
  );
  const canvas = document.createElement("canvas");
  canvas.width = Math.max(1, Math.round(image.naturalWidth * scale));
  canvas.height = Math.max(1, Math.round(image.naturalHeight * scale));
  const context = canvas.getContext("2d", { willReadFrequently: true });
  if (!context) return false;
  context.drawImage(image, 0, 0, canvas.width, canvas.height);
  const { data } = context.getImageData(0, 0, canvas.width, canvas.height);
  for (let index = 3; index < data.length; index += 4) {
    if (data[index]! < 255) return true;
  }
  return false;
}
