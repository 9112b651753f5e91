/**
 * Whether this browser has an edit session, known without a request: a
 * login sets the script-readable `editor_edit=1` cookie beside the HttpOnly
 * session cookie, and a log-out clears it. Without it the overlay asks for
 * the key before reading anything, so an editor who has not logged in sees
 * no failed request; with it a 401 means the session has ended.
 *
 * @example
 * ```ts
 * import { hasEditCookie } from "./login_state.ts";
 *
 * console.assert(hasEditCookie("theme=dark; editor_edit=1"));
 * console.assert(!hasEditCookie("editor_edit=; theme=dark"));
 * ```
 *
 * @module
 */

import { EDIT_COOKIE } from "../../lib/wire/names.ts";

/**
 * Whether a `document.cookie` string holds `editor_edit=1`.
 *
 * @param cookie the cookies as the page reads them
 * @returns true when an edit session was opened in this browser
 */
export function hasEditCookie(cookie: string): boolean {
  return cookie.split(";").some((part) => part.trim() === `${EDIT_COOKIE}=1`);
}
