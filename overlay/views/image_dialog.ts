/// <reference lib="dom" />
/**
 * Image replacement: pick a file, crop it with Cropper.js, scale it to at
 * most 2,400 px on its longer side and convert it in a canvas to the format
 * the site chose (WebP unless `data-inpage-image-format` says `jpeg` or
 * `png`); where the browser cannot make that format (its canvas gives PNG
 * when asked for WebP), to JPEG, or PNG for an image with transparent
 * parts, and the dialog says so. The dialog fits the screen with a large
 * image chosen (its body scrolls, its buttons stay in view), and Escape or
 * Cancel asks before throwing away a chosen file, its crop and its alt.
 *
 * @module
 */

import type Cropper from "cropperjs";
import {
  IMAGE_FORMAT_ATTRIBUTE,
  type ImageFormat,
  imageFormat,
} from "../state/image_format.ts";
import { text, type TextKey } from "../i18n/mod.ts";
import { h, messageDialog, showDialog } from "../ui.ts";
import { altFields } from "./alt_text.ts";
import { imageFormatWarning } from "./words.ts";

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
  const { format, unknown } = imageFormat(
    container?.getAttribute(IMAGE_FORMAT_ATTRIBUTE) ?? null,
  );
  if (unknown !== undefined && container && !warned.has(container)) {
    warned.add(container);
    console.warn(imageFormatWarning(unknown));
  }
  return format;
}

/** A cropped and converted image, ready to upload. */
export interface PreparedImage {
  /** The image's bytes, in the chosen format, or JPEG or PNG. */
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
  /** When the chosen format could not be made: which one it is instead. */
  fallback?: { png: boolean; format: string };
}

const RATIOS: Array<[TextKey | string, number]> = [
  ["cropFree", Number.NaN],
  ["16:9", 16 / 9],
  ["4:3", 4 / 3],
  ["1:1", 1],
];

/** The dialog's parts, and what the person chose in it. */
interface ImageForm {
  dialog: HTMLDialogElement;
  form: HTMLFormElement;
  file: HTMLInputElement;
  picture: HTMLImageElement;
  crop: HTMLElement;
  ratios: HTMLElement;
  note: HTMLElement;
  error: HTMLElement;
  alt: ReturnType<typeof altFields>;
  cropper: Cropper | undefined;
  fileName: string;
  ready: boolean;
  /** Applied as soon as the cropper is ready (Enter pressed before). */
  pending: boolean;
  transparent: boolean;
}

/** The crop shapes. */
function ratioGroup(choice: ImageForm): HTMLElement {
  const buttons: HTMLButtonElement[] = RATIOS.map(([label, ratio], index) =>
    h("button", {
      type: "button",
      "aria-pressed": index === 0 ? "true" : "false",
      onclick: (event: Event) => {
        choice.cropper?.setAspectRatio(ratio);
        for (const other of buttons) {
          other.setAttribute(
            "aria-pressed",
            String(other === event.currentTarget),
          );
        }
      },
    }, label === "cropFree" ? text("cropFree") : label)
  );
  return h(
    "div",
    {
      class: "ratios",
      role: "group",
      "aria-label": text("cropShape"),
      hidden: true,
    },
    h("span", {}, text("cropShapeLabel")),
    ...buttons,
    h("span", { class: "hint" }, text("cropHint")),
  );
}

/** Builds the dialog. */
function buildForm(format: ImageFormat): ImageForm {
  const picture = h("img", { alt: "" });
  const form = h("form", { method: "dialog", novalidate: true });
  const choice: ImageForm = {
    dialog: h(
      "dialog",
      { class: "wide image", "aria-labelledby": "inpage-image-title" },
      form,
    ),
    form,
    file: h("input", {
      type: "file",
      accept: "image/jpeg,image/png,image/webp",
    }),
    picture,
    crop: h("div", { class: "crop", hidden: true }, picture),
    ratios: h("div", {}),
    note: h("p", { class: "note", role: "status" }),
    error: h("p", { class: "error", role: "alert" }),
    alt: altFields(undefined),
    cropper: undefined,
    fileName: "image",
    ready: false,
    pending: false,
    transparent: false,
  };
  choice.ratios = ratioGroup(choice);
  form.append(
    h("h2", { id: "inpage-image-title" }, text("imageTitle")),
    h(
      "div",
      { class: "body" },
      h(
        "label",
        {},
        text("imageFile"),
        choice.file,
        h(
          "span",
          { class: "hint" },
          text("imageFileHint", { format: format.label }),
        ),
      ),
      choice.ratios,
      choice.crop,
      ...choice.alt.elements,
      choice.note,
      choice.error,
    ),
    h(
      "div",
      { class: "actions" },
      h("button", { type: "button", class: "cancel" }, text("cancel")),
      h(
        "button",
        { class: "primary", type: "submit", value: "apply" },
        text(
          "useImage",
        ),
      ),
    ),
  );
  return choice;
}

