/**
 * Bad input on every review route: each answer is the documented status
 * and body (never a 500), in the reference's order of checks (rate,
 * declared size, identity, received size, shape, business), and nothing is
 * written: no branch, no record, no commit.
 */
import assert from "node:assert/strict";
import { gitBlobSha } from "../../lib/repository/repository.ts";
import { runSchedule } from "../../mod.ts";
import { REVIEW_ENVELOPE_MAX, REVIEWS_OPEN_MAX } from "../../lib/limits.ts";
import { answer, ORIGIN, postJson } from "../support/helpers.ts";
import { HOME, HOME_TEXT } from "../support/site.ts";
import {
  BACKENDS,
  nextClient,
  post,
  type ReviewBackend,
  router,
} from "../support/review_backend.ts";

const HOME_VERSION = gitBlobSha(new TextEncoder().encode(HOME_TEXT));
const ID = "0123456789abcdef0123456789abcdef";
const [, openLocal] = BACKENDS[0]!;
const [, openGitHub] = BACKENDS[1]!;

type Case = [
  name: string,
  request: (cookie: string) => Request,
  status: number,
  body: unknown,
];

const page = (extra: Record<string, unknown> = {}) => ({
  path: HOME,
  content: JSON.stringify({ title: "x" }),
  version: HOME_VERSION,
  ...extra,
});

function raw(
  path: string,
  body: string,
  cookie: string,
  headers: Record<string, string> = {},
): Request {
  return postJson(path, body, { cookie, ...headers });
}

const BAD = { error: "bad_request" };

function createCases(): Case[] {
  const review = (body: unknown) => (cookie: string) =>
    postJson("/api/reviews", body, { cookie });
  return [
    ["no session", (_) => review({ message: "m", pages: [page()] })(""), 401, {
      error: "unauthorized",
    }],
    [
      "a declared body over the cap, before the session is looked at",
      () =>
        new Request(`${ORIGIN}/api/reviews`, {
          method: "POST",
          headers: {
            "content-type": "application/json",
            "content-length": String(REVIEW_ENVELOPE_MAX + 1),
          },
          body: "{}",
        }),
      413,
      { error: "too_large" },
    ],
    [
      "a body over the cap that declared nothing",
      (cookie) =>
        new Request(`${ORIGIN}/api/reviews`, {
          method: "POST",
          headers: { "content-type": "application/json", cookie },
          body: new Blob([" ".repeat(REVIEW_ENVELOPE_MAX + 10)]).stream(),
        }),
      413,
      { error: "too_large" },
    ],
    ["not JSON", (c) => raw("/api/reviews", "{nope", c), 400, BAD],
    [
      "not application/json",
      (c) =>
        raw(
          "/api/reviews",
          JSON.stringify({ message: "m", pages: [page()] }),
          c,
          {
            "content-type": "text/plain",
          },
        ),
      400,
      BAD,
    ],
    ["an array", review([page()]), 400, BAD],
    ["no message", review({ pages: [page()] }), 400, BAD],
    [
      "a message that is not text",
      review({ message: 1, pages: [page()] }),
      400,
      BAD,
    ],
    ["no pages", review({ message: "m", pages: [] }), 400, BAD],
    ["pages not a list", review({ message: "m", pages: page() }), 400, BAD],
    [
      "21 pages",
      review({
        message: "m",
        pages: Array.from(
          { length: 21 },
          (_, n) =>
            page({ path: `src/content/pages/en/p${n}.json`, version: "" }),
        ),
      }),
      400,
      BAD,
    ],
    [
      "a path outside the whitelist",
      review({ message: "m", pages: [page({ path: ".env" })] }),
      400,
      BAD,
    ],
    [
      "a path that climbs out",
      review({
        message: "m",
        pages: [page({ path: "src/content/pages/en/../../../x.json" })],
      }),
      400,
      BAD,
    ],
    [
      "a percent-encoded climb",
      review({
        message: "m",
        pages: [page({ path: "src/content/pages/en/%2e%2e/x.json" })],
      }),
      400,
      BAD,
    ],
    [
      "an undeclared locale",
      review({
        message: "m",
        pages: [page({ path: "src/content/pages/de/home.json" })],
      }),
      400,
      BAD,
    ],
    [
      "a path twice",
      review({ message: "m", pages: [page(), page()] }),
      400,
      BAD,
    ],
    [
      "a version over 200 characters",
      review({ message: "m", pages: [page({ version: "a".repeat(201) })] }),
      400,
      BAD,
    ],
    [
      "a page over 100,000 bytes",
      review({
        message: "m",
        pages: [page({ content: JSON.stringify({ t: "é".repeat(50_001) }) })],
      }),
      413,
      { error: "too_large" },
    ],
    [
      "pages that break the page rules, each listed",
      review({
        message: "m",
        pages: [
          page({
            path: "src/content/pages/en/ok.json",
            version: "",
            content: "{}",
          }),
          page({ content: '{"title":"<script>x</script>"}' }),
          page({
            path: "src/content/pages/fr/home.json",
            version: "",
            content: "[1]",
          }),
        ],
      }),
      422,
      {
        error: "invalid_content",
        pages: [
          {
            path: HOME,
            at: "/title",
            reason: "markup",
            problems: [{ at: "/title", reason: "markup" }],
          },
          {
            path: "src/content/pages/fr/home.json",
            at: "",
            reason: "shape",
            problems: [{ at: "", reason: "shape" }],
          },
        ],
      },
    ],
    [
      "a cross-site request",
      (cookie) =>
        postJson("/api/reviews", { message: "m", pages: [page()] }, {
          cookie,
          "sec-fetch-site": "cross-site",
        }),
      401,
      { error: "unauthorized" },
    ],
  ];
}

