/**
 * The site configuration: its locales, checked once when a factory runs.
 *
 * @module
 */

import { refusesTemplateSyntax, type TemplateSyntax } from "./template_rule.ts";

export type { TemplateSyntax };

/**
 * The site configuration: its languages and, for a site that renders page
 * strings as templates, the template-syntax rule.
 */
export interface RouterOptions {
  /** The language codes the site declares, e.g. `["en", "fr"]`. */
  readonly locales: readonly string[];
  /**
   * `"refuse"` when the site renders page strings as templates (Eleventy's
   * `renderContent`, a Nunjucks or Liquid filter, Hugo's `RenderString`):
   * `{{`, `{%` and `{#` are then refused in every string and key (422
   * `invalid_content`, reason `template`, `at` the field). Default
   * `"allow"`.
   */
  readonly templateSyntax?: TemplateSyntax | undefined;
}

/** The options a router knows. */
const KNOWN = new Set(["locales", "templateSyntax"]);

const LOCALE = /^[A-Za-z]{2,3}(?:-[A-Za-z0-9]{1,8})*$/;

/**
 * Checks a site's locales: a non-empty list of distinct language codes.
 *
 * @param options the site configuration
 * @returns the locales, frozen
 * @throws {TypeError} on a missing, empty or malformed list, an option other
 *   than `locales` and `templateSyntax`, or a `templateSyntax` other than
 *   `"allow"` and `"refuse"`
 */
export function checkLocales(options: RouterOptions): readonly string[] {
  if (typeof options !== "object" || options === null) {
    throw new TypeError("Router options must be an object with locales");
  }
  const extra = Object.keys(options).filter((name) => !KNOWN.has(name));
  if (extra.length > 0) {
    throw new TypeError(
      `The site configuration holds only locales and templateSyntax, not ${
        extra.join(", ")
      }`,
    );
  }
  refusesTemplateSyntax(options.templateSyntax);
  const { locales } = options;
  if (!Array.isArray(locales) || locales.length === 0) {
    throw new TypeError("Locales must be a non-empty array of language codes");
  }
  for (const locale of locales) {
    if (typeof locale !== "string" || !LOCALE.test(locale)) {
      throw new TypeError(
        `Locale ${JSON.stringify(locale)} is not a language code`,
      );
    }
  }
  if (new Set(locales).size !== locales.length) {
    throw new TypeError("Locales must not repeat");
  }
  return Object.freeze([...locales]);
}
