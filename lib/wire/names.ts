/**
 * The names both sides share, written once: the routes (path, methods,
 * budget), the folders of a site's checkout, the cookies and the
 * `data-inpage-*` attributes. The server, the browser client, the regions
 * helper, the overlay and the CLI import them from here; the JSON Pointer
 * beside it is `./pointer.ts`, the wire schemas `./mod.ts`. No host API,
 * no dependency: it runs in the browser as on the server.
 *
 * @example
 * ```ts
 * import { PAGES_FOLDER, ROUTES } from "./names.ts";
 * import assert from "node:assert/strict";
 *
 * assert.equal(ROUTES.save.path, "/api/save");
 * assert.equal(`${PAGES_FOLDER}/en/home.json`, "src/content/pages/en/home.json");
 * ```
 *
 * @module
 */

/**
 * The routes: the four of the reference, the editors' own two
 * (`/api/session`, `/api/history`) and the four of reviews (`/api/reviews`
 * and its `publish`, `schedule` and `link`), each with a budget of its own;
 * each one's path, the methods it serves (in the order of its `allow`
 * header) and the name of its rate budget in `BUDGETS` (`lib/limits.ts`).
 *
 * @example
 * ```ts
 * import { ROUTES } from "./names.ts";
 * import assert from "node:assert/strict";
 *
 * assert.deepEqual(ROUTES.auth.methods, ["POST", "DELETE"]);
 * ```
 */
export const ROUTES = {
  auth: { path: "/api/auth", methods: ["POST", "DELETE"], budget: "auth" },
  content: { path: "/api/content", methods: ["GET"], budget: "content" },
  save: { path: "/api/save", methods: ["POST"], budget: "save" },
  upload: { path: "/api/upload", methods: ["POST"], budget: "upload" },
  session: { path: "/api/session", methods: ["GET"], budget: "session" },
  history: { path: "/api/history", methods: ["GET"], budget: "history" },
  reviews: {
    path: "/api/reviews",
    methods: ["GET", "POST", "DELETE"],
    budget: "reviews",
  },
  reviewPublish: {
    path: "/api/reviews/publish",
    methods: ["POST"],
    budget: "reviewPublish",
  },
  reviewSchedule: {
    path: "/api/reviews/schedule",
    methods: ["POST"],
    budget: "reviewSchedule",
  },
  reviewLink: {
    path: "/api/reviews/link",
    methods: ["POST"],
    budget: "reviewLink",
  },
} as const;

/** One entry of {@linkcode ROUTES}. */
export type RouteEntry = (typeof ROUTES)[keyof typeof ROUTES];

/** The path of a route, such as `/api/save`. */
export type RoutePath = RouteEntry["path"];

/** The name of a route's rate budget, such as `save`. */
export type BudgetName = RouteEntry["budget"];

/**
 * The query parameter of `POST /api/upload` that keeps the image aside for
 * the editor's next publish (`?staged=1`) instead of storing it at once.
 */
export const STAGED_PARAMETER = "staged";

/**
 * The query parameter of a page opened from a preview link
 * (`/en/about/?inpage-preview=TOKEN`): the loader shows the review the
 * token names, read-only, on the live page.
 */
export const PREVIEW_PARAMETER = "inpage-preview";

/** A review's id: 32 lowercase hex digits (128 random bits). */
export const REVIEW_ID: RegExp = /^[0-9a-f]{32}$/;

/** The branch of a review: `{REVIEW_BRANCH_PREFIX}{id}`. */
export const REVIEW_BRANCH_PREFIX = "inpage/review/";

/** Where the pages are in a site's checkout: `{PAGES_FOLDER}/{lang}/…`. */
export const PAGES_FOLDER = "src/content/pages";

/** Where images are stored in a site's checkout (media `src` names). */
export const IMAGES_FOLDER = "public/images";

/** The HttpOnly cookie that carries the session token. */
export const SESSION_COOKIE = "editor_session";

/** The script-readable cookie that tells the page an edit session is open. */
export const EDIT_COOKIE = "editor_edit";

/**
 * The attributes of the page a site's templates and the overlay share:
 * those the templates write (`page`, `text`, `html`, `markdown`, `image`,
 * `link`, `list`, `item`, `template`, `default`, `fields`, `imageFormat`)
 * and those
 * the overlay sets while editing.
 *
 * @example
 * ```ts
 * import { INPAGE_ATTRIBUTES } from "./names.ts";
 * import assert from "node:assert/strict";
 *
 * assert.equal(INPAGE_ATTRIBUTES.text, "data-inpage-text");
 * ```
 */
export const INPAGE_ATTRIBUTES = {
  /** On a container: the page file it shows. */
  page: "data-inpage-page",
  /** A plain-text field, by its JSON Pointer. */
  text: "data-inpage-text",
  /** A rich-text field, by its JSON Pointer. */
  html: "data-inpage-html",
  /** A string the site renders as CommonMark, by its JSON Pointer. */
  markdown: "data-inpage-markdown",
  /** A media object, by its JSON Pointer. */
  image: "data-inpage-image",
  /** A link object (`href`, optional `title`), by its JSON Pointer. */
  link: "data-inpage-link",
  /** The element whose element children render an array, by its pointer. */
  list: "data-inpage-list",
  /** One element child of a list: the list's pointer, `/`, its index. */
  item: "data-inpage-item",
  /** A `<template>` inside a list: the markup of the first item of an empty one. */
  template: "data-inpage-template",
  /** On that `<template>`: the new item's JSON. */
  default: "data-inpage-default",
  /** On a container: the page fields the Page panel edits, space-separated. */
  fields: "data-inpage-fields",
  /** On a container: the format of uploaded images (`webp`, `jpeg`, `png`). */
  imageFormat: "data-inpage-image-format",
  /** On `<html>` while the overlay edits. */
  editing: "data-inpage-editing",
  /** On the overlay's own host element. */
  overlay: "data-inpage-overlay",
  /** On a region changed and not yet published. */
  changed: "data-inpage-changed",
  /** On a region the server refused. */
  invalid: "data-inpage-invalid",
  /** On a replaced image: the stored name. */
  src: "data-inpage-src",
  /** On a region that cannot be edited: the sentence saying why. */
  unresolved: "data-inpage-unresolved",
} as const;
