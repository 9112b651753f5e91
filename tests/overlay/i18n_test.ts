/**
 * The overlay's language tables: French has every English key with the
 * same kind of entry and the same `{values}`; the language follows a tag's
 * primary subtag, English for any other; a site's table fills the keys it
 * gives; the failure sentences come from the table in use.
 */
import assert from "node:assert/strict";
import { EditorError } from "../../client/mod.ts";
import { en } from "../../overlay/i18n/en.ts";
import { fr } from "../../overlay/i18n/fr.ts";
import {
  language,
  loadLanguage,
  plural,
  text,
  useLanguage,
} from "../../overlay/i18n/mod.ts";
import { failureSentence, reasonSentence } from "../../overlay/messages.ts";

const values = (entry: unknown): string[] =>
  [...JSON.stringify(entry).matchAll(/\{(\w+)\}/g)].map((m) => m[1]!).sort();

Deno.test("the French table has every key, of the same kind, with the same values put in", () => {
  assert.deepEqual(Object.keys(fr).sort(), Object.keys(en).sort());
  for (const key of Object.keys(en) as (keyof typeof en)[]) {
    assert.equal(typeof fr[key], typeof en[key], key);
    assert.deepEqual(
      [...new Set(values(fr[key]))],
      [...new Set(values(en[key]))],
      key,
    );
  }
});

Deno.test("the language follows the primary subtag; English for any other", async () => {
  try {
    assert.equal(await loadLanguage("fr-CA"), "fr");
    assert.equal(text("publish"), "Publier");
    assert.equal(plural("unsaved", 0), "0 modification non enregistrée");
    assert.equal(plural("unsaved", 2), "2 modifications non enregistrées");
    assert.equal(reasonSentence("link").startsWith("Ce lien"), true);
    assert.equal(
      failureSentence(new EditorError("network", { status: 0 })),
      fr.failNetwork,
    );
    assert.equal(await loadLanguage("de"), "en");
    assert.equal(useLanguage("fr"), "fr", "loaded once, used at once");
    assert.equal(useLanguage("de"), "en");
    assert.equal(text("publish"), "Publish");
    assert.equal(plural("unsaved", 1), "1 unsaved change");
    assert.equal(useLanguage(""), "en");
  } finally {
    useLanguage("en");
  }
});

Deno.test("a site's own table: the keys it gives, English for the rest, wrong kinds ignored", async () => {
  try {
    assert.equal(
      await loadLanguage("de", {
        publish: "Veröffentlichen",
        unsaved: {
          one: "{count} ungespeicherte Änderung",
          other: "{count} ungespeicherte Änderungen",
        },
        logOut: 42,
        undo: { other: "no" },
        notAKey: "x",
      }),
      "de",
    );
    assert.equal(language(), "de");
    assert.equal(text("publish"), "Veröffentlichen");
    assert.equal(plural("unsaved", 3), "3 ungespeicherte Änderungen");
    assert.equal(text("logOut"), "Log out");
    assert.equal(text("undo"), "Undo");
  } finally {
    useLanguage("en");
  }
});

Deno.test("a question about one change speaks of it in the singular, in French too; both link hints name every scheme the error names", async () => {
  const { askLoseChangesWords } = await import("../../overlay/views/words.ts");
  try {
    await loadLanguage("fr");
    assert.equal(
      askLoseChangesWords("discard", 1),
      "Vous avez 1 modification non enregistrée. Elle ne pourra pas être récupérée.",
    );
    assert.equal(
      askLoseChangesWords("logout", 2),
      "Vous avez 2 modifications non enregistrées. Elles restent dans ce navigateur comme brouillon, proposé la prochaine fois que vous modifierez cette page.",
    );
    for (const table of [en, fr]) {
      for (const scheme of ["https:", "http:", "mailto:", "tel:"]) {
        assert.ok(table.reasonLink.includes(scheme));
        assert.ok(table.addressHint.includes(scheme), `${scheme} in the hint`);
        assert.ok(table.linkObjectHint.includes(scheme));
      }
    }
    useLanguage("en");
    assert.equal(
      askLoseChangesWords("discard", 1),
      "You have 1 unsaved change. It cannot be brought back.",
    );
  } finally {
    useLanguage("en");
  }
});
