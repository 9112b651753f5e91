/**
 * The overlay's styles: one sheet inside its shadow root (the page's CSS
 * cannot reach the overlay, nor the overlay's the page), and a few rules
 * for the page's own regions while editing, scoped to the `data-inpage-*`
 * attributes and removed on log out.
 *
 * @module
 */

import { INPAGE_ATTRIBUTES as A } from "../lib/wire/regions.ts";

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
.bar { position: fixed; z-index: 2147483646; left: 0; right: 0; bottom: 16px; margin-inline: auto; width: max-content; display: flex; align-items: center; justify-content: flex-end; gap: 8px; row-gap: 6px; flex-wrap: wrap; max-width: calc(100vw - 24px); padding: 8px 10px; background: #111827; color: #f9fafb; border-radius: 10px; box-shadow: 0 10px 30px rgba(0,0,0,.3); }
.bar .title { font-weight: 700; letter-spacing: .01em; }
.bar .state { display: inline-flex; align-items: baseline; gap: 6px; width: 22em; flex: 1 0 auto; margin-inline-end: auto; overflow: hidden; white-space: nowrap; }
.bar .status { flex: none; }
.bar .status[data-state="dirty"] { color: #fcd34d; }
.bar .status[data-state="published"] { color: #86efac; }
.bar .status[data-state="error"] { color: #fca5a5; }
.bar .detail, .bar .tabs, .bar .also { color: #d1d5db; font-size: 13px; min-width: 0; overflow: hidden; text-overflow: ellipsis; }
.bar .also { color: #fde68a; }
.bar .also .short { display: none; }
.bar .also:not([hidden]) ~ .tabs .long { display: none; }
.bar .also:not([hidden]) ~ .tabs .short { display: inline; }
.bar .detail:empty { display: none; }
.bar .tabs { color: #c7d2fe; }
.bar .tabs .short { display: none; }
.bar .who { color: #d1d5db; font-size: 13px; }
.bar .edit { display: inline-flex; align-items: center; gap: 8px; }
.bar input { width: 13em; max-width: 40vw; padding: 6px 8px; border-radius: 6px; border: 1px solid #6b7280; background: #1f2937; color: #f9fafb; }
.bar input::placeholder { color: #9ca3af; }
.bar button { background: #374151; color: #f9fafb; border-color: #6b7280; white-space: nowrap; }
.bar button:hover { background: #4b5563; }
.bar button.primary { background: #2563eb; border-color: #2563eb; }
.bar button.primary:hover { background: #1d4ed8; }
.bar .group { display: inline-flex; gap: 6px; }
.bar .more[aria-expanded="true"] { background: #f9fafb; color: #111827; }
.bar .menu { display: none; }
.bar[data-expanded] .menu:not([hidden]) { display: flex; position: absolute; right: 0; bottom: calc(100% + 8px); flex-direction: column; align-items: stretch; gap: 6px; min-width: 14em; padding: 8px; background: #111827; border-radius: 10px; box-shadow: 0 10px 30px rgba(0,0,0,.3); }
.bar .menu .who { padding: 2px 4px; }
.bar .menu .also-line { padding: 2px 4px; max-width: 22em; white-space: normal; color: #fde68a; font-size: 13px; }
.bar .minimise:empty::before { content: "▾"; font-size: 16px; line-height: 1; }
.bar .minimise:empty { min-width: 34px; padding-inline: 8px; }
.bar .modes button[aria-pressed="true"] { background: #f9fafb; color: #111827; border-color: #f9fafb; font-weight: 600; }
.bar[data-minimised] { left: auto; right: 12px; margin: 0; padding: 6px 8px; gap: 8px; }
.bar[data-minimised] > :not(.state):not(.minimise) { display: none !important; }
.bar[data-minimised] .state { width: auto; }
.bar[data-minimised] .detail, .bar[data-minimised] .tabs, .bar[data-minimised] .also { display: none; }
@media (max-width: 1400px) { .bar .title { display: none; } }
@media (max-width: 1400px) { .bar { gap: 6px; } .bar button { padding-inline: 8px; } .bar input { width: 9.5em; } .bar .state { width: auto; max-width: 19em; } .bar .state:has(.also:not([hidden])) { max-width: 30em; } .bar .detail { max-width: 7em; } }
.alert { position: fixed; z-index: 2147483646; left: 0; right: 0; bottom: calc(var(--inpage-bar-space, 76px) + 8px); margin-inline: auto; width: min(600px, calc(100vw - 24px)); max-height: 40vh; overflow: auto; padding: 12px 14px; border-radius: 10px; background: #fef2f2; color: #7f1d1d; border: 1px solid #fca5a5; box-shadow: 0 8px 24px rgba(0,0,0,.2); display: flex; gap: 12px; align-items: flex-start; }
.alert[hidden] { display: none; }
.alert p { margin: 0; flex: 1; min-width: 0; overflow-wrap: anywhere; }
.ui[data-preview] .misfit { display: none !important; }
.problems { position: fixed; z-index: 2147483646; left: 0; right: 0; bottom: calc(var(--inpage-bar-space, 76px) + 8px); margin-inline: auto; width: min(600px, calc(100vw - 24px)); max-height: 30vh; overflow: auto; padding: 8px 14px; border-radius: 10px; background: #fff7ed; color: #7c2d12; border: 1px solid #fdba74; box-shadow: 0 8px 24px rgba(0,0,0,.2); }
.problems summary { cursor: pointer; font-weight: 700; }
.problems ul { margin: 6px 0 0; padding-left: 18px; }
.problems button.link, dialog button.link { background: none; border: none; padding: 0; min-height: 0; color: inherit; font-weight: 700; text-decoration: underline; }
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
dialog { max-height: calc(100dvh - 24px); overflow: auto; }
dialog .problem { margin: 0; color: #b91c1c; font-weight: 600; }
dialog .problem:empty { display: none; }
dialog.image { overflow: hidden; }
dialog.image form { max-height: calc(100dvh - 24px); padding: 0; gap: 0; }
dialog.image h2 { padding: 18px 22px 8px; }
dialog.image .body { overflow: auto; flex: 1 1 auto; min-height: 0; padding: 8px 22px 12px; }
dialog.image .actions { flex: none; padding: 12px 22px 16px; border-top: 1px solid #e5e7eb; background: #fff; }
@media (max-width: 640px) {
  .bar { left: 0; right: 0; bottom: 0; width: auto; max-width: none; margin: 0; border-radius: 10px 10px 0 0; gap: 6px; padding: 6px 8px calc(6px + env(safe-area-inset-bottom)); flex-wrap: nowrap; }
  .bar .title, .bar .detail { display: none; }
  .bar .tabs { flex: none; }
  .bar .tabs .long { display: none; }
  .bar .tabs .short { display: inline; }
  .bar .also { flex: none; }
  .bar .also .long { display: none; }
  .bar .also .short { display: inline; }
  .bar .menu .also-line { flex: 1 1 100%; max-width: none; }
  .bar .state { flex: 1 1 auto; width: auto; min-width: 0; }
  .bar .status { flex: 1 1 auto; min-width: 0; overflow: hidden; text-overflow: ellipsis; }
  .bar button { min-height: 40px; padding: 6px 10px; }
  .bar .edit, .bar .modes, .bar:not([data-author]) .review { display: none; }
  .bar[data-expanded] { flex-wrap: wrap; }
  .bar[data-expanded] .edit:not([hidden]) { display: flex; flex-wrap: wrap; order: -3; width: 100%; gap: 6px; }
  .bar[data-expanded] .modes:not([hidden]) { display: inline-flex; order: -2; }
  .bar[data-expanded]:not([data-author]) .review:not([hidden]) { display: inline-flex; order: -2; }
  .bar[data-expanded] .menu:not([hidden]) { position: static; order: -1; flex-direction: row; flex-wrap: wrap; align-items: center; width: 100%; min-width: 0; padding: 0; box-shadow: none; }
  .bar .edit input { flex: 1 1 100%; width: auto; max-width: none; }
  .bar[data-minimised] { left: auto; right: 8px; bottom: 8px; border-radius: 10px; }
  .toolbar button { min-height: 40px; min-width: 40px; }
  .problems { bottom: calc(var(--inpage-bar-space, 56px) + 6px); max-height: 40vh; }
}
.crop { height: min(420px, 45vh, 75vw); background: #f3f4f6; border-radius: 8px; overflow: hidden; flex: none; }
.crop img { display: block; max-width: 100%; }
.ratios { display: flex; gap: 6px; flex-wrap: wrap; align-items: center; }
.ratios button[aria-pressed="true"] { background: #dbeafe; border-color: #1d4ed8; }
.misfit { position: fixed; z-index: 2147483645; margin: 0; padding: 6px 10px; background: #fef2f2; color: #7f1d1d; border: 1px solid #b91c1c; border-radius: 6px; font: 13px/1.4 system-ui, -apple-system, "Segoe UI", Roboto, sans-serif; box-shadow: 0 4px 12px rgba(0,0,0,.15); pointer-events: none; }
`;

/** Rules for the page's regions while editing, scoped to the editor's attributes. */
export const PAGE_CSS = `
html[${A.editing}] [${A.text}],
html[${A.editing}] [${A.html}],
html[${A.editing}] [${A.markdown}],
html[${A.editing}] [${A.image}] { outline: 2px dashed rgba(37, 99, 235, .55); outline-offset: 3px; }
html[${A.editing}] [${A.text}]:hover,
html[${A.editing}] [${A.html}]:hover,
html[${A.editing}] [${A.markdown}]:hover,
html[${A.editing}] [${A.image}]:hover,
html[${A.editing}] [${A.text}]:focus,
html[${A.editing}] [${A.html}]:focus-within,
html[${A.editing}] [${A.markdown}]:focus-within,
html[${A.editing}] [${A.image}]:focus { outline: 2px solid #2563eb; }
html[${A.editing}] [${A.image}] { cursor: pointer; }
html[${A.editing}] [${A.changed}] { outline-color: #d97706; outline-style: solid; }
html[${A.editing}] [${A.invalid}] { outline: 3px solid #dc2626 !important; outline-offset: 3px; background-color: rgba(220, 38, 38, .08); }
html:not([${A.editing}]) [${A.controls}],
html:not([${A.editing}]) [${A.empty}],
html:not([${A.editing}]) [${A.altControl}],
html:not([${A.editing}]) [${A.linkControl}] { display: none !important; }
html[${A.editing}] [${A.unresolved}] { outline: 3px dashed #b91c1c !important; outline-offset: 3px; cursor: not-allowed; }
html[${A.editing}] [${A.html}] .tiptap,
html[${A.editing}] [${A.markdown}] .tiptap { outline: none; white-space: pre-wrap; }
html[${A.editing}] [${A.markdown}] .tiptap :is(ul, ol):not([data-loose]) > li > p { margin: 0; }
html[${A.editing}] [${A.html}] a[${A.invalid}] { outline: 2px dashed #dc2626 !important; background-color: rgba(220, 38, 38, .15); }
html[${A.editing}] { scroll-padding-bottom: var(--inpage-covered, 0px); }
`;
