import assert from "node:assert/strict";
import { AccessError } from "../../lib/access/access_error.ts";
import { errorResponse } from "../../lib/http/error_response.ts";

async function answer(error: AccessError) {
  const { response, code } = errorResponse(error);
  return {
    status: response.status,
    body: await response.json(),
    retryAfter: response.headers.get("retry-after"),
    code,
  };
}

Deno.test("each access refusal is answered by the error mapping alone, the French 429s included", async () => {
  assert.deepEqual(
    await answer(
      new AccessError("rate_limited", "auth budget spent", {
        retryAfterSeconds: 61,
        budget: "auth",
      }),
    ),
    {
      status: 429,
      body: { error: "Trop de tentatives. Réessayez dans 2 min." },
      retryAfter: "61",
      code: "rate_limited",
    },
  );
  assert.deepEqual(
    await answer(
      new AccessError("rate_limited", "save budget spent", {
        retryAfterSeconds: 5,
        budget: "save",
      }),
    ),
    {
      status: 429,
      body: { error: "Trop de requêtes. Réessayez dans 1 min." },
      retryAfter: "5",
      code: "rate_limited",
    },
  );
  assert.deepEqual(
    await answer(
      new AccessError("key_checks_busy", "busy", { retryAfterSeconds: 10 }),
    ),
    {
      status: 429,
      body: { error: "Trop de tentatives. Réessayez dans 1 min." },
      retryAfter: "10",
      code: "key_checks_busy",
    },
  );
  assert.deepEqual(await answer(new AccessError("no_session", "none")), {
    status: 401,
    body: { error: "unauthorized" },
    retryAfter: null,
    code: "unauthorized",
  });
  assert.deepEqual(await answer(new AccessError("kv_unavailable", "gone")), {
    status: 503,
    body: { error: "unavailable" },
    retryAfter: null,
    code: "unavailable",
  });
});
