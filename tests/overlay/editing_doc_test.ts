/**
 * docs/editing.md names the overlay's buttons, words and shortcuts as the
 * overlay shows them: every term it puts in bold is a label of the
 * interface's English table, or a shortcut it names (the loader's own,
 * Ctrl+Shift+E, written in its code).
 */
import assert from "node:assert/strict";
import { en } from "../../overlay/i18n/en.ts";

const DOC = new URL("../../docs/editing.md", import.meta.url);
const LOADER = new URL("../../overlay/loader.ts", import.meta.url);

Deno.test("docs/editing.md names only what the overlay shows: each bold term is one of its labels or shortcuts", async () => {
  const doc = await Deno.readTextFile(DOC);
  const loader = await Deno.readTextFile(LOADER);
  const strings = Object.values(en).flatMap((value) =>
    typeof value === "string" ? [value] : Object.values(value)
  );
  const terms = [...doc.matchAll(/\*\*([^*]+)\*\*/g)].map((match) =>
    match[1]!.replace(/\s+/g, " ")
  );
  assert.ok(terms.length > 20, `only ${terms.length} terms`);
  const unknown = terms.filter((term) =>
    !strings.some((value) => value === term || value.includes(term)) &&
    !loader.includes(term)
  );
  assert.deepEqual(unknown, []);
  // The rule itself.
  assert.ok(strings.includes("Keep mine"));
  assert.ok(!strings.some((value) => value.includes("Save draft")));
});
