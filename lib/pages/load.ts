/**
 * The page rules, loaded when a page is first checked: their HTML
 * tokenizers are not needed to start or to answer any other route.
 *
 * @module
 */

let pageRulesModule:
  | Promise<typeof import("./page_rules.ts")>
  | undefined;

/**
 * Loads `./page_rules.ts` once.
 *
 * @example
 * ```ts
 * import { loadPageRules } from "./load.ts";
 * import assert from "node:assert/strict";
 *
 * const { pageRules } = await loadPageRules();
 * assert.equal(pageRules('{"title":"Hi"}'), '{\n  "title": "Hi"\n}\n');
 * ```
 *
 * @returns the module
 */
export function loadPageRules(): Promise<typeof import("./page_rules.ts")> {
  return pageRulesModule ??= import("./page_rules.ts");
}
