/**
 * A request body that stops arriving is cut off after the idle time, with
 * 408 `{ "error": "request_timeout" }`, on every route that reads a body,
 * while other clients are answered as usual meanwhile. Served for real by
 * `Deno.serve`, the client a raw TCP connection that sends part of its body.
 */
import assert from "node:assert/strict";
import { createRouter } from "../../router.ts";
import { BODY_IDLE_MS } from "../../lib/limits.ts";
import { rawExchange } from "../support/raw_http.ts";
import { HOME, signedInSite } from "../support/site.ts";

const IDLE_MS = 800;

Deno.test("a body that stops arriving answers 408 request_timeout on auth, save and upload, and other clients are served meanwhile", async () => {
  const router = createRouter({ locales: ["en", "fr"] });
  await using signed = await signedInSite(router, "the key", {
    EDITOR_BODY_IDLE_MS: IDLE_MS,
  });
  const server = Deno.serve(
    { hostname: "127.0.0.1", port: 0, onListen() {} },
    (request, info) => router.handle(request, signed.env, info),
  );
  const { port } = server.addr;
  const host = `127.0.0.1:${port}`;
  try {
    const stalled = {
      "/api/auth":
        `POST /api/auth HTTP/1.1\r\nhost: ${host}\r\ncontent-type: application/json\r\ncontent-length: 200\r\n\r\n{"key":"the`,
      "/api/save":
        `POST /api/save HTTP/1.1\r\nhost: ${host}\r\ncookie: ${signed.cookie}\r\ncontent-type: application/json\r\ncontent-length: 5000\r\n\r\n{"path":"${HOME}",`,
      "/api/upload":
        `POST /api/upload HTTP/1.1\r\nhost: ${host}\r\ncookie: ${signed.cookie}\r\ncontent-type: multipart/form-data; boundary=xyz\r\ncontent-length: 90000\r\n\r\n--xyz\r\ncontent-disposition: form-data; name="file"; filename="a.png"\r\n\r\n\x89PNG`,
      "/api/save (no byte of its body)":
        `POST /api/save HTTP/1.1\r\nhost: ${host}\r\ncookie: ${signed.cookie}\r\ncontent-type: application/json\r\ncontent-length: 5000\r\n\r\n`,
    };
    for (const [route, head] of Object.entries(stalled)) {
      const started = performance.now();
      let done = false;
      const answer = rawExchange(port, head).finally(() => done = true);
      // Another client, meanwhile: its normal answer, before the stalled one.
      await new Promise((resolve) => setTimeout(resolve, 50));
      const other = await fetch(
        `http://${host}/api/content?path=${HOME}`,
        { headers: { cookie: signed.cookie } },
      );
      assert.equal(other.status, 200, route);
      assert.equal(typeof (await other.json()).version, "string");
      assert.equal(done, false, `${route}: answered before the idle time`);
      const { status, headers, body, raw } = await answer;
      const took = performance.now() - started;
      assert.equal(status, 408, `${route}: ${raw}`);
      assert.deepEqual(JSON.parse(body), { error: "request_timeout" });
      assert.equal(
        headers.get("content-type"),
        "application/json; charset=utf-8",
      );
      assert.equal(headers.get("cache-control"), "no-store");
      assert.equal(headers.get("x-content-type-options"), "nosniff");
      assert.ok(took >= IDLE_MS, `${route}: cut off after ${took} ms`);
    }
    const logged = signed.env.logs.filter((line) =>
      JSON.parse(line).status === 408
    );
    assert.equal(logged.length, 4);
  } finally {
    await server.shutdown();
  }
});

Deno.test("the idle time of request bodies is a cap of limits.ts, a few seconds", () => {
  assert.ok(BODY_IDLE_MS >= 5_000 && BODY_IDLE_MS <= 60_000);
});