function otherCases(): Case[] {
  const get = (query: string) => (cookie: string) =>
    new Request(`${ORIGIN}/api/reviews?${query}`, { headers: { cookie } });
  const del = (query: string) => (cookie: string) =>
    new Request(`${ORIGIN}/api/reviews?${query}`, {
      method: "DELETE",
      headers: { cookie },
    });
  const to = (path: string, body: unknown) => (cookie: string) =>
    postJson(path, body, { cookie });
  const schedule = (at: unknown) => to("/api/reviews/schedule", { id: ID, at });
  const link = (extra: Record<string, unknown>) =>
    to("/api/reviews/link", { id: ID, hours: 1, ...extra });
  const NOT_FOUND = { error: "not_found" };
  return [
    ["a list without a session", (_) => get("")(""), 401, {
      error: "unauthorized",
    }],
    ["a malformed id", get("id=../../main"), 400, BAD],
    ["an upper-case id", get(`id=${ID.toUpperCase()}`), 400, BAD],
    ["an id twice", get(`id=${ID}&id=${ID}`), 400, BAD],
    ["an unknown id", get(`id=${ID}`), 404, NOT_FOUND],
    ["a token that is not one", get("token=x"), 401, { error: "unauthorized" }],
    [
      "a very long token",
      get(`token=${"a".repeat(5_000)}`),
      401,
      { error: "unauthorized" },
    ],
    ["a close without an id", del(""), 400, BAD],
    ["a close of a malformed id", del("id=main"), 400, BAD],
    ["a close of an unknown id", del(`id=${ID}`), 404, NOT_FOUND],
    ["a close without a session", (_) => del(`id=${ID}`)(""), 401, {
      error: "unauthorized",
    }],
    [
      "a publish without a session",
      (_) => to("/api/reviews/publish", { id: ID })(""),
      401,
      {
        error: "unauthorized",
      },
    ],
    ["a publish of nothing", to("/api/reviews/publish", {}), 400, BAD],
    [
      "a publish of a malformed id",
      to("/api/reviews/publish", { id: "x" }),
      400,
      BAD,
    ],
    [
      "a publish of an unknown id",
      to("/api/reviews/publish", { id: ID }),
      404,
      NOT_FOUND,
    ],
    [
      "a publish body that is not JSON",
      (c) => raw("/api/reviews/publish", "id=1", c),
      400,
      BAD,
    ],
    [
      "a publish body over its cap",
      (c) =>
        raw(
          "/api/reviews/publish",
          JSON.stringify({ id: ID, x: "a".repeat(3_000) }),
          c,
        ),
      413,
      { error: "too_large" },
    ],
    ["a time in words", schedule("tomorrow"), 400, BAD],
    ["a time without its offset", schedule("2026-11-25T12:00:00"), 400, BAD],
    ["a month 13", schedule("2026-13-01T00:00:00Z"), 400, BAD],
    ["February 30", schedule("2026-02-30T00:00:00Z"), 400, BAD],
    ["a time two years ahead", schedule("2099-01-01T00:00:00Z"), 400, BAD],
    ["a time as a number", schedule(1_790_000_000_000), 400, BAD],
    ["no time at all", to("/api/reviews/schedule", { id: ID }), 400, BAD],
    [
      "a schedule of an unknown id",
      schedule(new Date().toISOString()),
      404,
      NOT_FOUND,
    ],
    ["0 hours", link({ hours: 0 }), 400, BAD],
    ["169 hours", link({ hours: 169 }), 400, BAD],
    ["1.5 hours", link({ hours: 1.5 }), 400, BAD],
    ["hours as text", link({ hours: "24" }), 400, BAD],
    ["a page on another host", link({ page: "//evil.example/" }), 400, BAD],
    ["a page that is a URL", link({ page: "https://evil.example/" }), 400, BAD],
    ["a page with a query", link({ page: "/en/?x=1" }), 400, BAD],
    ["a page with a space", link({ page: "/en/a b/" }), 400, BAD],
    ["a page with a backslash", link({ page: "/\\evil.example" }), 400, BAD],
    ["a link of an unknown id", link({}), 404, NOT_FOUND],
  ];
}

