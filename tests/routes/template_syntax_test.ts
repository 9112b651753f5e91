/**
 * The template-syntax rule, for sites that render page strings as
 * templates (Eleventy's `renderContent`, Hugo's `RenderString`): with
 * `templateSyntax: "refuse"`, `{{`, `{%` and `{#` in any string or key are
 * answered 422 with the field's place; without it, they are published.
 * Through `router.handle()`, `editor check` and `editor serve`.
 */
import assert from "node:assert/strict";
import { join } from "node:path";
import { createRouter, createSaveRoute } from "../../mod.ts";
import { answer, LOCALES, logInOver, postJson } from "../support/helpers.ts";
import {
  gitHashObject,
  HOME,
  HOME_TEXT,
  signedInSite,
  tempSite,
} from "../support/site.ts";
import { fastHash } from "../support/helpers.ts";
import { runCli, serveCheckout } from "../support/cli.ts";

const KEY = "template key";
/** What ran in an Eleventy build when a string held it. */
const EXPLOIT = '{{ range.constructor("return process.version")() }}';

const refusing = createRouter({
  locales: [...LOCALES],
  templateSyntax: "refuse",
});
const allowing = createRouter({ locales: [...LOCALES] });

async function publish(router: typeof refusing, page: unknown) {
  const site = await signedInSite(router, KEY);
  try {
    const response = await router.handle(
      postJson("/api/save", {
        path: HOME,
        content: JSON.stringify(page),
        version: await gitHashObject(HOME_TEXT),
      }, { cookie: site.cookie }),
      site.env,
      site.nextClient(),
    );
    return { ...await answer(response), written: await site.site.read(HOME) };
  } finally {
    await site[Symbol.asyncDispose]();
  }
}

Deno.test("template syntax refused: {{, {% and {# in a string are 422 invalid_content, reason template, at the field; nothing written", async () => {
  const cases: [unknown, string][] = [
    [{ title: "Hi", body: EXPLOIT }, "/body"],
    [
      { sections: [{ id: "a", body: "{% include 'secret' %}" }] },
      "/sections/0/body",
    ],
    [{ note: "{# a comment #}" }, "/note"],
    [{ list: ["fine", "{{ x }}"] }, "/list/1"],
    // Hugo's shortcodes and Go templates open with {{ as well.
    [{ body: "{{% notice tip %}}Read this{{% /notice %}}" }, "/body"],
    // Sanitising first: a control character between the braces goes.
    [{ body: "{\u0001{ x }}" }, "/body"],
  ];
  for (const [page, at] of cases) {
    const { status, body, written } = await publish(refusing, page);
    assert.equal(status, 422, JSON.stringify(page));
    assert.deepEqual(body, {
      error: "invalid_content",
      at,
      reason: "template",
      problems: [{ at, reason: "template" }],
    });
    assert.equal(written, HOME_TEXT, "nothing written");
  }
});

Deno.test("template syntax refused in keys too, every problem listed in document order", async () => {
  const { status, body } = await publish(refusing, {
    "{{ key }}": "value",
    fine: "a { brace } and {single}",
    deep: { "{%x%}": { y: "{#z#}" } },
  });
  assert.equal(status, 422);
  assert.deepEqual(body, {
    error: "invalid_content",
    at: "/{{ key }}",
    reason: "template",
    problems: [
      { at: "/{{ key }}", reason: "template" },
      { at: "/deep/{%x%}", reason: "template" },
      { at: "/deep/{%x%}/y", reason: "template" },
    ],
  });
});

Deno.test("template syntax allowed by default: the same strings are published", async () => {
  const page = { title: "Hi", body: EXPLOIT, "{{ key }}": "{# c #} {% t %}" };
  const { status, written } = await publish(allowing, page);
  assert.equal(status, 200);
  assert.deepEqual(JSON.parse(written!), page);
  const explicit = createRouter({ locales: ["en"], templateSyntax: "allow" });
  assert.equal((await publish(explicit, page)).status, 200);
});

Deno.test("templateSyntax is checked when the factory runs: allow or refuse, nothing else", () => {
  for (const bad of ["yes", true, "REFUSE", null]) {
    assert.throws(
      () => createRouter({ locales: ["en"], templateSyntax: bad as "refuse" }),
      TypeError,
    );
    assert.throws(
      () =>
        createSaveRoute({ locales: ["en"], templateSyntax: bad as "refuse" }),
      TypeError,
    );
  }
  assert.throws(
    () => createRouter({ locales: ["en"], render: "njk" } as never),
    /holds only locales and templateSyntax, not render/,
  );
});

Deno.test("editor check --template-syntax refuse names each field; without it the page passes", async () => {
  await using site = await tempSite({
    [HOME]: JSON.stringify({ title: "Hi", body: EXPLOIT }),
  });
  const off = await runCli(["check", "--repo", site.root]);
  assert.equal(off.code, 0, off.stdout + off.stderr);
  const on = await runCli([
    "check",
    "--repo",
    site.root,
    "--template-syntax",
    "refuse",
  ]);
  assert.equal(on.code, 1);
  assert.match(
    on.stdout,
    /^src\/content\/pages\/en\/home\.json: \/body: template \(string ".*" holds template syntax \(\{\{\): the site renders strings as templates, where it would run\)$/m,
  );
  const bad = await runCli([
    "check",
    "--repo",
    site.root,
    "--template-syntax",
    "no",
  ]);
  assert.equal(bad.code, 1);
  assert.match(bad.stderr, /--template-syntax is "allow" or "refuse"/);
});

Deno.test("editor serve --template-syntax refuse answers 422 on a real publish", async () => {
  await using site = await tempSite();
  await using server = await serveCheckout(site.root, {
    args: ["--template-syntax", "refuse"],
    env: { EDITOR_KEY_HASH: await fastHash(KEY) },
  });
  const cookie = await logInOver(server.url, KEY);
  const response = await fetch(`${server.url}api/save`, {
    method: "POST",
    headers: { "content-type": "application/json", cookie },
    body: JSON.stringify({
      path: HOME,
      content: JSON.stringify({ body: EXPLOIT }),
      version: await gitHashObject(HOME_TEXT),
    }),
  });
  assert.equal(response.status, 422);
  assert.deepEqual(await response.json(), {
    error: "invalid_content",
    at: "/body",
    reason: "template",
    problems: [{ at: "/body", reason: "template" }],
  });
  assert.equal(await Deno.readTextFile(join(site.root, HOME)), HOME_TEXT);
});
