/**
 * The cropper, a lazily loaded part of the overlay: Cropper.js (its ES
 * module build) and its style sheet, imported by the image dialog when an
 * image is first chosen.
 *
 * @module
 */

// @ts-types="cropperjs"
export { default as Cropper } from "cropperjs/dist/cropper.esm.js";
export { CROPPER_CSS } from "./cropper_css.ts";