async function assertCases(
  b: ReviewBackend,
  cases: Case[],
  cookie: string,
): Promise<void> {
  const before = await b.site();
  for (const [name, request, status, body] of cases) {
    const got = await answer(
      await router.handle(request(cookie), b.env, nextClient()),
    );
    assert.deepEqual([got.status, got.body], [status, body], name);
  }
  assert.deepEqual(await b.site(), before, "nothing committed");
  assert.deepEqual(await b.reviewBranches(), [], "no branch made");
  const list = await post(b, "/api/reviews/link", { id: ID, hours: 1 }, cookie);
  assert.equal(list.status, 404, "no review was kept");
}

Deno.test("POST /api/reviews: every bad request gets its documented answer, and nothing is kept", async () => {
  await using b = await openLocal();
  await assertCases(b, createCases(), b.cookies.bob);
  const listed = await answer(
    await router.handle(
      new Request(`${ORIGIN}/api/reviews`, {
        headers: { cookie: b.cookies.bob },
      }),
      b.env,
      nextClient(),
    ),
  );
  assert.deepEqual(listed.body, { reviews: [] });
});

Deno.test("GET and DELETE /api/reviews, /publish, /schedule and /link: every bad request gets its documented answer", async () => {
  await using b = await openLocal();
  await assertCases(b, otherCases(), b.cookies.alice);
  // An author is refused a publish and a schedule before the body is read.
  for (const path of ["/api/reviews/publish", "/api/reviews/schedule"]) {
    const got = await answer(
      await router.handle(
        raw(path, "{nope", b.cookies.bob),
        b.env,
        nextClient(),
      ),
    );
    assert.deepEqual([got.status, got.body], [403, { error: "forbidden" }]);
  }
  // Methods the routes do not serve.
  for (
    const [path, method, allow] of [
      ["/api/reviews", "PUT", "GET, POST, DELETE"],
      ["/api/reviews/publish", "GET", "POST"],
      ["/api/reviews/schedule", "DELETE", "POST"],
      ["/api/reviews/link", "GET", "POST"],
    ] as const
  ) {
    const got = await answer(
      await router.handle(
        new Request(`${ORIGIN}${path}`, { method }),
        b.env,
        nextClient(),
      ),
    );
    assert.deepEqual([got.status, got.body], [405, {
      error: "method_not_allowed",
    }]);
    assert.equal(got.headers.get("allow"), allow);
  }
});

