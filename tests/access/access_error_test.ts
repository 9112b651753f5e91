import assert from "node:assert/strict";
import { AccessError } from "../../lib/access/access_error.ts";
import { errorResponse } from "../../lib/http/error_response.ts";

Deno.test("each access refusal is answered by the error mapping alone, the French 429s included", async () => {
  const cases: [AccessError, number, unknown, string | null, string][] = [
    [
      new AccessError("rate_limited", "auth budget spent", {
        retryAfterSeconds: 61,
        budget: "auth",
      }),
      429,
      { error: "Trop de tentatives. Réessayez dans 2 min." },
      "61",
      "rate_limited",
    ],
    [
      new AccessError("rate_limited", "save budget spent", {
        retryAfterSeconds: 5,
        budget: "save",
      }),
      429,
      { error: "Trop de requêtes. Réessayez dans 1 min." },
      "5",
      "rate_limited",
    ],
    [
      new AccessError("key_checks_busy", "busy", { retryAfterSeconds: 10 }),
      429,
      { error: "Trop de tentatives. Réessayez dans 1 min." },
      "10",
      "key_checks_busy",
    ],
    [
      new AccessError("no_session", "none"),
      401,
      { error: "unauthorized" },
      null,
      "unauthorized",
    ],
    [
      new AccessError("kv_unavailable", "gone"),
      503,
      { error: "unavailable" },
      null,
      "unavailable",
    ],
  ];
  for (const [error, status, body, retryAfter, code] of cases) {
    const mapped = errorResponse(error);
    assert.equal(mapped.response.status, status, error.message);
    assert.deepEqual(await mapped.response.json(), body);
    assert.equal(mapped.response.headers.get("retry-after"), retryAfter);
    assert.equal(mapped.code, code);
  }
});
