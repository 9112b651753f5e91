/**
 * Page keys are HTML attribute names once a template spreads an object into
 * an element, and attribute names ignore case: through the router, every
 * URL-bearing name passes the link rule (the media rule for `src`), whatever
 * its case, and event handlers, `style`, `srcdoc` and keys that are not one
 * attribute name are refused.
 */
import assert from "node:assert/strict";
import { createRouter } from "../../mod.ts";
import { URL_ATTRIBUTES } from "../../lib/pages/attribute_rule.ts";
import { publishSite } from "../support/publish_site.ts";
import { HOME_TEXT } from "../support/site.ts";

const router = createRouter({ locales: ["en", "fr"] });
const KEY = "keys key";

/** Every case mix of a name a template could be given: lower, upper, mixed. */
function cases(name: string): string[] {
  const mixed = [...name].map((c, i) => i % 2 ? c.toUpperCase() : c).join("");
  return [...new Set([name, name.toUpperCase(), mixed])];
}

/** The event handler content attributes of the HTML standard, and more. */
const HANDLERS = [
  "onabort",
  "onafterprint",
  "onauxclick",
  "onbeforeinput",
  "onbeforematch",
  "onbeforeprint",
  "onbeforetoggle",
  "onbeforeunload",
  "onblur",
  "oncancel",
  "oncanplay",
  "onchange",
  "onclick",
  "onclose",
  "oncontextmenu",
  "oncopy",
  "oncut",
  "ondblclick",
  "ondrag",
  "ondrop",
  "onerror",
  "onfocus",
  "onhashchange",
  "oninput",
  "oninvalid",
  "onkeydown",
  "onload",
  "onmessage",
  "onmousedown",
  "onmouseover",
  "onpageshow",
  "onpaste",
  "onpointerdown",
  "onpointerrawupdate",
  "onpopstate",
  "onresize",
  "onscroll",
  "onscrollend",
  "onsecuritypolicyviolation",
  "onselect",
  "onsubmit",
  "ontoggle",
  "onunload",
  "onwheel",
  "onanimationstart",
  "ontransitionend",
  "onwebkitanimationend",
  "onfocusin",
  "onbegin",
];

Deno.test("save refuses every event handler, style and srcdoc as a key, whatever its case, with reason key", async () => {
  await using s = await publishSite(router, KEY);
  let refused = 0;
  for (const name of [...HANDLERS, "style", "srcdoc"]) {
    for (const key of cases(name)) {
      const content = JSON.stringify({ img: { [key]: "alert(1)" } });
      const { status, body } = await s.save(content, "");
      assert.equal(status, 422, key);
      assert.equal(body.at, `/img/${key}`, key);
      assert.equal(body.reason, "key", key);
      refused++;
    }
  }
  // Any name starting with `on`: browsers add handlers, and the rule holds
  // for the ones to come.
  for (const key of ["onfuture", "one", "Online"]) {
    const { status, body } = await s.save(JSON.stringify({ [key]: 1 }), "");
    assert.equal(status, 422, key);
    assert.equal(body.reason, "key", key);
  }
  assert.ok(refused > 140, `${refused} keys`);
  assert.equal(await s.site.read("src/content/pages/en/home.json"), HOME_TEXT);
});

Deno.test("save refuses a key naming an event handler among its attribute names, or holding what carries a value or ends the tag", async () => {
  await using s = await publishSite(router, KEY);
  for (
    const key of [
      "x onclick",
      "x/onclick",
      "x\tonclick",
      "x\nonclick",
      'href="javascript:alert(1)" x',
      "href=javascript:alert(1) x",
      "x=y",
      'x"y',
      "x'y",
      "x`y",
      "x>y",
      "x<y",
      "\ufdd0",
      "x\uffff",
    ]
  ) {
    const { status, body } = await s.save(
      JSON.stringify({ link: { [key]: "alert(1)" } }),
      "",
    );
    assert.equal(status, 422, JSON.stringify(key));
    assert.equal(body.reason, "key", JSON.stringify(key));
    assert.equal(
      body.at,
      `/link/${key.replaceAll("~", "~0").replaceAll("/", "~1")}`,
    );
  }
});

Deno.test("save reads a key of several attribute names as each of them: a URL-bearing one passes the link rule", async () => {
  await using s = await publishSite(router, KEY);
  for (const key of ["title href", "a/href", "x\tFormAction"]) {
    const { status, body } = await s.save(
      JSON.stringify({ link: { [key]: "javascript:alert(1)" } }),
      "",
    );
    assert.equal(status, 422, key);
    assert.deepEqual(body, {
      error: "invalid_content",
      at: `/link/${key.replace("/", "~1")}`,
      reason: "link",
      problems: [{ at: `/link/${key.replace("/", "~1")}`, reason: "link" }],
    });
  }
  const version = (await s.read()).body.version as string;
  const ok = await s.save(
    JSON.stringify({ link: { "title href": "/about", "a/b": "c" } }),
    version,
  );
  assert.equal(ok.status, 200);
});

