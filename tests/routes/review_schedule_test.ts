/**
 * Scheduled publishing and preview links, through the router, on a local
 * checkout and on the GitHub double: `runSchedule(env)` publishes a review
 * when its time comes (the clock driven by `EDITOR_CLOCK`), through the
 * same merge; a schedule that meets a conflict leaves the review open and
 * marked; a preview token read needs no session and is refused when
 * altered, expired or signed under another secret, and not found once its
 * review is closed.
 */
import assert from "node:assert/strict";
import { runSchedule } from "../../mod.ts";
import { gitBlobSha } from "../../lib/repository/repository.ts";
import { signPreviewToken } from "../../lib/access/preview_token.ts";
import { HOME, HOME_TEXT } from "../support/site.ts";
import {
  ABOUT,
  BACKENDS,
  call,
  post,
  type ReviewBackend,
  SECRET,
} from "../support/review_backend.ts";

const HOME_VERSION = gitBlobSha(new TextEncoder().encode(HOME_TEXT));
const HOUR = 3_600_000;

async function sendTitle(b: ReviewBackend, title: string): Promise<string> {
  const sent = await post(b, "/api/reviews", {
    message: `Title: ${title}`,
    pages: [{
      path: HOME,
      content: JSON.stringify({ ...JSON.parse(HOME_TEXT), title }),
      version: HOME_VERSION,
    }],
  }, b.cookies.bob);
  assert.equal(sent.status, 201, JSON.stringify(sent.body));
  return (sent.body as { id: string }).id;
}

for (const [where, open] of BACKENDS) {
  Deno.test(`on ${where}: a scheduled review is published when its time comes, not before`, async () => {
    await using b = await open();
    const id = await sendTitle(b, "Scheduled");
    const at = new Date(b.clock.now() + HOUR);
    const refused = await post(b, "/api/reviews/schedule", {
      id,
      at: at.toISOString(),
    }, b.cookies.bob);
    assert.deepEqual([refused.status, refused.body], [403, {
      error: "forbidden",
    }]);
    // An offset is read as such: 13:00+01:00 is 12:00Z.
    const local = new Date(at.getTime() + HOUR).toISOString().replace(
      "Z",
      "+01:00",
    );
    const scheduled = await post(b, "/api/reviews/schedule", {
      id,
      at: local,
    }, b.cookies.alice);
    assert.deepEqual([scheduled.status, scheduled.body], [200, {
      id,
      scheduled: at.toISOString(),
    }]);
    const listed = await call(b, "", b.cookies.bob);
    assert.equal(
      (listed.body as { reviews: { scheduled: string }[] }).reviews[0]!
        .scheduled,
      at.toISOString(),
    );
    const before = await b.site();
    b.clock.advance(HOUR - 1_000);
    assert.deepEqual(await runSchedule(b.env), { published: [], failed: [] });
    assert.deepEqual(await b.site(), before, "not yet");
    b.clock.advance(1_000);
    const run = await runSchedule(b.env);
    assert.equal(run.published.length, 1);
    assert.equal(run.published[0]!.id, id);
    const after = await b.site();
    assert.equal(after.count, before.count + 1);
    assert.equal(after.head, run.published[0]!.commit);
    assert.equal(JSON.parse((await b.siteFile(HOME))!).title, "Scheduled");
    assert.equal(await b.branch(`inpage/review/${id}`), undefined);
    if (b.github) {
      const [pull] = b.github.pulls.values();
      assert.equal(pull!.state, "closed");
      assert.match(pull!.comments[0]!, /by `Alice Martin` as scheduled/);
    }
    assert.deepEqual(await runSchedule(b.env), { published: [], failed: [] });
    await b.workTreeUntouched();
  });

  Deno.test(`on ${where}: a schedule that meets a conflict leaves the review open, marked not published with the reason`, async () => {
    await using b = await open();
    const id = await sendTitle(b, "Mine");
    const cancelled = await sendTitle(b, "Cancelled");
    for (const review of [id, cancelled]) {
      const scheduled = await post(b, "/api/reviews/schedule", {
        id: review,
        at: new Date(b.clock.now() + 60_000).toISOString(),
      }, b.cookies.plain);
      assert.equal(scheduled.status, 200);
    }
    const none = await post(b, "/api/reviews/schedule", {
      id: cancelled,
      at: null,
    }, b.cookies.plain);
    assert.deepEqual(none.body, { id: cancelled, scheduled: null });
    await b.publishElsewhere(
      HOME,
      JSON.stringify({ ...JSON.parse(HOME_TEXT), title: "Theirs" }),
    );
    const before = await b.site();
    b.clock.advance(60_000);
    const run = await runSchedule(b.env);
    assert.deepEqual(run, {
      published: [],
      failed: [{ id, reason: "conflict" }],
    });
    assert.deepEqual(await b.site(), before);
    assert.ok(await b.branch(`inpage/review/${id}`));
    const one = await call(b, `id=${id}`, b.cookies.bob);
    const review = one.body as { scheduled: string; failed: unknown };
    assert.equal(review.scheduled, new Date(b.clock.now()).toISOString());
    assert.deepEqual(review.failed, {
      at: new Date(b.clock.now()).toISOString(),
      reason: "conflict",
      fields: [{ path: HOME, pointer: "/title" }],
    });
    // A conflict is not tried again by itself; a new time clears the mark.
    b.clock.advance(60_000);
    assert.deepEqual(await runSchedule(b.env), { published: [], failed: [] });
    const again = await post(b, "/api/reviews/schedule", {
      id,
      at: new Date(b.clock.now()).toISOString(),
    }, b.cookies.alice);
    assert.equal(again.status, 200);
    const cleared = await call(b, `id=${id}`, b.cookies.bob);
    assert.equal((cleared.body as { failed: unknown }).failed, null);
  });

  Deno.test(`on ${where}: a preview token opens the review without a session; altered, expired or foreign tokens are 401, a closed review's is 404`, async () => {
    await using b = await open();
    const id = await sendTitle(b, "Previewed");
    const link = await post(b, "/api/reviews/link", {
      id,
      hours: 2,
    }, b.cookies.bob);
    assert.equal(link.status, 200, JSON.stringify(link.body));
    const { url, expires } = link.body as { url: string; expires: string };
    assert.match(url, /^\/en\/\?inpage-preview=[0-9a-f]{32}\.\d+\.[\w-]{43}$/);
    assert.equal(
      expires,
      new Date(Math.floor((b.clock.now() + 2 * HOUR) / 1000) * 1000)
        .toISOString(),
    );
    const token = new URL(url, "https://site.example").searchParams.get(
      "inpage-preview",
    )!;
    const seen = await call(b, `token=${token}`, "");
    assert.equal(seen.status, 200);
    assert.equal(seen.headers.get("x-robots-tag"), "noindex");
    assert.equal(seen.headers.get("referrer-policy"), "no-referrer");
    const review = seen.body as {
      id: string;
      author: { name: string };
      pages: { content: string }[];
    };
    assert.equal(review.id, id);
    assert.equal(review.author.name, "Bob Stone");
    assert.equal(JSON.parse(review.pages[0]!.content).title, "Previewed");

    const last = token.at(-1) === "A" ? "B" : "A";
    const [, seconds] = token.split(".");
    const refusals = [
      token.slice(0, -1) + last, // the signature altered
      token.replace(`.${seconds}.`, `.${Number(seconds) + 3600}.`), // a later expiry
      await signPreviewToken(
        "another secret of at least thirty-two characters",
        id,
        b.clock.now() + HOUR,
      ),
      "not-a-token",
    ];
    for (const refused of refusals) {
      const answer = await call(b, `token=${encodeURIComponent(refused)}`, "");
      assert.deepEqual([answer.status, answer.body], [401, {
        error: "unauthorized",
      }], refused);
      assert.equal(answer.headers.get("x-robots-tag"), "noindex");
      assert.equal(answer.headers.get("referrer-policy"), "no-referrer");
    }
    b.clock.advance(2 * HOUR);
    const expired = await call(b, `token=${token}`, "");
    assert.equal(expired.status, 401, "expired");
    // A fresh link, then the review closed: not found.
    const fresh = await signPreviewToken(SECRET, id, b.clock.now() + HOUR);
    assert.equal((await call(b, `token=${fresh}`, "")).status, 200);
    const closed = await call(b, `id=${id}`, b.cookies.bob, "DELETE");
    assert.equal(closed.status, 200);
    const gone = await call(b, `token=${fresh}`, "");
    assert.deepEqual([gone.status, gone.body], [404, { error: "not_found" }]);
    assert.equal(gone.headers.get("x-robots-tag"), "noindex");
  });
}

