/**
 * Every log line is one line for every log reader: JSON escapes the C0
 * controls; U+2028, U+2029 and U+0085 (which many readers split lines on,
 * and which a refused link's detail may quote) are escaped too.
 */
import assert from "node:assert/strict";
import { createRouter } from "../../mod.ts";
import { logNotice, logRequest } from "../../lib/http/log.ts";
import { LOCALES, postJson } from "../support/helpers.ts";
import {
  gitHashObject,
  HOME,
  HOME_TEXT,
  signedInSite,
} from "../support/site.ts";

/** What a line reader may take for the end of a line, or a control. */
// deno-lint-ignore no-control-regex
const BREAKING = /[\u0000-\u001f\u007f-\u009f\u2028\u2029]/;
const ODD = "a\u2028b\u2029c\u0085d\u009be\u007ff\nend";

Deno.test("a log line escapes U+2028, U+2029, U+0085, the C1 controls and DEL, and reads back as the same JSON", () => {
  const lines: string[] = [];
  const env = { EDITOR_LOG: (line: string) => lines.push(line) };
  logRequest(env, {
    route: "/api/save",
    method: "POST",
    status: 422,
    ms: 1,
    client: "c",
    detail: ODD,
  });
  logNotice(env, ODD);
  assert.equal(lines.length, 2);
  for (const line of lines) assert.doesNotMatch(line, BREAKING);
  assert.equal(JSON.parse(lines[0]!).detail, ODD);
  assert.equal(JSON.parse(lines[1]!).message, ODD);
  assert.match(lines[0]!, /a\\u2028b\\u2029c\\u0085d\\u009be\\u007ff\\nend/);
});

Deno.test("a refused link whose text holds U+2028 is logged on one line", async () => {
  const router = createRouter({ locales: [...LOCALES] });
  await using s = await signedInSite(router, "log key");
  const content = JSON.stringify({
    title: "Links",
    link: { href: "java\u2028script:alert(1)\u2029\u0085" },
  });
  const response = await router.handle(
    postJson("/api/save", {
      path: HOME,
      content,
      version: await gitHashObject(HOME_TEXT),
    }, { cookie: s.cookie }),
    s.env,
    s.nextClient(),
  );
  assert.equal(response.status, 422);
  await response.body?.cancel();
  const line = s.env.logs.at(-1) ?? "";
  assert.match(JSON.parse(line).detail ?? "", /\u2028/);
  assert.doesNotMatch(line, BREAKING);
});
