/// <reference lib="dom" />
/**
 * The loader a site includes on every page:
 * `<script type="module" src="/_inpage/loader.js"></script>`.
 * For a visitor it does nothing: no request, no change to the page. It
 * imports the overlay (`./overlay.js` beside it) only when the
 * `editor_edit` cookie is `1` (set by a login), when the address holds
 * `?edit`, or when the editor presses Ctrl+Shift+E (⌘+Shift+E on a Mac);
 * with that cookie (a session exists) it also reads the page's files beside
 * the import. Without it nothing is read before the editor logs in, so that
 * no request fails. A review's preview link (`?inpage-preview=TOKEN`)
 * imports the preview mode (`./preview.js`) instead, and nothing else.
 *
 * @module
 */

/**
 * The content route (`ROUTES.content.path` of `lib/wire/names.ts`, written
 * out: importing it would make a chunk shared with the overlay, one more
 * request; a test keeps the two equal).
 */
export const CONTENT_ROUTE = "/api/content";

let loading = false;

const hasSession = () => /(?:^|;\s*)editor_edit=1(?:;|$)/.test(document.cookie);

function load(): void {
  if (loading) return;
  loading = true;
  // With a session the page files are read beside the overlay's import,
  // not after it: one round trip less before the overlay is ready.
  const reads = new Map<string, Promise<Response>>();
  const elements = hasSession()
    ? document.querySelectorAll("[data-inpage-page]")
    : [];
  for (const element of elements) {
    const path = element.getAttribute("data-inpage-page") ?? "";
    if (!reads.has(path)) {
      const url = new URL(CONTENT_ROUTE, location.href);
      url.searchParams.set("path", path);
      reads.set(path, fetch(url, { credentials: "same-origin" }));
    }
  }
  const url = new URL("./overlay.js", import.meta.url).href;
  import(url).then(
    (overlay: {
      start(options: { reads: Map<string, Promise<Response>> }): Promise<void>;
    }) => overlay.start({ reads }),
    () => {
      loading = false;
    },
  );
}

/**
 * A review's preview link (`?inpage-preview=TOKEN`): the preview mode, not
 * the overlay. No login, no editing, and no shortcut to either.
 */
function preview(token: string): void {
  const url = new URL("./preview.js", import.meta.url).href;
  import(url).then(
    (mode: { start(token: string): Promise<void> }) => mode.start(token),
  );
}

const query = new URLSearchParams(location.search);
const token = query.get("inpage-preview");

if (token !== null) {
  preview(token);
} else if (hasSession() || query.has("edit")) {
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
