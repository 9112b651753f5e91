/**
 * A site that refuses template syntax (`templateSyntax: "refuse"`) refuses
 * it in a review's pages exactly as `/api/save` does: at send (a 422 per
 * page, nothing sent) and at publish, by hand or by a schedule (a 422 per
 * page, nothing published, the review left open), whichever side of the
 * merge the syntax came from. On a local checkout and on the GitHub double.
 */
import assert from "node:assert/strict";
import { createRouter, runSchedule } from "../../mod.ts";
import { gitBlobSha } from "../../lib/repository/repository.ts";
import { HOME, HOME_TEXT } from "../support/site.ts";
import {
  ABOUT,
  BACKENDS,
  call,
  post,
  type ReviewBackend,
} from "../support/review_backend.ts";

const refusing = createRouter({
  locales: ["en", "fr"],
  templateSyntax: "refuse",
});
const HOME_VERSION = gitBlobSha(new TextEncoder().encode(HOME_TEXT));
const home = JSON.parse(HOME_TEXT);
const EXPLOIT = '{{ range.constructor("return process.version")() }}';

/** The 422 entry of a page refused for template syntax at one place. */
function templateAt(path: string, at: string) {
  return {
    path,
    at,
    reason: "template",
    problems: [{ at, reason: "template" }],
  };
}

/** Bob sends the home page with a title, through the router given. */
async function sendHome(
  b: ReviewBackend,
  title: string,
  via?: typeof refusing,
) {
  return await post(
    b,
    "/api/reviews",
    {
      message: "A title",
      pages: [{
        path: HOME,
        content: JSON.stringify({ ...home, title }),
        version: HOME_VERSION,
      }],
    },
    b.cookies.bob,
    via,
  );
}

for (const [where, open] of BACKENDS) {
  Deno.test(`on ${where}: a site refusing template syntax refuses a review holding it at send, a 422 per page, and sends nothing`, async () => {
    await using b = await open();
    const before = await b.site();
    const sent = await post(
      b,
      "/api/reviews",
      {
        message: "Two pages",
        pages: [
          {
            path: HOME,
            content: JSON.stringify({ ...home, title: EXPLOIT }),
            version: HOME_VERSION,
          },
          {
            path: ABOUT,
            content: JSON.stringify({ title: "About", note: "{# hidden #}" }),
            version: "",
          },
        ],
      },
      b.cookies.bob,
      refusing,
    );
    assert.deepEqual([sent.status, sent.body], [422, {
      error: "invalid_content",
      pages: [templateAt(HOME, "/title"), templateAt(ABOUT, "/note")],
    }]);
    assert.deepEqual(await b.reviewBranches(), []);
    assert.deepEqual(await b.site(), before);
    const listed = await call(b, "", b.cookies.bob);
    assert.deepEqual(listed.body, { reviews: [] });
    // The same pages without it are sent.
    const clean = await sendHome(b, "Welcome", refusing);
    assert.equal(clean.status, 201, JSON.stringify(clean.body));
  });

  Deno.test(`on ${where}: a site refusing template syntax refuses it at a review's publish, its own or merged in, a 422 per page; nothing published, the review stays open`, async () => {
    await using b = await open();
    // Sent while the site allowed it.
    const sent = await sendHome(b, `Hi ${EXPLOIT}`);
    assert.equal(sent.status, 201, JSON.stringify(sent.body));
    const { id } = sent.body as { id: string };
    const before = await b.site();
    const refused = await post(
      b,
      "/api/reviews/publish",
      { id },
      b.cookies.alice,
      refusing,
    );
    assert.deepEqual([refused.status, refused.body], [422, {
      error: "invalid_content",
      pages: [templateAt(HOME, "/title")],
    }]);
    assert.deepEqual(await b.site(), before, "nothing published");
    // Merged with a publish made meanwhile: refused the same way.
    await b.publishElsewhere(
      HOME,
      JSON.stringify({ ...home, description: "Changed meanwhile" }, null, 2) +
        "\n",
    );
    const meanwhile = await b.site();
    const merged = await post(
      b,
      "/api/reviews/publish",
      { id },
      b.cookies.alice,
      refusing,
    );
    assert.deepEqual([merged.status, merged.body], [422, {
      error: "invalid_content",
      pages: [templateAt(HOME, "/title")],
    }]);
    assert.deepEqual(await b.site(), meanwhile, "nothing published");
    const stillOpen = await call(b, `id=${id}`, b.cookies.bob);
    assert.equal(stillOpen.status, 200, "the review stays open");
    // A schedule of a refusing site leaves it open, marked with the reason.
    const at = new Date(b.clock.now() + 60_000).toISOString();
    const scheduled = await post(
      b,
      "/api/reviews/schedule",
      { id, at },
      b.cookies.alice,
    );
    assert.equal(scheduled.status, 200, JSON.stringify(scheduled.body));
    b.clock.advance(60_000);
    assert.deepEqual(await runSchedule(b.env, { templateSyntax: "refuse" }), {
      published: [],
      failed: [{ id, reason: "invalid_content" }],
    });
    assert.deepEqual(await b.site(), meanwhile, "nothing published");
    // The site that allows it publishes it.
    const allowed = await post(
      b,
      "/api/reviews/publish",
      { id },
      b.cookies.alice,
    );
    assert.equal(allowed.status, 200, JSON.stringify(allowed.body));
  });
}