Deno.test("a link names the page to open when asked, and each page's address by default; no secret, no link (503)", async () => {
  const [, open] = BACKENDS[0]!;
  await using b = await open();
  const sent = await post(b, "/api/reviews", {
    message: "About",
    pages: [{ path: ABOUT, content: '{"title":"About"}', version: "" }],
  }, b.cookies.bob);
  const { id } = sent.body as { id: string };
  const byDefault = await post(
    b,
    "/api/reviews/link",
    { id, hours: 1 },
    b.cookies.bob,
  );
  assert.match(
    (byDefault.body as { url: string }).url,
    /^\/en\/about\/\?inpage-preview=/,
  );
  const chosen = await post(b, "/api/reviews/link", {
    id,
    hours: 168,
    page: "/en/about-us/",
  }, b.cookies.bob);
  assert.match(
    (chosen.body as { url: string }).url,
    /^\/en\/about-us\/\?inpage-preview=/,
  );
  const unknown = await post(b, "/api/reviews/link", {
    id: "f".repeat(32),
    hours: 1,
  }, b.cookies.bob);
  assert.equal(unknown.status, 404);
  b.env.EDITOR_PREVIEW_SECRET = "too short";
  const none = await post(
    b,
    "/api/reviews/link",
    { id, hours: 1 },
    b.cookies.bob,
  );
  assert.deepEqual([none.status, none.body], [503, { error: "unavailable" }]);
  const unreadable = await call(b, `token=${id}.1.${"a".repeat(43)}`, "");
  assert.equal(unreadable.status, 401);
});