Deno.test("without a KV every review route answers 503, and runSchedule fails closed", async () => {
  await using b = await openLocal();
  const env = { ...b.env, RATE_LIMIT: undefined };
  for (
    const [path, method] of [
      ["/api/reviews", "GET"],
      ["/api/reviews", "POST"],
      ["/api/reviews/publish", "POST"],
      ["/api/reviews/schedule", "POST"],
      ["/api/reviews/link", "POST"],
    ] as const
  ) {
    const got = await answer(
      await router.handle(
        new Request(`${ORIGIN}${path}`, {
          method,
          headers: { cookie: b.cookies.alice },
        }),
        env,
        nextClient(),
      ),
    );
    assert.deepEqual([got.status, got.body], [503, { error: "unavailable" }]);
  }
  await assert.rejects(
    runSchedule(env),
    (error) => (error as { code?: string }).code === "kv_unavailable",
  );
});

Deno.test("each review route has its own budget: past it, 429 with retry-after, and the other routes still answer", async () => {
  await using b = await openLocal();
  const client = { remoteAddr: { hostname: "203.0.113.9" } };
  const link = () =>
    router.handle(
      postJson("/api/reviews/link", { id: ID, hours: 1 }, {
        cookie: b.cookies.alice,
      }),
      b.env,
      client,
    );
  for (let n = 0; n < 30; n++) {
    const got = await link();
    assert.equal(got.status, 404);
    await got.body?.cancel();
  }
  const over = await answer(await link());
  assert.equal(over.status, 429);
  assert.match(
    String((over.body as { error: string }).error),
    /^Trop de requêtes/,
  );
  assert.ok(Number(over.headers.get("retry-after")) > 0);
  const list = await router.handle(
    new Request(`${ORIGIN}/api/reviews`, {
      headers: { cookie: b.cookies.alice },
    }),
    b.env,
    client,
  );
  assert.equal(list.status, 200);
  await list.body?.cancel();
});

Deno.test("on GitHub, a pull request GitHub refuses takes the review back: 502, no branch, no record", async () => {
  await using b = await openGitHub();
  b.github!.setFault({
    kind: "status",
    status: 403,
    method: "POST",
    path: /\/pulls$/,
    body: JSON.stringify({
      message: "Resource not accessible by personal access token",
      documentation_url:
        "https://docs.github.com/rest/pulls/pulls#create-a-pull-request",
      status: "403",
    }),
  });
  const sent = await post(b, "/api/reviews", {
    message: "Refused pull request",
    pages: [page()],
  }, b.cookies.bob);
  assert.deepEqual([sent.status, sent.body], [502, { error: "unauthorized" }]);
  assert.equal(b.github!.refs.size, 0, "the branch was deleted");
  assert.equal(b.github!.pulls.size, 0);
  const listed = await answer(
    await router.handle(
      new Request(`${ORIGIN}/api/reviews`, {
        headers: { cookie: b.cookies.bob },
      }),
      b.env,
      nextClient(),
    ),
  );
  assert.deepEqual(listed.body, { reviews: [] });
  assert.ok(
    !b.env.logs.join("\n").includes(b.github!.token),
    "no token in the log",
  );
});

Deno.test("a site with as many open reviews as it keeps refuses another with 409 too_many_reviews, and makes no branch", async () => {
  await using b = await openLocal();
  const ids = Array.from(
    { length: REVIEWS_OPEN_MAX },
    (_, n) => n.toString(16).padStart(32, "0"),
  );
  await (b.env.RATE_LIMIT as Deno.Kv).set(["editor", "reviews"], { ids });
  const sent = await post(b, "/api/reviews", {
    message: "One too many",
    pages: [page()],
  }, b.cookies.bob);
  assert.deepEqual([sent.status, sent.body], [409, {
    error: "too_many_reviews",
  }]);
  assert.deepEqual(await b.reviewBranches(), []);
  assert.equal((await b.site()).count, 1);
});
