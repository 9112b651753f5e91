/**
 * A region whose pointer names nothing, or a value of another kind, is
 * never edited silently: `regionFit` says why for each case, from the
 * region contract (`lib/wire/regions.ts`, the same table `editor check
 * --html` reads), and the views put it in words. (A publish refusing a
 * change that would write a key the file lacks: publish_test.ts.)
 */
import assert from "node:assert/strict";
import { createsKey, regionFit } from "../../overlay/state/fields.ts";
import {
  IMAGE_FORMATS,
  imageFormat,
} from "../../overlay/state/image_format.ts";
import { hasEditCookie } from "../../overlay/state/login_state.ts";
import {
  imageFormatWarning,
  misfitReport,
  misfitWords,
} from "../../overlay/views/words.ts";
import type { FieldKind } from "../../overlay/state/fields.ts";
import { HOME } from "../support/site.ts";

/** Why a region cannot edit its value, in words; undefined when it can. */
function fieldFit(page: unknown, pointer: string, kind: FieldKind) {
  const misfit = regionFit(page, pointer, kind);
  return misfit && {
    reason: misfit.reason,
    sentence: misfitWords(misfit, pointer, kind),
  };
}

const PAGE = {
  title: "Home",
  description: "A site",
  count: 3,
  hero: { src: "a-0123456789ab.png", width: 4, height: 3, alt: "" },
  banner: "/images/banner.png",
  sections: [{ heading: "One", body: "<p>x</p>" }],
  tags: ["a"],
  meta: { keywords: "x" },
  nothing: null,
};

Deno.test("regionFit: text and html need a string, image a media object, list an array, link a link object", () => {
  assert.equal(fieldFit(PAGE, "/title", "text"), undefined);
  assert.equal(fieldFit(PAGE, "/sections/0/body", "html"), undefined);
  assert.equal(fieldFit(PAGE, "/hero", "image"), undefined);
  assert.equal(fieldFit(PAGE, "/sections", "list"), undefined);
  assert.equal(fieldFit(PAGE, "/tags", "list"), undefined);
  const kinds: Array<[string, FieldKind, RegExp]> = [
    [
      "/banner",
      "image",
      /holds text \(“\/images\/banner\.png”\), not an image/,
    ],
    ["/hero", "text", /holds an object, not text/],
    ["/count", "html", /holds a number, not rich text/],
    ["/meta", "list", /holds an object, not a list/],
    ["/sections", "image", /holds a list, not an image/],
    ["/sections", "text", /holds a list, not text/],
    ["/nothing", "text", /holds null, not text/],
    ["/title", "list", /holds text \(“Home”\), not a list/],
    ["/meta", "image", /holds an object, not an image/],
  ];
  for (const [pointer, kind, sentence] of kinds) {
    const misfit = fieldFit(PAGE, pointer, kind);
    assert.equal(misfit?.reason, "kind", `${kind} at ${pointer}`);
    assert.match(misfit.sentence, sentence);
    assert.match(misfit.sentence, /cannot be edited/);
  }
});

Deno.test("regionFit: a key the file does not hold, beside existing ones or under a missing parent", () => {
  const typo = fieldFit(PAGE, "/descripton", "text");
  assert.deepEqual(typo, {
    reason: "missing",
    sentence:
      "The page file has no “descripton”: check the pointer “/descripton” in the template. This region cannot be edited.",
  });
  assert.match(
    fieldFit(PAGE, "/sections/0/heding", "text")?.sentence ?? "",
    /^“sections 1” has no “heding”/,
  );
  assert.equal(
    fieldFit(PAGE, "/sections/5/heading", "text")?.reason,
    "missing",
  );
  assert.equal(fieldFit(PAGE, "/nope/deeper", "html")?.reason, "missing");
  assert.equal(fieldFit(PAGE, "/title/0", "text")?.reason, "missing");
  assert.equal(
    fieldFit(PAGE, "/sections/01/heading", "text")?.reason,
    "missing",
  );
  assert.equal(fieldFit(PAGE, "no-slash", "text")?.reason, "pointer");
  assert.match(
    fieldFit(PAGE, "no-slash", "text")?.sentence ?? "",
    /“no-slash” is not a JSON Pointer/,
  );
  // Escaped tokens name their key.
  assert.equal(fieldFit({ "a/b": "x" }, "/a~1b", "text"), undefined);
  assert.match(fieldFit({}, "/a~1b", "text")?.sentence ?? "", /has no “a\/b”/);
});

