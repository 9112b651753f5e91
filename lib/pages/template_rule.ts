/**
 * The template-syntax rule, for sites that render page strings as templates
 * (Eleventy's `renderContent`, a Nunjucks or Liquid filter, Hugo's
 * `RenderString` with shortcodes): there a string holding `{{ … }}` or
 * `{% … %}` is code that runs in the build, so one editor key could run
 * code on the build machine. With the rule on, `{{`, `{%` and `{#` (the
 * delimiters of Nunjucks, Liquid, Jinja, Go templates and Hugo shortcodes)
 * are refused in every string and key.
 *
 * The rule is off unless the site turns it on: a site that writes strings
 * as text (Astro, JSX, Nunjucks with autoescape and no `renderContent`)
 * can hold them.
 *
 * @module
 */

/** What the site says of template syntax in its strings. */
export type TemplateSyntax = "allow" | "refuse";

/**
 * The delimiters that open a template tag, an expression or a comment in
 * Nunjucks, Liquid, Jinja, Go templates and Hugo.
 */
const TEMPLATE = /\{[{%#]/;

/**
 * The template syntax in a string: the first delimiter found, or
 * `undefined`.
 *
 * @param text a key or string, sanitised
 * @returns `{{`, `{%` or `{#`, or `undefined`
 * @example
 * ```ts
 * import { templateSyntaxIn } from "./template_rule.ts";
 * import assert from "node:assert/strict";
 *
 * assert.equal(templateSyntaxIn("Hi {{ name }}"), "{{");
 * assert.equal(templateSyntaxIn("{% raw %}"), "{%");
 * assert.equal(templateSyntaxIn("a { b } c"), undefined);
 * ```
 */
export function templateSyntaxIn(text: string): string | undefined {
  return TEMPLATE.exec(text)?.[0];
}

/**
 * Checks the `templateSyntax` option of a site: `"allow"` (the default) or
 * `"refuse"`.
 *
 * @param value the option as given
 * @returns whether the rule is on
 * @throws {TypeError} on any other value
 */
export function refusesTemplateSyntax(value: unknown): boolean {
  if (value === undefined || value === "allow") return false;
  if (value === "refuse") return true;
  throw new TypeError(
    `templateSyntax is "allow" or "refuse", not ${JSON.stringify(value)}`,
  );
}
