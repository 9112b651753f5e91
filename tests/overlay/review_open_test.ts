/**
 * An open review and a review's clash in the overlay, without a browser:
 * which regions show the review's values and are outlined (in the shape
 * of History's preview), and the per-field merge of a review's publish
 * that clashed, rebased onto the page as published now.
 */
import assert from "node:assert/strict";
import { reviewFields } from "../../overlay/preview/plan.ts";
import { reviewMergeFields } from "../../overlay/state/review_merge.ts";
import { resolveFields } from "../../overlay/state/merge.ts";
import { pageAddress } from "../../lib/wire/names.ts";

const PATH = "src/content/pages/en/about.json";

const published = {
  title: "About",
  intro: "We make things.",
  sections: [{ heading: "One", body: "<p>First</p>" }],
};

const review = {
  title: "About us",
  intro: "We make things.",
  sections: [{ heading: "One (reviewed)", body: "<p>First</p>" }],
};

const page = {
  path: PATH,
  content: JSON.stringify(review),
  changed: ["/title", "/sections/0/heading"],
};

const now = (values: Record<string, unknown>) => (pointer: string) =>
  values[pointer];

Deno.test("an open review shows its values where it changes the page, outlined, and the page now elsewhere", () => {
  const regions = [
    { path: PATH, kind: "text", pointer: "/title" },
    { path: PATH, kind: "text", pointer: "/intro" },
    { path: PATH, kind: "text", pointer: "/sections/0/heading" },
    { path: PATH, kind: "html", pointer: "/sections/0/body" },
  ];
  const fields = reviewFields(
    regions,
    page,
    now({
      "/title": "About",
      // Published since the review was sent: it stays in view.
      "/intro": "We make many things.",
      "/sections/0/heading": "One",
      "/sections/0/body": "<p>First</p>",
    }),
  );
  assert.deepEqual(
    fields.map(({ pointer, then, differs }) => ({ pointer, then, differs })),
    [
      { pointer: "/title", then: "About us", differs: true },
      { pointer: "/intro", then: undefined, differs: false },
      { pointer: "/sections/0/heading", then: "One (reviewed)", differs: true },
      { pointer: "/sections/0/body", then: undefined, differs: false },
    ],
  );
  assert.equal(fields[1]!.now, "We make many things.");
});

Deno.test("a region the review changes to what the page holds now is not outlined", () => {
  const [title] = reviewFields(
    [{ path: PATH, kind: "text", pointer: "/title" }],
    page,
    () => "About us",
  );
  assert.equal(title!.then, "About us");
  assert.equal(title!.differs, false);
});

Deno.test("a review that is not JSON shows the page as it is now", () => {
  const [title] = reviewFields(
    [{ path: PATH, kind: "text", pointer: "/title" }],
    { ...page, content: "{not json" },
    () => "About",
  );
  assert.deepEqual(
    { then: title!.then, differs: title!.differs },
    { then: undefined, differs: false },
  );
});

Deno.test("a review's clash: the listed field waits for a choice, the others take the review's values", () => {
  const meanwhile = { ...published, title: "About the team" };
  const fields = reviewMergeFields(
    review,
    page.changed,
    new Set(["/title"]),
    meanwhile,
  );
  assert.deepEqual(
    fields.map(({ pointer, mine, theirs, clash, gone }) => ({
      pointer,
      mine,
      theirs,
      clash,
      gone,
    })),
    [
      {
        pointer: "/title",
        mine: "About us",
        theirs: "About the team",
        clash: true,
        gone: false,
      },
      {
        pointer: "/sections/0/heading",
        mine: "One (reviewed)",
        theirs: "One",
        clash: false,
        gone: false,
      },
    ],
  );
  assert.deepEqual(resolveFields(fields), { ok: false, undecided: ["/title"] });
  const taken = resolveFields(fields, new Map([["/title", "mine"]]));
  assert.deepEqual(
    taken.ok && [...taken.changes],
    [["/title", "About us"], ["/sections/0/heading", "One (reviewed)"]],
  );
  const kept = resolveFields(fields, new Map([["/title", "theirs"]]));
  assert.deepEqual(
    kept.ok && [...kept.changes],
    [["/sections/0/heading", "One (reviewed)"]],
  );
});

Deno.test("a review's field whose place is gone now is a clash that keeps the page as published", () => {
  const meanwhile = { ...published, sections: [] };
  const fields = reviewMergeFields(
    review,
    ["/sections/0/heading"],
    new Set(),
    meanwhile,
  );
  assert.equal(fields[0]!.gone, true);
  assert.equal(fields[0]!.clash, true);
  const resolved = resolveFields(fields);
  assert.deepEqual(resolved.ok && resolved.changes.size, 0);
});

Deno.test("the Reviews panel names a page by its address on the site", () => {
  assert.equal(pageAddress(PATH), "/en/about/");
  assert.equal(pageAddress("src/content/pages/en/home.json"), "/en/");
});
