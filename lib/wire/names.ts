/**
 * The names both sides share, written once: the routes (path, methods,
 * budget), the folders of a site's checkout, the cookies and the
 * `data-inpage-*` attributes (defined in `./regions.ts`, the region
 * contract). The server, the browser client, the regions
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
 * The `data-inpage-*` attributes, from their one home, the region contract
 * (`./regions.ts`), which also says what each kind of region edits.
 *
 * @example
 * ```ts
 * import { INPAGE_ATTRIBUTES } from "./names.ts";
 * import assert from "node:assert/strict";
 *
 * assert.equal(INPAGE_ATTRIBUTES.text, "data-inpage-text");
 * ```
 */
export { INPAGE_ATTRIBUTES } from "./regions.ts";

/**
 * The address of a page file on the site, by the convention of the
 * examples: `src/content/pages/{lang}/{page}.json` is `/{lang}/{page}/`,
 * and a page named `home` is its folder's address. A preview link opens
 * it by default; the overlay names a review's pages by it.
 *
 * @example
 * ```ts
 * import { pageAddress } from "./names.ts";
 * import assert from "node:assert/strict";
 *
 * assert.equal(pageAddress("src/content/pages/en/about.json"), "/en/about/");
 * assert.equal(pageAddress("src/content/pages/fr/home.json"), "/fr/");
 * assert.equal(pageAddress("src/content/pages/en/blog/home.json"), "/en/blog/");
 * ```
 *
 * @param path a page path
 * @returns the site path
 */
export function pageAddress(path: string): string {
  const name = path.slice(PAGES_FOLDER.length + 1).replace(/\.json$/, "");
  const segments = name.split("/");
  if (segments.at(-1) === "home") segments.pop();
  return `/${segments.map((segment) => `${segment}/`).join("")}`;
}
