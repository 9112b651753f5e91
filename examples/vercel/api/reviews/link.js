export { default } from "../_editor.js";
