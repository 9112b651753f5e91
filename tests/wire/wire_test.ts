import assert from "node:assert/strict";
import {
  contentAnswer,
  errorBody,
  loginBody,
  saveAnswer,
  saveBody,
  uploadAnswer,
} from "../../lib/wire/mod.ts";

const ok = (
  schema: { safeParse(v: unknown): { success: boolean } },
  v: unknown,
) => schema.safeParse(v).success;

Deno.test("loginBody: a key of 1 to 256 characters, counted as code points", () => {
  assert.ok(ok(loginBody, { key: "k" }));
  assert.ok(ok(loginBody, { key: "🙂".repeat(256) }));
  assert.ok(!ok(loginBody, { key: "🙂".repeat(257) }));
  assert.ok(!ok(loginBody, { key: "x".repeat(257) }));
  assert.ok(!ok(loginBody, { key: "" }));
  assert.ok(!ok(loginBody, { key: 1 }));
  assert.ok(!ok(loginBody, ["k"]));
  assert.ok(!ok(loginBody, null));
});

Deno.test("saveBody: string fields, a version of at most 200 characters, an optional string message", () => {
  const body = {
    path: "src/content/pages/en/home.json",
    content: "{}",
    version: "",
  };
  assert.ok(ok(saveBody, body));
  assert.ok(ok(saveBody, { ...body, message: "m", extra: 1 }));
  assert.ok(ok(saveBody, { ...body, version: "v".repeat(200) }));
  assert.ok(!ok(saveBody, { ...body, version: "v".repeat(201) }));
  assert.ok(!ok(saveBody, { ...body, message: null }));
  assert.ok(!ok(saveBody, { ...body, content: {} }));
  assert.ok(!ok(saveBody, { path: body.path, content: "{}" }));
  assert.ok(!ok(saveBody, { ...body, path: "p".repeat(121) }));
});

Deno.test("answers: content, save, upload and error bodies", () => {
  assert.ok(ok(contentAnswer, { content: "{}", version: "abc" }));
  assert.ok(!ok(contentAnswer, { content: 1, version: "abc" }));
  assert.ok(ok(saveAnswer, { version: "abc" }));
  assert.ok(
    ok(uploadAnswer, { src: "a-000000000000.webp", width: 2, height: 1 }),
  );
  assert.ok(!ok(uploadAnswer, { src: "a.webp", width: 1.5, height: 1 }));
  assert.ok(!ok(uploadAnswer, { src: "a.webp", width: 0, height: 1 }));
  assert.deepEqual(
    errorBody.parse({
      error: "invalid_content",
      at: "/a",
      reason: "link",
      x: 1,
    }),
    { error: "invalid_content", at: "/a", reason: "link" },
  );
  assert.ok(!ok(errorBody, { at: "/a" }));
});

Deno.test("errorBody: a 422 keeps its problems, each at and reason", () => {
  const body = {
    error: "invalid_content",
    at: "/a",
    reason: "link",
    problems: [{ at: "/a", reason: "link" }, { at: "/b/0", reason: "markup" }],
  };
  assert.deepEqual(errorBody.parse(body), body);
  assert.ok(!ok(errorBody, { ...body, problems: "none" }));
  assert.ok(!ok(errorBody, { ...body, problems: [{ at: "/a" }] }));
});
