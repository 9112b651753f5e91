/**
 * The overlay's styles: one sheet inside its shadow root (the page's CSS
 * cannot reach the overlay, nor the overlay's the page), and a few rules
 * for the page's own regions while editing, scoped to the `data-inpage-*`
 * attributes and removed on log out.
 *
 * @module
 */

/** The styles of the overlay's own interface, inside its shadow root. */
export const OVERLAY_CSS = `
:host { all: initial; }
* { box-sizing: border-box; }
[hidden] { display: none !important; }
.ui { font: 14px/1.45 system-ui, -apple-system, "Segoe UI", Roboto, sans-serif; color: #111827; }
button, input { font: inherit; }
button { cursor: pointer; border-radius: 6px; border: 1px solid #9ca3af; background: #fff; color: #111827; padding: 6px 12px; min-height: 34px; }
button:hover { background: #f3f4f6; }
button.primary { background: #1d4ed8; border-color: #1d4ed8; color: #fff; font-weight: 600; }
button.primary:hover { background: #1e40af; }
button.danger { border-color: #b91c1c; color: #b91c1c; }
button:disabled { opacity: .55; cursor: default; }
button:focus-visible, input:focus-visible { outline: 3px solid #f59e0b; outline-offset: 2px; }
.bar { position: fixed; z-index: 2147483646; left: 0; right: 0; bottom: 16px; margin-inline: auto; width: max-content; display: flex; align-items: center; gap: 10px; flex-wrap: wrap; max-width: calc(100vw - 24px); padding: 10px 12px; background: #111827; color: #f9fafb; border-radius: 10px; box-shadow: 0 10px 30px rgba(0,0,0,.3); }
.bar .title { font-weight: 700; letter-spacing: .01em; }
.bar .status { min-width: 9em; }
.bar .status[data-state="dirty"] { color: #fcd34d; }
.bar .status[data-state="published"] { color: #86efac; }
.bar .status[data-state="error"] { color: #fca5a5; }
.bar .detail { color: #d1d5db; font-size: 13px; max-width: 16em; overflow: hidden; text-overflow: ellipsis; white-space: nowrap; }
.bar .hint { color: #d1d5db; font-size: 13px; max-width: 16em; }
.bar .hint[hidden] { display: none; }
.bar .who { color: #d1d5db; font-size: 13px; }
@media (max-width: 1360px) { .bar .hint { display: none; } }
.bar label { display: flex; align-items: center; gap: 6px; }
.bar input { width: 12em; max-width: 40vw; padding: 6px 8px; border-radius: 6px; border: 1px solid #6b7280; background: #1f2937; color: #f9fafb; }
.bar input::placeholder { color: #9ca3af; }
.bar button { background: #374151; color: #f9fafb; border-color: #6b7280; }
.bar button:hover { background: #4b5563; }
.bar button.primary { background: #2563eb; border-color: #2563eb; }
.bar button.primary:hover { background: #1d4ed8; }
.alert { position: fixed; z-index: 2147483646; left: 0; right: 0; bottom: calc(var(--inpage-bar-space, 76px) + 8px); margin-inline: auto; width: min(600px, calc(100vw - 24px)); max-height: 40vh; overflow: auto; padding: 12px 14px; border-radius: 10px; background: #fef2f2; color: #7f1d1d; border: 1px solid #fca5a5; box-shadow: 0 8px 24px rgba(0,0,0,.2); display: flex; gap: 12px; align-items: flex-start; }
.alert[hidden] { display: none; }
.alert p { margin: 0; flex: 1; }
.bar .group { display: inline-flex; gap: 6px; }
.bar .extra { display: inline-flex; align-items: center; gap: 10px; flex-wrap: wrap; }
.bar .more { display: none; }
.bar .minimise:empty::before { content: "▾"; font-size: 16px; line-height: 1; }
.bar .minimise:empty { min-width: 34px; padding-inline: 8px; }
.bar .modes button[aria-pressed="true"] { background: #f9fafb; color: #111827; border-color: #f9fafb; font-weight: 600; }
.bar[data-minimised] { left: auto; right: 12px; margin: 0; padding: 6px 8px; gap: 8px; }
.bar[data-minimised] > :not(.status):not(.minimise) { display: none !important; }
.bar[data-minimised] .status { min-width: 0; }
.ui[data-preview] .misfit, .ui[data-preview] .restore-field { display: none !important; }
.problems { position: fixed; z-index: 2147483646; left: 0; right: 0; bottom: calc(var(--inpage-bar-space, 76px) + 8px); margin-inline: auto; width: min(600px, calc(100vw - 24px)); max-height: 30vh; overflow: auto; padding: 10px 14px; border-radius: 10px; background: #fff7ed; color: #7c2d12; border: 1px solid #fdba74; box-shadow: 0 8px 24px rgba(0,0,0,.2); }
.problems ul { margin: 0; padding-left: 18px; }
.problems button.link { background: none; border: none; padding: 0; min-height: 0; color: #7c2d12; font-weight: 700; text-decoration: underline; }
.problems:not([hidden]) + .alert { bottom: calc(var(--inpage-bar-space, 76px) + 16px + min(30vh, 120px)); }
.toolbar { position: fixed; z-index: 2147483646; display: flex; gap: 2px; padding: 4px; background: #fff; border: 1px solid #d1d5db; border-radius: 8px; box-shadow: 0 6px 18px rgba(0,0,0,.18); }
.toolbar[hidden] { display: none; }
.toolbar { flex-wrap: wrap; max-width: calc(100vw - 8px); }
.toolbar button { min-width: 34px; padding: 4px 8px; border-color: transparent; }
.toolbar button[aria-pressed="true"] { background: #dbeafe; border-color: #93c5fd; color: #1e3a8a; }
.toolbar button[data-glyph]::before { content: attr(data-glyph); }
.toolbar .sep { width: 1px; background: #e5e7eb; margin: 2px 4px; }
dialog { border: none; border-radius: 12px; padding: 0; width: min(440px, calc(100vw - 24px)); box-shadow: 0 20px 50px rgba(0,0,0,.35); color: #111827; }
dialog.wide { width: min(760px, calc(100vw - 24px)); }
dialog::backdrop { background: rgba(17,24,39,.55); }
dialog form, dialog .body { padding: 20px 22px; display: flex; flex-direction: column; gap: 12px; }
dialog h2 { margin: 0; font-size: 18px; }
dialog p { margin: 0; }
dialog label { display: flex; flex-direction: column; gap: 4px; font-weight: 600; }
dialog input[type="text"], dialog input[type="password"], dialog input[type="url"] { padding: 8px 10px; border: 1px solid #9ca3af; border-radius: 6px; font-weight: 400; }
dialog .hint { color: #4b5563; font-size: 13px; font-weight: 400; }
dialog .error { color: #b91c1c; font-weight: 600; }
dialog .error:empty { display: none; }
dialog .note { color: #92400e; background: #fffbeb; border: 1px solid #fcd34d; border-radius: 6px; padding: 6px 10px; }
dialog .note:empty { display: none; }
dialog .actions { display: flex; gap: 8px; justify-content: flex-end; flex-wrap: wrap; }
dialog ul { margin: 0; padding-left: 20px; }
dialog h3 { margin: 0 0 6px; font-size: 15px; }
dialog[aria-invalid], dialog input[aria-invalid="true"] { border-color: #b91c1c; outline: 2px solid #b91c1c; }
.clash { border: 1px solid #d1d5db; border-radius: 8px; padding: 10px; }
.clash .sides { display: grid; grid-template-columns: 1fr 1fr; gap: 10px; }
.clash .side { display: flex; flex-direction: column; gap: 6px; align-items: flex-start; }
.clash .side p { overflow-wrap: anywhere; }
.clash .who { font-size: 12px; font-weight: 700; text-transform: uppercase; color: #4b5563; }
.clash button[aria-pressed="true"] { background: #dbeafe; border-color: #1d4ed8; color: #1e3a8a; font-weight: 600; }
@media (max-width: 480px) { .clash .sides { grid-template-columns: 1fr; } }
dialog { max-height: calc(100vh - 24px); overflow: auto; }
@media (max-width: 640px) {
  .bar { left: 0; right: 0; bottom: 0; width: auto; max-width: none; margin: 0; border-radius: 10px 10px 0 0; gap: 6px; padding: 6px 8px calc(6px + env(safe-area-inset-bottom)); flex-wrap: nowrap; }
  .bar .hint, .bar .title, .bar .detail { display: none; }
  .bar .status { flex: 1 1 auto; min-width: 0; white-space: nowrap; overflow: hidden; text-overflow: ellipsis; }
  .bar button { min-height: 40px; padding: 6px 10px; }
  .bar .extra, .bar .modes { display: none; }
  .bar .more:not([hidden]) { display: inline-block; }
  .bar[data-expanded] { flex-wrap: wrap; }
  .bar[data-expanded] .extra:not([hidden]) { display: flex; order: -2; width: 100%; gap: 6px; }
  .bar[data-expanded] .modes:not([hidden]) { display: inline-flex; order: -1; flex-basis: 100%; }
  .bar .extra label { flex: 1 1 100%; order: 1; }
  .bar .extra input { flex: 1; width: auto; max-width: none; }
  .bar[data-minimised] { left: auto; right: 8px; bottom: 8px; border-radius: 10px; }
  .toolbar button { min-height: 40px; min-width: 40px; }
}
.crop { height: min(420px, 45vh, 75vw); background: #f3f4f6; border-radius: 8px; overflow: hidden; }
.crop img { display: block; max-width: 100%; }
.ratios { display: flex; gap: 6px; flex-wrap: wrap; align-items: center; }
.ratios button[aria-pressed="true"] { background: #dbeafe; border-color: #1d4ed8; }
.misfit { position: fixed; z-index: 2147483645; margin: 0; padding: 6px 10px; background: #fef2f2; color: #7f1d1d; border: 1px solid #b91c1c; border-radius: 6px; font: 13px/1.4 system-ui, -apple-system, "Segoe UI", Roboto, sans-serif; box-shadow: 0 4px 12px rgba(0,0,0,.15); pointer-events: none; }
`;

