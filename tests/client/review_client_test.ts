/**
 * The browser client's review methods, over the router with a local
 * checkout: each sends what its route takes and gives back its answer,
 * checked against the same wire shapes; each refusal is an `EditorError`
 * with what the view needs (`fields`, `pages`, `path`).
 */
import assert from "node:assert/strict";
import { EditorError, failure } from "../../client/mod.ts";
import { gitBlobSha } from "../../lib/repository/repository.ts";
import { HOME, HOME_TEXT } from "../support/site.ts";
import { BACKENDS, router } from "../support/review_backend.ts";
import { routerClient } from "../support/router_client.ts";

const HOME_VERSION = gitBlobSha(new TextEncoder().encode(HOME_TEXT));
const [, openLocal] = BACKENDS[0]!;

async function refusal(work: Promise<unknown>): Promise<EditorError> {
  const error = await work.then(() => undefined, (thrown) => thrown);
  assert.ok(error instanceof EditorError, String(error));
  return error;
}

Deno.test("the client sends, lists, reads, links, previews, schedules, publishes and closes reviews", async () => {
  await using b = await openLocal();
  const bob = routerClient(router.handle, b.env, b.cookies.bob);
  const alice = routerClient(router.handle, b.env, b.cookies.alice);
  const visitor = routerClient(router.handle, b.env, "");
  const page = { ...JSON.parse(HOME_TEXT), title: "From the client" };
  const created = await bob.sendForReview({
    message: "Client review",
    pages: [{ path: HOME, content: page, version: HOME_VERSION }],
  });
  assert.equal(created.branch, `inpage/review/${created.id}`);
  const { reviews } = await alice.reviews();
  assert.deepEqual(reviews.map((review) => review.id), [created.id]);
  const one = await alice.review(created.id);
  assert.equal(one.pages[0]!.base, HOME_VERSION);
  assert.deepEqual(JSON.parse(one.pages[0]!.content), page);

  const link = await bob.reviewLink(created.id, 24, "/en/");
  const token = new URL(link.url, "https://site.example").searchParams.get(
    "inpage-preview",
  )!;
  const seen = await visitor.previewReview(token);
  assert.equal(seen.id, created.id);
  const tampered = await refusal(visitor.previewReview(`${token}x`));
  assert.equal(tampered.code, "unauthorized");

  const at = new Date(b.clock.now() + 3_600_000);
  assert.deepEqual(await alice.scheduleReview(created.id, at), {
    id: created.id,
    scheduled: at.toISOString(),
  });
  assert.deepEqual(await alice.scheduleReview(created.id, null), {
    id: created.id,
    scheduled: null,
  });
  const forbidden = await refusal(bob.publishReview(created.id));
  assert.deepEqual([forbidden.code, forbidden.status], ["forbidden", 403]);

  await b.publishElsewhere(
    HOME,
    JSON.stringify({ ...JSON.parse(HOME_TEXT), title: "Meanwhile" }),
  );
  const clash = await refusal(alice.publishReview(created.id));
  assert.equal(clash.code, "conflict");
  assert.deepEqual(clash.fields, [{ path: HOME, pointer: "/title" }]);

  const carol = routerClient(router.handle, b.env, b.cookies.carol);
  const notHers = await refusal(carol.closeReview(created.id));
  assert.equal(notHers.code, "forbidden");
  await bob.closeReview(created.id);
  const gone = await refusal(alice.review(created.id));
  assert.equal(gone.code, "not_found");
  assert.equal((await refusal(visitor.previewReview(token))).code, "not_found");

  const again = await bob.sendForReview({
    message: "Another",
    pages: [{
      path: "src/content/pages/en/team.json",
      content: { title: "Team" },
      version: "",
    }],
  });
  const published = await alice.publishReview(again.id);
  assert.deepEqual(Object.keys(published.versions), [
    "src/content/pages/en/team.json",
  ]);
  assert.equal((await b.site()).head, published.commit);
});

Deno.test("the client's review refusals carry pages, path and too_many_reviews", async () => {
  await using b = await openLocal();
  const bob = routerClient(router.handle, b.env, b.cookies.bob);
  const invalid = await refusal(bob.sendForReview({
    message: "Bad",
    pages: [{
      path: HOME,
      content: '{"a":"<img src=x>"}',
      version: HOME_VERSION,
    }],
  }));
  assert.equal(invalid.code, "invalid_content");
  assert.deepEqual(invalid.pages, [{
    path: HOME,
    at: "/a",
    reason: "markup",
    problems: [{ at: "/a", reason: "markup" }],
  }]);
  const stale = await refusal(bob.sendForReview({
    message: "Stale",
    pages: [{ path: HOME, content: "{}", version: "0".repeat(40) }],
  }));
  assert.deepEqual([stale.code, stale.path], ["conflict", HOME]);
  const full = failure(new Response(null, { status: 409 }), {
    error: "too_many_reviews",
  });
  assert.equal(full.code, "too_many_reviews");
  const noSecret = failure(new Response(null, { status: 503 }), {
    error: "unavailable",
  });
  assert.equal(noSecret.code, "unavailable");
});