/** A file chosen: shown in the cropper (a lazily loaded part). */
function chooseFile(
  choice: ImageForm,
  root: ShadowRoot,
  format: ImageFormat,
  canMake: Promise<boolean>,
): void {
  const chosen = choice.file.files?.[0];
  if (!chosen) return;
  // A name the site already stored ends with its hash: drop it.
  choice.fileName = chosen.name.replace(/\.[A-Za-z0-9]+$/, "")
    .replace(/-[0-9a-f]{12}$/, "") || "image";
  choice.cropper?.destroy();
  choice.ready = false;
  choice.pending = false;
  choice.picture.src = URL.createObjectURL(chosen);
  choice.crop.hidden = false;
  choice.ratios.hidden = false;
  choice.error.textContent = "";
  choice.picture.addEventListener("load", async () => {
    let part: typeof import("../cropper.ts");
    try {
      part = await import("../cropper.ts");
    } catch {
      choice.error.textContent = text("cropperFailed");
      return;
    }
    cropperSheet ??= new CSSStyleSheet();
    if (cropperSheet.cssRules.length === 0) {
      cropperSheet.replaceSync(part.CROPPER_CSS);
    }
    if (!root.adoptedStyleSheets.includes(cropperSheet)) {
      root.adoptedStyleSheets = [...root.adoptedStyleSheets, cropperSheet];
    }
    choice.cropper = new part.Cropper(choice.picture, {
      viewMode: 1,
      autoCropArea: 1,
      background: false,
      ready: () => cropperReady(choice, format, canMake),
    });
  }, { once: true });
  choice.picture.addEventListener("error", () => {
    choice.error.textContent = text("notAnImage");
  }, { once: true });
}

/** The cropper is ready: the format note, and an apply asked before. */
function cropperReady(
  choice: ImageForm,
  format: ImageFormat,
  canMake: Promise<boolean>,
): void {
  choice.ready = true;
  choice.transparent = hasTransparency(choice.picture);
  void canMake.then((yes) => {
    choice.note.textContent = yes ? "" : text(
      choice.transparent ? "fallbackPng" : "fallbackJpeg",
      { format: format.label },
    );
  });
  if (choice.pending) choice.dialog.close("apply");
}

/** Enter in a field, or "Use this image": applied once it is ready. */
function submit(choice: ImageForm, event: Event): void {
  event.preventDefault();
  if (choice.picture.getAttribute("src") === null) {
    choice.error.textContent = text("chooseFirst");
    choice.file.focus();
    return;
  }
  const missing = choice.alt.problem();
  if (missing !== undefined) {
    choice.error.textContent = missing;
    choice.alt.input.focus();
    return;
  }
  if (!choice.ready) {
    choice.pending = true;
    choice.error.textContent = "";
    return;
  }
  choice.dialog.close("apply");
}

/**
 * Whether the dialog may close without the chosen work: nothing chosen or
 * typed, or the person says to discard it.
 */
async function mayDiscard(
  root: ShadowRoot,
  choice: ImageForm,
): Promise<boolean> {
  const work = choice.picture.getAttribute("src") !== null ||
    choice.alt.input.value.trim() !== "";
  if (!work) return true;
  const answer = await showDialog(
    root,
    messageDialog(text("imageDiscardTitle"), [
      h("p", {}, text("imageDiscardText")),
    ], [
      // Escape may have asked: Enter keeps the work, discarding is a click.
      { label: text("discardImage"), value: "discard", kind: "danger" },
      { label: text("keepEditing"), value: "keep", kind: "primary" },
    ]),
  );
  return answer === "discard";
}

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
  const canMake = canEncode(format.type);
  const choice = buildForm(format);
  choice.file.addEventListener(
    "change",
    () => chooseFile(choice, root, format, canMake),
  );
  choice.form.addEventListener("submit", (event) => submit(choice, event));
  choice.form.querySelector("button.cancel")?.addEventListener("click", () => {
    void mayDiscard(root, choice).then((yes) => {
      if (yes) choice.dialog.close("cancel");
    });
  });
  const answer = await showDialog(root, choice.dialog, {
    beforeCancel: () => mayDiscard(root, choice),
  });
  try {
    if (answer !== "apply" || !choice.cropper) return undefined;
    return await prepare(choice, format, canMake);
  } finally {
    choice.cropper?.destroy();
    if (choice.picture.src) URL.revokeObjectURL(choice.picture.src);
  }
}

/** The cropped image, scaled and encoded. */
async function prepare(
  choice: ImageForm,
  format: ImageFormat,
  canMake: Promise<boolean>,
): Promise<PreparedImage | undefined> {
  const canvas = choice.cropper!.getCroppedCanvas({
    maxWidth: LONG_SIDE_MAX,
    maxHeight: LONG_SIDE_MAX,
    imageSmoothingEnabled: true,
    imageSmoothingQuality: "high",
  });
  const scaled = fitCanvas(canvas, LONG_SIDE_MAX);
  const fallbackType = choice.transparent ? "image/png" : "image/jpeg";
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
      fallback: { png: blob.type === "image/png", format: format.label },
    }),
    name: choice.fileName,
    alt: choice.alt.value(),
    width: scaled.width,
    height: scaled.height,
  };
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