Deno.test("createsKey: a pointer naming nothing in the page", () => {
  assert.equal(createsKey(PAGE, "/title"), false);
  assert.equal(createsKey(PAGE, "/nothing"), false);
  assert.equal(createsKey(PAGE, "/descripton"), true);
  assert.equal(createsKey(PAGE, "/sections/1"), true);
  assert.equal(createsKey(PAGE, "/sections/-"), true);
});

Deno.test("misfitReport: one title and one line per region, none without regions", () => {
  assert.equal(misfitReport([]), undefined);
  const report = misfitReport([
    {
      path: HOME,
      pointer: "/descripton",
      kind: "text",
      sentence: "The page file has no “descripton”.",
    },
    {
      path: HOME,
      pointer: "/banner",
      kind: "image",
      sentence: "Not an image.",
    },
  ]);
  assert.deepEqual(report, {
    title:
      "@inpage/editor: 2 regions cannot be edited (their pointers do not name a value of their kind)",
    lines: [
      `data-inpage-text="/descripton" in ${HOME}: The page file has no “descripton”.`,
      `data-inpage-image="/banner" in ${HOME}: Not an image.`,
    ],
  });
});

Deno.test("the region contract decides once what an image and a link edit: an image needs a string src (and a string alt if any), a link a string href (and a string title if any)", () => {
  const page = {
    bare: { alt: "no src" },
    numbered: { src: "a-0123456789ab.png", alt: 7 },
    sized: { src: "a-0123456789ab.png", width: "960" },
    titled: { href: "/", title: 42 },
    good: { href: "/about/", title: "About" },
    photo: { src: "a-0123456789ab.png", alt: "A", width: 4, height: 3 },
  };
  assert.equal(fieldFit(page, "/bare", "image")?.reason, "kind");
  assert.equal(fieldFit(page, "/numbered", "image")?.reason, "kind");
  assert.equal(fieldFit(page, "/sized", "image")?.reason, "kind");
  assert.equal(fieldFit(page, "/photo", "image"), undefined);
  assert.equal(fieldFit(page, "/titled", "link")?.reason, "kind");
  assert.equal(fieldFit(page, "/good", "link"), undefined);
});

Deno.test("imageFormat: WebP by default, jpeg (or jpg) and png by name, anything else WebP with a warning", () => {
  assert.deepEqual(imageFormat(null), { format: IMAGE_FORMATS.webp });
  assert.equal(imageFormat("webp").format.type, "image/webp");
  assert.deepEqual(imageFormat("jpeg"), { format: IMAGE_FORMATS.jpeg });
  assert.equal(imageFormat(" JPG ").format.type, "image/jpeg");
  assert.equal(imageFormat("jpeg").format.extension, "jpg");
  assert.equal(imageFormat("png").format.type, "image/png");
  for (const unknown of ["gif", "", "avif", "toString", "__proto__"]) {
    const { format, unknown: named } = imageFormat(unknown);
    assert.equal(format.type, "image/webp", unknown);
    assert.equal(
      imageFormatWarning(named!),
      `@inpage/editor: data-inpage-image-format="${unknown}" names no format the overlay writes (webp, jpeg or png): new images are WebP.`,
    );
  }
});

Deno.test("hasEditCookie: editor_edit=1 among the page's cookies, and nothing else", () => {
  assert.equal(hasEditCookie("editor_edit=1"), true);
  assert.equal(hasEditCookie("a=b; editor_edit=1; c=d"), true);
  assert.equal(hasEditCookie(""), false);
  assert.equal(hasEditCookie("editor_edit="), false);
  assert.equal(hasEditCookie("editor_edit=0"), false);
  assert.equal(hasEditCookie("xeditor_edit=1"), false);
  assert.equal(hasEditCookie("editor_edit=10"), false);
});
