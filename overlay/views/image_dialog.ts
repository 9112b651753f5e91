/// <reference lib="dom" />
/**
 * Image replacement: pick a file, crop it with Cropper.js, scale it to at
 * most 2,400 px on its longer side and convert it to WebP in a canvas.
 *
 * @module
 */

import type Cropper from "cropperjs";
import { h, showDialog } from "../ui.ts";
import { altFields } from "./alt_text.ts";

/** Cropper.js's style sheet, made when the cropper first loads. */
let cropperSheet: CSSStyleSheet | undefined;

/** The longest side of an uploaded image, in pixels. */
export const LONG_SIDE_MAX = 2400;

/** A cropped and converted image, ready to upload. */
export interface PreparedImage {
  /** The WebP bytes. */
  blob: Blob;
  /** A name derived from the chosen file's. */
  name: string;
  /** The alternative text. */
  alt: string;
  /** Its width in pixels. */
  width: number;
  /** Its height in pixels. */
  height: number;
}

const RATIOS: Array<[string, number]> = [
  ["Free", Number.NaN],
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
 * @returns the prepared image, or `undefined` when cancelled
 */
export async function chooseImage(
  root: ShadowRoot,
): Promise<PreparedImage | undefined> {
  let cropper: Cropper | undefined;
  let fileName = "image";
  const error = h("p", { class: "error", role: "alert" });
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
  }, "Crop and upload");
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
    }, label);
    return button;
  });
  const ratios = h(
    "div",
    {
      class: "ratios",
      role: "group",
      "aria-label": "Crop shape",
      hidden: true,
    },
    h("span", {}, "Crop shape:"),
    ...ratioButtons,
    h(
      "span",
      { class: "hint" },
      "Drag the frame or its corners to choose what to keep.",
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
        error.textContent =
          "The cropper could not be loaded: check the connection and choose the file again.";
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
          if (pending) dialog.close("apply");
        },
      });
    }, { once: true });
    picture.addEventListener("error", () => {
      error.textContent =
        "This file could not be read as an image: choose a JPEG, PNG or WebP file.";
    }, { once: true });
  });
  const form = h("form", { method: "dialog", novalidate: true });
  const dialog = h(
    "dialog",
    { class: "wide", "aria-labelledby": "inpage-image-title" },
    form,
  );
  form.append(
    h("h2", { id: "inpage-image-title" }, "Replace image"),
    h(
      "label",
      {},
      "Image file",
      file,
      h(
        "span",
        { class: "hint" },
        "JPEG, PNG or WebP. It is cropped, scaled to at most 2,400 px and saved as WebP.",
      ),
    ),
    ratios,
    crop,
    ...alt.elements,
    error,
    h(
      "div",
      { class: "actions" },
      h("button", {
        type: "button",
        onclick: () => dialog.close("cancel"),
      }, "Cancel"),
      apply,
    ),
  );
  // Enter in a field presses "Crop and upload": the image is applied once
  // it is ready, and nothing typed is thrown away before.
  form.addEventListener("submit", (event) => {
    event.preventDefault();
    if (picture.getAttribute("src") === null) {
      error.textContent = "Choose an image file first.";
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
    const blob = await new Promise<Blob | null>((resolve) =>
      scaled.toBlob(resolve, "image/webp", 0.86)
    );
    if (!blob || blob.type !== "image/webp") return undefined;
    return {
      blob,
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