/** Rules for the page's regions while editing, scoped to the editor's attributes. */
export const PAGE_CSS = `
html[data-inpage-editing] [data-inpage-text],
html[data-inpage-editing] [data-inpage-html],
html[data-inpage-editing] [data-inpage-image] { outline: 2px dashed rgba(37, 99, 235, .55); outline-offset: 3px; }
html[data-inpage-editing] [data-inpage-text]:hover,
html[data-inpage-editing] [data-inpage-html]:hover,
html[data-inpage-editing] [data-inpage-image]:hover,
html[data-inpage-editing] [data-inpage-text]:focus,
html[data-inpage-editing] [data-inpage-html]:focus-within,
html[data-inpage-editing] [data-inpage-image]:focus { outline: 2px solid #2563eb; }
html[data-inpage-editing] [data-inpage-image] { cursor: pointer; }
html[data-inpage-editing] [data-inpage-changed] { outline-color: #d97706; outline-style: solid; }
html[data-inpage-editing] [data-inpage-invalid] { outline: 3px solid #dc2626 !important; outline-offset: 3px; background-color: rgba(220, 38, 38, .08); }
html:not([data-inpage-editing]) [data-inpage-controls],
html:not([data-inpage-editing]) [data-inpage-empty],
html:not([data-inpage-editing]) [data-inpage-alt-control],
html:not([data-inpage-editing]) [data-inpage-link-control] { display: none !important; }
html[data-inpage-editing] [data-inpage-unresolved] { outline: 3px dashed #b91c1c !important; outline-offset: 3px; cursor: not-allowed; }
html[data-inpage-editing] [data-inpage-html] .tiptap { outline: none; white-space: pre-wrap; }
html[data-inpage-editing] [data-inpage-html] a[data-inpage-invalid] { outline: 2px dashed #dc2626 !important; background-color: rgba(220, 38, 38, .15); }
`;