Deno.test("save passes every URL-bearing attribute name through the link rule, whatever its case", async () => {
  await using s = await publishSite(router, KEY);
  const names = [...URL_ATTRIBUTES];
  for (const name of names) {
    for (const key of cases(name)) {
      for (
        const hostile of [
          "javascript:alert(1)",
          "JaVaScRiPt:alert(1)",
          "&#106;avascript:alert(1)",
          " javascript:alert(1)",
          "data:text/html,<script>alert(1)</script>",
          "vbscript:msgbox(1)",
          "//evil.example/x",
        ]
      ) {
        const { status, body } = await s.save(
          JSON.stringify({ link: { [key]: hostile } }),
          "",
        );
        assert.equal(status, 422, `${key}: ${hostile}`);
        assert.equal(body.at, `/link/${key}`, `${key}: ${hostile}`);
        // `src` makes its object an image: the media rule answers.
        assert.equal(
          body.reason,
          name === "src" ? "media" : hostile.includes("<") ? "markup" : "link",
          `${key}: ${hostile}`,
        );
      }
    }
  }
  // A list is written as its items joined by commas: the same rule.
  for (const list of [["javascript:alert(1)"], [["javascript:alert(1)"]]]) {
    const { status, body } = await s.save(
      JSON.stringify({ a: { PING: list } }),
      "",
    );
    assert.equal(status, 422);
    assert.equal(body.at, "/a/PING");
  }
});

Deno.test("save accepts safe values under URL-bearing names, and values that carry no URL", async () => {
  await using s = await publishSite(router, KEY);
  const pages = [
    { link: { HREF: "/about", Title: "About" } },
    { link: { "xlink:href": "#top", srcset: "https://cdn.example/a.png" } },
    { quote: { cite: "https://example.com/source", text: "Hi" } },
    { data: { rows: [1, 2, 3] }, background: { src: "sky.jpg" } },
    { icon: null, ping: [], action: 3, poster: true },
    { on: "x", "o-n": "y", no: "z", "x-on": "w" },
  ];
  let version = (await s.read()).body.version as string;
  for (const page of pages) {
    const { status, body } = await s.save(JSON.stringify(page), version);
    assert.equal(status, 200, JSON.stringify(page));
    version = body.version as string;
  }
});

Deno.test("save applies the media rule to SRC, WIDTH, HEIGHT and ALT whatever their case", async () => {
  await using s = await publishSite(router, KEY);
  const cases: [unknown, string][] = [
    [{ img: { SRC: "javascript:alert(1)" } }, "/img/SRC"],
    [{ img: { Src: "x.svg" } }, "/img/Src"],
    [{ img: { src: "a.jpg", WIDTH: 0 } }, "/img/WIDTH"],
    [{ img: { sRc: "a.jpg", Height: 1e6 } }, "/img/Height"],
    [{ img: { SRC: "a.jpg", ALT: "&lt;b&gt;" } }, "/img/ALT"],
    // In an image every URL-bearing name is an image name: nothing loads
    // from another origin when it is spread into <img>.
    [
      { img: { src: "a.jpg", srcset: "https://cdn.example/a.png" } },
      "/img/srcset",
    ],
    [{ img: { src: "a.jpg", LowSrc: "javascript:alert(1)" } }, "/img/LowSrc"],
    [
      { img: { src: "a.jpg", srcSet: ["//evil.example/a.png"] } },
      "/img/srcSet",
    ],
  ];
  for (const [page, at] of cases) {
    const { status, body } = await s.save(JSON.stringify(page), "");
    assert.equal(status, 422, JSON.stringify(page));
    assert.equal(body.at, at);
    assert.equal(body.reason, "media", JSON.stringify(page));
  }
  const ok = await s.save(
    JSON.stringify({
      img: { SRC: "a.jpg", WIDTH: 10, Alt: "A", srcset: "a-2x.webp" },
    }),
    (await s.read()).body.version as string,
  );
  assert.equal(ok.status, 200);
});

Deno.test("save applies the id rule to ID whatever its case", async () => {
  await using s = await publishSite(router, KEY);
  const dup = await s.save(
    JSON.stringify({ a: { id: "x" }, b: { ID: "x" } }),
    "",
  );
  assert.equal(dup.status, 422);
  assert.equal(dup.body.at, "/b/ID");
  const bad = await s.save(JSON.stringify({ a: { Id: "<x>" } }), "");
  assert.equal(bad.status, 422);
  assert.equal(bad.body.at, "/a/Id");
});
