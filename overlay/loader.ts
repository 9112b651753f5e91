/// <reference lib="dom" />
/**
 * The loader a site includes on every page:
 * `<script type="module" src="/_inpage/loader.js"></script>`.
 * For a visitor it does nothing: no request, no change to the page. It
 * imports the overlay (`./overlay.js` beside it) only when the
 * `editor_edit` cookie is `1` (set by a login), when the address holds
 * `?edit`, or when the editor presses Ctrl+Shift+E (⌘+Shift+E on a Mac).
 *
 * @module
 */

let loading = false;

function load(): void {
  if (loading) return;
  loading = true;
  const url = new URL("./overlay.js", import.meta.url).href;
  import(url).then(
    (overlay: { start(): Promise<void> }) => overlay.start(),
    () => {
      loading = false;
    },
  );
}

if (
  /(?:^|;\s*)editor_edit=1(?:;|$)/.test(document.cookie) ||
  new URLSearchParams(location.search).has("edit")
) {
  load();
} else {
  addEventListener("keydown", (event) => {
    if (
      (event.ctrlKey || event.metaKey) && event.shiftKey &&
      event.key.toLowerCase() === "e"
    ) {
      event.preventDefault();
      load();
    }
  });
}
