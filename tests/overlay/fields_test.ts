/**
 * A region whose pointer names nothing, or a value of another kind, is
 * never edited silently: `fieldFit` says why for each case, the session
 * lists it as a problem, and a publish refuses a change that would write a
 * key the file does not hold (unless it was made to create one). The
 * publish goes through the real browser client to the real router over a
 * real KV and a real git checkout.
 */
import assert from "node:assert/strict";
import { createRouter } from "../../mod.ts";
import {
  createsKey,
  fieldFit,
  misfitReport,
} from "../../overlay/session/fields.ts";
import {
  IMAGE_FORMATS,
  imageFormat,
} from "../../overlay/session/image_format.ts";
import { hasEditCookie } from "../../overlay/session/login_state.ts";
import { EditSession } from "../../overlay/session/session.ts";
import { HOME, signedInSite } from "../support/site.ts";
import { routerClient } from "../support/router_client.ts";

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

Deno.test("fieldFit: text and html need a string, image an object, list an array", () => {
  assert.equal(fieldFit(PAGE, "/title", "text"), undefined);
  assert.equal(fieldFit(PAGE, "/sections/0/body", "html"), undefined);
  assert.equal(fieldFit(PAGE, "/hero", "image"), undefined);
  assert.equal(fieldFit(PAGE, "/sections", "list"), undefined);
  assert.equal(fieldFit(PAGE, "/tags", "list"), undefined);
  const kinds: Array<[string, "text" | "html" | "image" | "list", RegExp]> = [
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
  ];
  for (const [pointer, kind, sentence] of kinds) {
    const misfit = fieldFit(PAGE, pointer, kind);
    assert.equal(misfit?.reason, "kind", `${kind} at ${pointer}`);
    assert.match(misfit.sentence, sentence);
    assert.match(misfit.sentence, /cannot be edited/);
  }
});

Deno.test("fieldFit: a key the file does not hold, beside existing ones or under a missing parent", () => {
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
  assert.equal(fieldFit(PAGE, "no-slash", "text")?.reason, "missing");
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

Deno.test("session: a region that does not fit is a problem from the start, with its sentence", () => {
  const session = new EditSession();
  session.addPage(HOME, "v1", structuredClone(PAGE), [
    ["/title", "text"],
    ["/descripton", "text"],
    ["/banner", "image"],
  ]);
  assert.deepEqual(
    session.problems.map((problem) => [problem.at, problem.reason]),
    [["/descripton", "missing"], ["/banner", "kind"]],
  );
  assert.ok(session.problems.every((problem) => problem.local));
});

Deno.test("publish: a change that would add a key is refused before any request; other fields publish without it; newKey lets a list operation create one", async () => {
  const router = createRouter({ locales: ["en", "fr"] });
  await using signed = await signedInSite(router, "stray key");
  const calls: string[] = [];
  const client = routerClient(router.handle, signed.env, signed.cookie, calls);
  const read = await client.read(HOME);
  const session = new EditSession();
  session.addPage(HOME, read.version, JSON.parse(read.content), [
    ["/title", "text"],
    ["/descripton", "text"],
  ]);
  const before = await signed.site.read(HOME);
  const head = (await signed.site.git("rev-parse", "HEAD")).trim();

  // Something (a region mounted anyway, an old draft) changes a missing key.
  session.change(HOME, "/title", "New title");
  session.change(HOME, "/descripton", "Typo");
  calls.length = 0;
  const refused = await session.publish(client);
  assert.equal(refused.kind, "failed");
  assert.deepEqual(calls, []);
  assert.equal(await signed.site.read(HOME), before);
  assert.equal((await signed.site.git("rev-parse", "HEAD")).trim(), head);
  assert.equal(
    session.status.text,
    "Not published: a change names nothing in the page file",
  );
  assert.match(
    session.alert ?? "",
    /^Nothing was published\. The page file has no “descripton”/,
  );
  assert.ok(
    session.problems.some((problem) =>
      problem.at === "/descripton" && problem.reason === "missing"
    ),
  );
  assert.equal(session.count, 2);
  assert.deepEqual(
    session.strayChanges().map((problem) => problem.at),
    ["/descripton"],
  );

  // Undone, the other field publishes, and the file holds no stray key.
  session.undo();
  assert.deepEqual(session.strayChanges(), []);
  assert.deepEqual(await session.publish(client), { kind: "published" });
  const file = JSON.parse((await signed.site.read(HOME))!);
  assert.equal(file.title, "New title");
  assert.equal(Object.hasOwn(file, "descripton"), false);

  // A list operation (or the Page panel) creates keys on purpose.
  session.change(HOME, "/sections/1", { id: "new", body: "<p>New</p>" }, {
    newKey: true,
  });
  session.change(HOME, "/subtitle", "Made by the Page panel", { newKey: true });
  assert.deepEqual(session.strayChanges(), []);
  assert.deepEqual(await session.publish(client), { kind: "published" });
  const grown = JSON.parse((await signed.site.read(HOME))!);
  assert.equal(grown.sections.length, 2);
  assert.equal(grown.subtitle, "Made by the Page panel");
});

Deno.test("imageFormat: WebP by default, jpeg (or jpg) and png by name, anything else WebP with a warning", () => {
  assert.deepEqual(imageFormat(null), { format: IMAGE_FORMATS.webp });
  assert.equal(imageFormat("webp").format.type, "image/webp");
  assert.deepEqual(imageFormat("jpeg"), { format: IMAGE_FORMATS.jpeg });
  assert.equal(imageFormat(" JPG ").format.type, "image/jpeg");
  assert.equal(imageFormat("jpeg").format.extension, "jpg");
  assert.equal(imageFormat("png").format.type, "image/png");
  for (const unknown of ["gif", "", "avif", "toString", "__proto__"]) {
    const { format, warning } = imageFormat(unknown);
    assert.equal(format.type, "image/webp", unknown);
    assert.equal(
      warning,
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
