import assert from "node:assert/strict";
import { createRouter } from "../../router.ts";
import { ROUTES } from "../../lib/wire/names.ts";
import { dispatch } from "../../lib/http/route.ts";

Deno.test("the router serves the paths of the routes table, and each 405 allows the table's methods", async () => {
  const router = createRouter({ locales: ["en"] });
  const entries = Object.values(ROUTES);
  assert.deepEqual(
    Object.keys(router.routes),
    entries.map((entry) => entry.path),
  );
  for (const entry of entries) {
    const response = await router.handle(
      new Request(`https://site.example${entry.path}`, { method: "PATCH" }),
      {},
    );
    assert.equal(response.status, 405, entry.path);
    assert.equal(response.headers.get("allow"), entry.methods.join(", "));
    await response.body?.cancel();
  }
});

Deno.test("a route's handlers must be those of its methods in the table", () => {
  const serve = () => Promise.resolve(new Response());
  assert.throws(
    () => dispatch(ROUTES.save, { GET: serve }),
    TypeError,
    "/api/save serves POST",
  );
  assert.doesNotThrow(() =>
    dispatch(ROUTES.auth, { POST: serve, DELETE: serve })
  );
});
