/**
 * A clash at a review's publish settled field by field, through the router
 * with real requests, a real KV and real git, on a local checkout and on
 * the GitHub double alike: the same `POST /api/reviews/publish` with
 * `settle` (a side for each clashing field, and each page's version the
 * choices were made against) publishes the review with those choices in
 * one commit, its images with it, and deletes its branch; choices made
 * against a version that moved since, or leaving a clash out, are a 409
 * again and publish nothing; a malformed `settle` is a 400.
 */
import assert from "node:assert/strict";
import { gitBlobSha } from "../../lib/repository/repository.ts";
import { HOME, HOME_TEXT } from "../support/site.ts";
import {
  ABOUT,
  BACKENDS,
  post,
  type ReviewBackend,
  stage,
} from "../support/review_backend.ts";

const IMAGES = new URL("../../../shared/corpora/images/", import.meta.url);
const PNG = await Deno.readFile(new URL("pngsuite/basn6a08.png", IMAGES));
const home = JSON.parse(HOME_TEXT);
const homeWith = (fields: Record<string, unknown>) =>
  JSON.stringify({ ...home, ...fields });

/** Bob's review (a new title, a new about page with an image); a clash on the title. */
async function clashing(b: ReviewBackend) {
  const image = await stage(b, PNG, "Team", b.cookies.bob);
  const sent = await post(b, "/api/reviews", {
    message: "New title and an about page",
    pages: [
      {
        path: HOME,
        content: homeWith({ title: "Welcome" }),
        version: gitBlobSha(new TextEncoder().encode(HOME_TEXT)),
      },
      {
        path: ABOUT,
        content: JSON.stringify({
          title: "About us",
          hero: { ...image, alt: "The team" },
        }),
        version: "",
      },
    ],
  }, b.cookies.bob);
  assert.equal(sent.status, 201, JSON.stringify(sent.body));
  await b.publishElsewhere(HOME, homeWith({ title: "Their title" }));
  const id = (sent.body as { id: string }).id;
  const clash = await post(b, "/api/reviews/publish", { id }, b.cookies.alice);
  assert.deepEqual([clash.status, clash.body], [409, {
    error: "conflict",
    fields: [{ path: HOME, pointer: "/title" }],
  }]);
  const version = gitBlobSha(
    new TextEncoder().encode((await b.siteFile(HOME))!),
  );
  return { id, branch: `inpage/review/${id}`, version, image };
}

for (const [where, open] of BACKENDS) {
  for (const side of ["review", "site"] as const) {
    Deno.test(`on ${where}: a clash settled for the ${side}'s value publishes the review with that choice in one commit and deletes its branch`, async () => {
      await using b = await open();
      const { id, branch, version, image } = await clashing(b);
      const before = await b.site();
      const published = await post(b, "/api/reviews/publish", {
        id,
        settle: {
          versions: { [HOME]: version },
          keep: [{ path: HOME, pointer: "/title", side }],
        },
      }, b.cookies.alice);
      assert.equal(published.status, 200, JSON.stringify(published.body));
      const after = await b.site();
      assert.equal(after.count, before.count + 1, "exactly one commit");
      assert.equal(
        JSON.parse((await b.siteFile(HOME))!).title,
        side === "review" ? "Welcome" : "Their title",
      );
      const about = JSON.parse((await b.siteFile(ABOUT))!);
      assert.equal(
        about.hero.src,
        image.src,
        "the other page, in the same commit",
      );
      assert.equal(await b.branch(branch), undefined, "branch deleted");
      if (b.github) {
        assert.ok(b.github.files.has(`public/images/${image.src}`));
      }
    });
  }

  Deno.test(`on ${where}: choices made against a version that moved since, or leaving a clash out, are a 409 again and publish nothing`, async () => {
    await using b = await open();
    const { id, branch, version } = await clashing(b);
    const leftOut = await post(b, "/api/reviews/publish", {
      id,
      settle: { versions: { [HOME]: version }, keep: [] },
    }, b.cookies.alice);
    assert.deepEqual([leftOut.status, leftOut.body], [409, {
      error: "conflict",
      fields: [{ path: HOME, pointer: "/title" }],
    }]);
    await b.publishElsewhere(HOME, homeWith({ title: "Their second title" }));
    const before = await b.site();
    const moved = await post(b, "/api/reviews/publish", {
      id,
      settle: {
        versions: { [HOME]: version },
        keep: [{ path: HOME, pointer: "/title", side: "review" }],
      },
    }, b.cookies.alice);
    assert.deepEqual([moved.status, moved.body], [409, {
      error: "conflict",
      fields: [{ path: HOME, pointer: "/title" }],
    }]);
    assert.deepEqual(await b.site(), before, "nothing published");
    assert.equal(
      JSON.parse((await b.siteFile(HOME))!).title,
      "Their second title",
    );
    assert.ok(await b.branch(branch), "the review stays");
  });

  Deno.test(`on ${where}: a malformed settle is a 400 and publishes nothing`, async () => {
    await using b = await open();
    const { id, version } = await clashing(b);
    const before = await b.site();
    for (
      const settle of [
        { versions: { [HOME]: version } },
        {
          versions: {},
          keep: [{ path: HOME, pointer: "/title", side: "mine" }],
        },
        { versions: { [HOME]: 7 }, keep: [] },
        "review",
      ]
    ) {
      const refused = await post(
        b,
        "/api/reviews/publish",
        { id, settle },
        b.cookies.alice,
      );
      assert.deepEqual(
        [refused.status, (refused.body as { error: string }).error],
        [400, "bad_request"],
        JSON.stringify(settle),
      );
    }
    assert.deepEqual(await b.site(), before);
  });
}

Deno.test("docs/routes.md's settle body is one the route takes", async () => {
  const { reviewPublishBody } = await import("../../lib/wire/review.ts");
  const routes = await Deno.readTextFile(
    new URL("../../docs/routes.md", import.meta.url),
  );
  const block = [...routes.matchAll(/```json\n([\s\S]*?)```/g)]
    .map((match) => match[1]!).find((text) => text.includes('"settle"'));
  assert.ok(block, "a settle body in docs/routes.md");
  const parsed = reviewPublishBody.safeParse(JSON.parse(block));
  assert.ok(parsed.success);
  assert.equal(parsed.data?.settle?.keep[0]?.side, "review");
});
