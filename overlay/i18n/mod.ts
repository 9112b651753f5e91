/**
 * The overlay's language: the table of strings chosen from the page's
 * `<html lang>` (its primary subtag: `fr-CA` is `fr`), English for any
 * language without a table. A site adds a language without rebuilding the
 * overlay by putting a table in the page, as JSON, before the loader:
 * `<script type="application/json" data-inpage-strings="de">{"publish":
 * "Veröffentlichen", …}</script>`; every key it leaves out stays English.
 *
 * @example
 * ```ts
 * import { loadLanguage, plural, text, useLanguage } from "./mod.ts";
 *
 * await loadLanguage("fr-CA");
 * console.assert(text("publish") === "Publier");
 * console.assert(plural("unsaved", 2) === "2 modifications non enregistrées");
 * useLanguage("en");
 * ```
 *
 * @module
 */

import { INPAGE_ATTRIBUTES } from "../../lib/wire/regions.ts";
import { en, type Plural, type Strings } from "./en.ts";

export type { Plural, Strings };

/**
 * The tables built into the overlay, by language code: English in the
 * overlay's entry, every other one a lazy part fetched only by pages in
 * that language.
 */
export const LANGUAGES: Readonly<Record<string, () => Promise<Strings>>> = {
  en: () => Promise.resolve(en),
  fr: async () => (await import("./fr.ts")).fr,
};

/** The built-in tables loaded so far. */
const loaded = new Map<string, Strings>([["en", en]]);

/**
 * Loads a built-in language's table (a lazy part), then uses it as
 * {@linkcode useLanguage} does. English when it cannot be loaded.
 *
 * @param lang a language tag, such as `fr-CA`
 * @param extra a site's own table, for a language not built in
 * @returns the code of the language chosen
 */
export async function loadLanguage(
  lang: string,
  extra?: unknown,
): Promise<string> {
  const primary = primaryOf(lang);
  const load = Object.hasOwn(LANGUAGES, primary)
    ? LANGUAGES[primary]
    : undefined;
  if (load && !loaded.has(primary)) {
    try {
      loaded.set(primary, await load());
    } catch {
      // Not reachable: English.
    }
  }
  return useLanguage(lang, extra);
}

function primaryOf(lang: string): string {
  return lang.trim().toLowerCase().split(/[-_]/)[0] ?? "";
}

/** A key whose entry is a sentence. */
export type TextKey = {
  [K in keyof Strings]: Strings[K] extends string ? K : never;
}[keyof Strings];

/** A key whose entry depends on a count. */
export type PluralKey = Exclude<keyof Strings, TextKey>;

let table: Strings = en;
let code = "en";
let rules = new Intl.PluralRules("en");

/**
 * Chooses the interface's language among the tables loaded (English, and
 * those {@linkcode loadLanguage} loaded).
 *
 * @param lang a language tag (`<html lang>`), such as `fr` or `fr-CA`
 * @param extra a table for a language the overlay has none for: its keys
 *   over the English ones (a key of the wrong kind is left out)
 * @returns the code of the language chosen (`en` when none fits)
 */
export function useLanguage(lang: string, extra?: unknown): string {
  const primary = primaryOf(lang);
  if (loaded.has(primary)) {
    table = loaded.get(primary)!;
    code = primary;
  } else if (
    primary !== "" && !Object.hasOwn(LANGUAGES, primary) && isRecord(extra)
  ) {
    table = merged(extra);
    code = primary;
  } else {
    table = en;
    code = "en";
  }
  try {
    rules = new Intl.PluralRules(code);
  } catch {
    rules = new Intl.PluralRules("en");
  }
  return code;
}

/**
 * The code of the language in use.
 *
 * @returns such as `en` or `fr`
 */
export function language(): string {
  return code;
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

function merged(extra: Record<string, unknown>): Strings {
  const out: Record<string, unknown> = { ...en };
  for (const [key, value] of Object.entries(extra)) {
    if (!Object.hasOwn(en, key)) continue;
    const english = (en as Record<string, unknown>)[key];
    if (typeof english === "string" && typeof value === "string") {
      out[key] = value;
    } else if (
      isRecord(english) && isRecord(value) &&
      typeof value.other === "string"
    ) {
      out[key] = Object.fromEntries(
        Object.entries(value).filter(([, form]) => typeof form === "string"),
      );
    }
  }
  return out as Strings;
}

function fill(template: string, values: Record<string, unknown>): string {
  return template.replace(
    /\{(\w+)\}/g,
    (whole, name: string) =>
      Object.hasOwn(values, name) ? String(values[name]) : whole,
  );
}

/**
 * A sentence of the interface, with its values put in.
 *
 * @param key the entry
 * @param values the `{name}` values
 * @returns the sentence in the language in use
 */
export function text(
  key: TextKey,
  values: Record<string, unknown> = {},
): string {
  return fill(table[key], values);
}

/**
 * A sentence that depends on a count (`{count}` is put in).
 *
 * @param key the entry
 * @param count the count
 * @param values other `{name}` values
 * @returns the sentence in the language in use
 */
export function plural(
  key: PluralKey,
  count: number,
  values: Record<string, unknown> = {},
): string {
  const entry = table[key] as Plural;
  const form = entry[rules.select(count) as keyof Plural] ?? entry.other;
  return fill(form, { ...values, count });
}

/**
 * Chooses the language of a document: its `<html lang>`, with a table
 * from a `<script type="application/json" data-inpage-strings="…">` of the
 * same language when the overlay has none.
 *
 * @param document the page
 * @returns the code of the language chosen
 */
export async function useDocumentLanguage(
  document: {
    documentElement: { lang: string };
    querySelectorAll(selector: string): Iterable<{
      getAttribute(name: string): string | null;
      textContent: string | null;
    }>;
  },
): Promise<string> {
  const lang = document.documentElement.lang;
  const primary = lang.toLowerCase().split(/[-_]/)[0] ?? "";
  let extra: unknown;
  for (
    const script of document.querySelectorAll(
      `script[type="application/json"][${INPAGE_ATTRIBUTES.strings}]`,
    )
  ) {
    const of = (script.getAttribute(INPAGE_ATTRIBUTES.strings) ?? "")
      .toLowerCase().split(/[-_]/)[0];
    if (of !== primary) continue;
    try {
      extra = JSON.parse(script.textContent ?? "");
    } catch {
      // A damaged table: English.
    }
  }
  return await loadLanguage(lang, extra);
}
