/**
 * The History panel's logic without a browser: which fields a past version
 * shows differently, what restoring the whole page or one field gives the
 * edit session (undoable, kept in the draft, against the current version),
 * the paging of answers and the banner's words.
 */
import assert from "node:assert/strict";
import {
  addEntries,
  differingFields,
  HISTORY_PAGE,
  type HistoryEntry,
  previewFields,
  restoreField,
  restorePage,
} from "../../overlay/state/versions.ts";
import { EditState } from "../../overlay/state/state.ts";
import { createPage, pageNow } from "../../overlay/state/page.ts";
import { fieldsFrom } from "../../overlay/state/fields.ts";
import { restoreFields, typed } from "../../overlay/state/commands.ts";
import { redo, undo } from "../../overlay/state/history.ts";
import { changeCount } from "../../overlay/state/count.ts";
import { applyChanges, type PageObject } from "../../overlay/state/values.ts";
import { bannerWords } from "../../overlay/views/words.ts";
import { dateTime } from "../../overlay/messages.ts";
import { useLanguage } from "../../overlay/i18n/mod.ts";

const PATH = "src/content/pages/en/home.json";

/** The page as alice published it first. */
const FIRST: PageObject = {
  title: "Home",
  "a/b~c": "odd key",
  image: { src: "a.webp", width: 10, height: 10, alt: "A" },
  sections: [
    { id: "a", heading: "One", body: "<p>x</p>" },
    { id: "b", heading: "Two", body: "<p>y</p>" },
  ],
  nav: ["Home", "About"],
};

/** The page now: bob changed a heading, the alt text, the odd key and the nav. */
const NOW: PageObject = {
  title: "Home",
  "a/b~c": "odder key",
  image: { src: "a.webp", width: 10, height: 10, alt: "B" },
  sections: [
    { id: "a", heading: "One", body: "<p>x</p>" },
    { id: "b", heading: "Two, changed", body: "<p>y</p>" },
  ],
  nav: ["Home", "About", "Contact"],
};

const FIELDS = [
  ["/title", "text"],
  ["/sections/0/heading", "text"],
  ["/sections/1/heading", "text"],
  ["/sections/1/body", "html"],
  ["/image", "image"],
] as const;

function session(): EditState {
  const state = EditState.create(() => 1000);
  return state.apply(
    state.tr.addPage(
      createPage(PATH, "v2", structuredClone(NOW), fieldsFrom(FIELDS)),
    ).setActivity({ kind: "idle" }),
  );
}

const type = (state: EditState, pointer: string, value: unknown) =>
  state.apply(typed(state, PATH, pointer, value, pointer)!);

const entry = (n: number, extra: Partial<HistoryEntry> = {}): HistoryEntry => ({
  commit: n.toString(16).padStart(40, "0"),
  version: "1".repeat(40),
  date: "2026-11-25T17:41:02+00:00",
  author: "Alice Martin",
  message: `Change ${n}`,
  ...extra,
});

Deno.test("previewFields: a region's field differs when the version holds another value; a field the version lacks does not", () => {
  const s = type(session(), "/title", "Home, unsaved");
  const fields = previewFields(
    [...FIELDS.map(([pointer]) => pointer), "/sections/2/heading"],
    FIRST,
    (pointer) => s.valueOf(PATH, pointer),
  );
  assert.deepEqual(
    fields.filter((field) => field.differs).map((field) => field.pointer),
    // The title differs from the unsaved value, not from the stored one.
    ["/title", "/sections/1/heading", "/image"],
  );
  const missing = fields.at(-1)!;
  assert.equal(missing.then, undefined);
  assert.equal(missing.differs, false);
  assert.deepEqual(restoreField(missing), new Map());
  assert.deepEqual(
    restoreField(fields[2]!),
    new Map([["/sections/1/heading", "Two"]]),
  );
});

Deno.test("restorePage: each change at the deepest place the two differ; a list of another length, or an object with other keys, as a whole", () => {
  const changes = restorePage(NOW, FIRST);
  assert.deepEqual(
    changes,
    new Map<string, unknown>([
      ["/a~1b~0c", "odd key"],
      ["/image/alt", "A"],
      ["/sections/1/heading", "Two"],
      ["/nav", ["Home", "About"]],
    ]),
  );
  assert.deepEqual(applyChanges(NOW, changes), FIRST);
  assert.deepEqual(restorePage(FIRST, structuredClone(FIRST)), new Map());
  // A key added since: the whole page.
  const added = { ...FIRST, extra: true };
  assert.deepEqual(restorePage(added, FIRST), new Map([["", FIRST]]));
  const nested = { ...FIRST, image: { src: "a.webp" } };
  assert.deepEqual(
    restorePage(nested, FIRST),
    new Map([["/image", FIRST.image]]),
  );
  // The values handed over are copies.
  const copy = restorePage(NOW, FIRST).get("/nav") as string[];
  copy.push("x");
  assert.deepEqual(FIRST.nav, ["Home", "About"]);
});

