/**
 * GitHub's content-creation limit: writes paced under 80 a minute, and a
 * secondary rate limit answered 502 `unavailable` with `retry-after` (the
 * time GitHub gives, or a minute for its documented message alone).
 */
import assert from "node:assert/strict";
import {
  WritePacer,
  WRITES_PER_MINUTE,
} from "../../lib/repository/github_pacing.ts";
import { RepositoryError } from "../../lib/repository/repository.ts";
import { createRouter } from "../../mod.ts";
import { githubSignedIn } from "../support/github_double.ts";
import { answer, from, postJson } from "../support/helpers.ts";
import { gitHashObject } from "../support/site.ts";

const HOME = "src/content/pages/en/home.json";

Deno.test("writes are paced under 80 a minute: the next one waits for the oldest to leave the minute, or is refused with the wait", async () => {
  assert.ok(WRITES_PER_MINUTE < 80);
  let time = 0;
  const waits: number[] = [];
  const pacer = new WritePacer(WRITES_PER_MINUTE, {
    now: () => time,
    sleep: (ms) => {
      waits.push(ms);
      time += ms;
      return Promise.resolve();
    },
  });
  const signal = new AbortController().signal;
  for (let n = 0; n < WRITES_PER_MINUTE; n++) {
    await pacer.admit(signal, 30_000);
    time += 100;
  }
  assert.deepEqual(waits, []);
  const refused = await pacer.admit(signal, 30_000).then(
    () => assert.fail("should refuse"),
    (error) => error,
  );
  assert.ok(refused instanceof RepositoryError);
  assert.equal(refused.code, "unavailable");
  assert.equal(refused.retryAfterSeconds, Math.ceil((60_000 - 7_500) / 1000));
  time = 59_950;
  await pacer.admit(signal, 30_000);
  assert.deepEqual(waits, [50]);
  assert.equal(time, 60_000);
});

Deno.test("a secondary rate limit on a write answers 502 unavailable with GitHub's retry-after, or a minute for its documented message alone", async () => {
  const router = createRouter({ locales: ["en"] });
  await using s = await githubSignedIn(router, "pacing key", {
    [HOME]: '{"title":"Home"}\n',
  });
  const version = await gitHashObject('{"title":"Home"}\n');
  const message =
    "You have exceeded a secondary rate limit and have been temporarily blocked from content creation. Please retry your request again later.";
  const cases = [
    [{ "retry-after": "30" }, 403, "30"],
    [{}, 403, "60"],
    [{ "retry-after": "7" }, 429, "7"],
  ] as const;
  let n = 0;
  for (const [headers, status, wait] of cases) {
    s.github.setFault({
      kind: "status",
      status,
      method: "PUT",
      headers,
      body: JSON.stringify({
        message,
        documentation_url:
          "https://docs.github.com/rest/overview/rate-limits-for-the-rest-api#about-secondary-rate-limits",
      }),
    });
    const saved = await answer(
      await router.handle(
        postJson("/api/save", {
          path: HOME,
          content: '{"title":"Paced"}',
          version,
        }, { cookie: s.cookie }),
        s.env,
        from(`10.7.0.${n++}`),
      ),
    );
    assert.equal(saved.status, 502);
    assert.deepEqual(saved.body, { error: "unavailable" });
    assert.equal(saved.headers.get("retry-after"), wait);
  }
  assert.equal(s.github.commits.length, 1, "nothing written");
});