Deno.test("restoring the whole page is one undo step against the current version, unsaved changes included", () => {
  let s = session();
  // An unsaved change inside a list the restore rewrites, and one elsewhere.
  s = type(s, "/sections/0/heading", "One, unsaved");
  s = type(s, "/nav", ["Home"]);
  const now = pageNow(s.page(PATH)!);
  s = s.apply(restoreFields(s, PATH, restorePage(now, FIRST))!);
  const page = s.page(PATH)!;
  assert.equal(page.version, "v2", "published against the current version");
  assert.deepEqual(applyChanges(page.base, page.changes), FIRST);
  // One undo brings back the unsaved changes as they were.
  s = s.apply(undo(s)!);
  assert.equal(s.valueOf(PATH, "/sections/0/heading"), "One, unsaved");
  assert.deepEqual(s.valueOf(PATH, "/nav"), ["Home"]);
  assert.equal(s.valueOf(PATH, "/image/alt"), "B");
  s = s.apply(redo(s)!);
  assert.deepEqual(applyChanges(page.base, s.page(PATH)!.changes), FIRST);
  // Nothing to restore, or another page: no command.
  assert.equal(restoreFields(s, PATH, new Map()), undefined);
  assert.equal(
    restoreFields(s, "other.json", new Map([["/title", "x"]])),
    undefined,
  );
});

Deno.test("restoring one field is one undo step of its own that leaves the other fields as they are", () => {
  let s = type(session(), "/title", "Typing");
  const [heading] = previewFields(
    ["/sections/1/heading"],
    FIRST,
    (pointer) => s.valueOf(PATH, pointer),
  );
  s = s.apply(restoreFields(s, PATH, restoreField(heading!))!);
  assert.equal(s.valueOf(PATH, "/sections/1/heading"), "Two");
  assert.equal(s.valueOf(PATH, "/title"), "Typing");
  assert.equal(s.valueOf(PATH, "/image/alt"), "B");
  assert.equal(changeCount(s), 2);
  s = s.apply(undo(s)!);
  assert.equal(s.valueOf(PATH, "/sections/1/heading"), "Two, changed");
  assert.equal(s.valueOf(PATH, "/title"), "Typing");
});

Deno.test("differingFields: every place a version differs, shown by a region or not (an odd key, a list of another length)", () => {
  const fields = differingFields(NOW, FIRST);
  assert.deepEqual(fields.map((field) => [field.pointer, field.then]), [
    ["/a~1b~0c", "odd key"],
    ["/image/alt", "A"],
    ["/sections/1/heading", "Two"],
    ["/nav", ["Home", "About"]],
  ]);
  assert.deepEqual(fields[1]!.now, "B");
  assert.deepEqual(
    restoreField(fields[0]!),
    new Map([["/a~1b~0c", "odd key"]]),
  );
});

Deno.test("addEntries: older answers follow, an entry already shown is left out, a full answer means more may follow", () => {
  const first = Array.from({ length: HISTORY_PAGE }, (_, n) => entry(n + 1));
  const one = addEntries([], first);
  assert.equal(one.entries.length, HISTORY_PAGE);
  assert.equal(one.more, true);
  const two = addEntries(one.entries, [entry(30), entry(31)]);
  assert.deepEqual(
    two.entries.slice(-2).map((item) => item.message),
    ["Change 30", "Change 31"],
  );
  assert.equal(two.entries.length, HISTORY_PAGE + 1);
  assert.equal(two.more, false);
  assert.equal(addEntries(two.entries, []).more, false);
});

Deno.test("the banner names the version's time, author and message; times are in the interface's language", () => {
  useLanguage("en");
  assert.equal(
    dateTime("2026-11-25T17:41:02+00:00", "America/New_York"),
    "Nov 25, 2026, 12:41 PM",
  );
  assert.equal(dateTime("not a date"), "not a date");
  const when = "25 Nov 2026, 17:41";
  assert.equal(
    bannerWords(entry(1), when),
    "Viewing the version of 25 Nov 2026, 17:41 by Alice Martin — Change 1",
  );
  assert.equal(
    bannerWords(entry(2, { message: "  ", author: "Bob Stone" }), when),
    "Viewing the version of 25 Nov 2026, 17:41 by Bob Stone",
  );
});
