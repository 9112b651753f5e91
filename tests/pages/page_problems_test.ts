import assert from "node:assert/strict";
import markdownIt from "markdown-it";
import { parse } from "parse5";
import { PAGE_DEPTH_MAX, PAGE_PROBLEMS_MAX } from "../../lib/limits.ts";
import {
  type PageProblem,
  PageRuleError,
  pageRules,
} from "../../lib/pages/page_rules.ts";
import { isScriptUrl } from "../../lib/pages/link_rule.ts";
import { corpusLines } from "../support/corpora.ts";
import { CORPORA } from "../support/corpora.ts";

/** The problems a page is refused with; fails when it is accepted. */
function problems(page: unknown): PageProblem[] {
  const content = typeof page === "string" ? page : JSON.stringify(page);
  try {
    pageRules(content);
  } catch (error) {
    assert.ok(error instanceof PageRuleError, String(error));
    assert.equal(error.at, error.problems[0]?.at);
    assert.equal(error.code, error.problems[0]?.code);
    return [...error.problems];
  }
  assert.fail(`accepted: ${content.slice(0, 200)}`);
}

/** The places and codes of a page's problems. */
function places(page: unknown): [string, string][] {
  return problems(page).map(({ at, code }) => [at, code]);
}

function accepted(page: unknown): void {
  pageRules(JSON.stringify(page));
}

Deno.test("pageRules collects every problem of a page, in document order", () => {
  assert.deepEqual(
    places(
      JSON.stringify({
        title: "<h3>Hi</h3>",
        hero: { src: "Banner.PNG", width: 1200.5, height: 0, alt: "<b>x</b>" },
        onclick: "x",
        sections: [
          { id: "a", link: { href: "javascript:alert(1)" } },
          { id: "a", body: "[click](javascript:alert(1))" },
          { id: "not valid!", url: "javascript:void(0)" },
        ],
        n: 0,
      }).replace('"n":0', '"n":1e400'),
    ),
    [
      ["/title", "markup"],
      ["/hero/src", "media"],
      ["/hero/width", "shape"],
      ["/hero/height", "media"],
      ["/hero/alt", "media"],
      ["/onclick", "key"],
      ["/sections/0/link/href", "link"],
      ["/sections/1/id", "duplicate_id"],
      ["/sections/1/body", "link"],
      ["/sections/2/id", "id"],
      ["/sections/2/url", "link"],
      ["/n", "number"],
    ],
  );
});

Deno.test("pageRules merges keys written twice and numbers that change into document order", () => {
  assert.deepEqual(
    places(
      '{"a":1,"a":2,"b":"<x>","c":{"d":12345678901234567890,"e":[1,"<y>"]},"f":{"g":1,"g":2}}',
    ),
    [
      ["/a", "duplicate_key"],
      ["/b", "markup"],
      ["/c/d", "number"],
      ["/c/e/1", "markup"],
      ["/f/g", "duplicate_key"],
    ],
  );
  // A key written twice comes after what its first occurrence holds.
  assert.deepEqual(
    places('{"a":{"x":1,"x":2},"a":"<z>"}'),
    [["/a/x", "duplicate_key"], ["/a", "duplicate_key"], ["/a", "markup"]],
  );
});

Deno.test("pageRules lists at most 50 problems, the first 50 in document order", () => {
  const page = {
    items: Array.from({ length: 120 }, (_, index) => ({ id: `${index}!` })),
  };
  const found = problems(page);
  assert.equal(found.length, PAGE_PROBLEMS_MAX);
  assert.deepEqual(
    found.map(({ at }) => at),
    Array.from({ length: 50 }, (_, index) => `/items/${index}/id`),
  );
  // With `most` at 1, the walk stops at the first problem.
  try {
    pageRules(JSON.stringify(page), 1);
    assert.fail("accepted");
  } catch (error) {
    assert.ok(error instanceof PageRuleError);
    assert.deepEqual(error.problems.map(({ at }) => at), ["/items/0/id"]);
  }
});

Deno.test("pageRules ends the walk at what must end it: not JSON, not an object, the value cap; a page too deep is one problem, never entered", () => {
  assert.deepEqual(places("{"), [["", "json"]]);
  assert.deepEqual(places("[1]"), [["", "shape"]]);
  // Over the value cap: the problem past the cap, nothing after it.
  const big = {
    a: "<x>",
    list: Array.from({ length: 20_001 }, () => 1),
    z: "<y>",
  };
  assert.deepEqual(places(big), [["/a", "markup"], ["/list/19996", "size"]]);
  // 50,000 levels deep, with problems beside it: each found, no overflow.
  const deep = "[".repeat(50_000) + "]".repeat(50_000);
  const found = places(`{"a":"<x>","deep":${deep},"b":"<y>"}`);
  const depth = "/deep" + "/0".repeat(PAGE_DEPTH_MAX - 1);
  assert.deepEqual(found, [["/a", "markup"], [depth, "depth"], [
    "/b",
    "markup",
  ]]);
});

Deno.test("pageRules refuses a string under any key that is itself a javascript: URL, after the link rule's handling", () => {
  for (
    const hostile of [
      "javascript:alert(1)",
      "javascript:void(0)",
      " JaVaScRiPt:alert(1)",
      "\tjavascript:alert(1)",
      "java\tscript:alert(1)",
      "java\nscript:alert(1)",
      "\u00a0javascript:alert(1)",
      "\u200bjavascript:alert(1)",
      "&#106;avascript:alert(1)",
      "&#x6A;avascript:alert(1)",
      "javascript&colon;alert(1)",
      "javascript&#58;alert(1)",
      "&Tab;javascript:alert(1)",
      "java&#x09;script:alert(1)",
      "vbscript:msgbox(1)",
      "livescript:alert(1)",
      "data:text/html,&lt;script&gt;alert(1)&lt;/script&gt;",
      "data:text/html;base64,PHNjcmlwdD5hbGVydCgxKTwvc2NyaXB0Pg==",
      "data:,alert(1)",
    ]
  ) {
    for (const key of ["link", "url", "button", "title", "to"]) {
      assert.deepEqual(
        places({ [key]: hostile }),
        [[`/${key}`, "link"]],
        `${key}: ${hostile}`,
      );
    }
    assert.deepEqual(
      places({ links: [hostile] }),
      [["/links/0", "link"]],
      hostile,
    );
    assert.ok(isScriptUrl(hostile), hostile);
  }
});

Deno.test("pageRules passes ordinary text with a colon under any key", () => {
  for (
    const text of [
      "Note: hello",
      "10:30",
      "re: x",
      "Data: 42 entries",
      "data science: a primer",
      "JavaScript is fun",
      "Visit https://example.org: it is good",
      "Opening hours: 9:00-17:00",
      "vb: a note",
      "Dear Javier: thanks",
      "ISBN:978-3-16-148410-0",
      "javascript",
      "d:",
    ]
  ) {
    accepted({
      title: text,
      link: text.startsWith("d") ? "/ok" : "#x",
      items: [text],
    });
    assert.equal(isScriptUrl(text), false, text);
  }
});

Deno.test("pageRules gives every markdown link, image and reference target the link rule", () => {
  for (
    const [text, code] of [
      ["[click](javascript:alert(1))", "link"],
      ["![x](javascript:alert(1))", "link"],
      ["[a]: javascript:alert(1)", "link"],
      ["[a]: javascript:alert(1)\n\nsee [a]", "link"],
      ["[a][r]\n\n[r]: JaVaScRiPt:alert(1)", "link"],
      ["[a](java&#115;cript:alert(1))", "link"],
      ["[a]( javascript:alert(1) )", "link"],
      ["[a](//evil.example/x)", "link"],
      ["[a](data:text/html;base64,PHNjcmlwdD4=)", "link"],
      ["![![y](javascript:1)](/ok.png)", "link"],
      ["Read [this](vbscript:msgbox(1)) *now*", "link"],
      ["[a](/ok) then [b](javascript:alert(1))", "link"],
      ["[a](/&#47;evil.example/x)", "link"],
      ["[a](/\\/evil.example)", "link"],
      ["[a](\njavascript:alert(1))", "link"],
      [
        "[a](https://example.org/?a=1&b=2) [b](&#x6A;avascript:alert(1))",
        "link",
      ],
      // An autolink holds a `<`: the markup rule refuses it first.
      ["<javascript:alert(1)>", "markup"],
      ["[a](<javascript:alert(1)>)", "markup"],
    ] as const
  ) {
    assert.deepEqual(places({ title: text }), [["/title", code]], text);
  }
  for (
    const text of [
      "[about](/en/about/) and [home](https://example.org/)",
      "![logo](/images/logo.png)",
      "[notes](https://example.org/glazes?page=1&sort=new)",
      "[paren](/wiki/Pottery_(craft))",
      "[mail](mailto:a@example.org) [top](#top)",
      "[r]: /ok\n\n[see][r]",
      "a ] ( b",
      "[x] (javascript:alert(1))",
      "`[x](javascript:alert(1))` is code",
      "\\[x](javascript:alert(1))",
    ]
  ) {
    accepted({ title: text });
  }
});

Deno.test("pageRules names what is wrong in each problem's detail", () => {
  const detail = (page: unknown) => problems(page).map(({ detail }) => detail);
  const [h3] = detail({ body: "<p>Hi</p><h3>Title</h3>" });
  assert.match(h3 as string, /^Tag <h3> is outside the allowlist/);
  const [attribute] = detail({ body: '<p class="x">Hi</p>' });
  assert.match(attribute as string, /^Attribute class is not allowed on <p>/);
  const [upper] = detail({ image: { src: "Banner.PNG" } });
  assert.equal(
    upper,
    'image name not allowed: "Banner.PNG" has upper-case letters: image names are lower case ("banner.png")',
  );
  const [extension] = detail({ image: { src: "banner.gif" } });
  assert.equal(
    extension,
    'image name not allowed: "banner.gif" has the extension ".gif", not jpg, jpeg, png or webp',
  );
  const [character] = detail({ image: { src: "my banner.png" } });
  assert.match(character as string, /the character " " \(U\+0020\)/);
  const [width] = detail({ image: { src: "a.png", width: 1200.5 } });
  assert.equal(width, "width 1200.5 must be a whole number from 1 to 10,000");
  const [id] = detail({ id: "Hello World" });
  assert.match(
    id as string,
    /^id "Hello World" does not match \^\[A-Za-z0-9\]/,
  );
  const [twice] = detail({ a: { id: "x" }, b: { id: "x" } });
  assert.equal(twice, 'id "x" is used twice (first at /a/id)');
  const [link] = detail({ href: "javascript:alert(1)" });
  assert.match(link as string, /^link "javascript:alert\(1\)" is not allowed/);
  const [key] = detail({ onClick: "x" });
  assert.equal(
    key,
    'key "onClick" is read by HTML as the event handler onclick',
  );
  const [markdown] = detail({ t: "[x](javascript:alert(1))" });
  assert.match(
    markdown as string,
    /^markdown link target "javascript:alert\(1\)"/,
  );
});

/**
 * An oracle independent of the rule's own code path: markdown-it renders the
 * string with every link allowed, parse5 reads the HTML, and the WHATWG URL
 * parser resolves each `href` and `src` against the site.
 */
const render = markdownIt({ html: false, linkify: false });
render.validateLink = () => true;
const SITE = "https://site.example/en/page/";

function unsafeRendered(text: string): string | undefined {
  const html = render.render(text);
  const stack = [parse(html) as unknown as Node];
  interface Node {
    nodeName: string;
    attrs?: { name: string; value: string }[];
    childNodes?: Node[];
  }
  for (let node = stack.pop(); node !== undefined; node = stack.pop()) {
    for (const attribute of node.attrs ?? []) {
      if (attribute.name !== "href" && attribute.name !== "src") continue;
      let url: URL;
      try {
        url = new URL(attribute.value, SITE);
      } catch {
        continue; // a URL that does not parse loads nothing
      }
      if (!["http:", "https:", "mailto:", "tel:"].includes(url.protocol)) {
        return attribute.value;
      }
      // A site path stays on the site; http(s) elsewhere must be written
      // as a full URL, never a scheme-relative `//host`.
      const value = attribute.value.trim();
      if (
        url.origin !== new URL(SITE).origin &&
        !/^(?:https?:\/\/|mailto:|tel:)/i.test(value)
      ) return attribute.value;
    }
    stack.push(...node.childNodes ?? []);
  }
  return undefined;
}

/** Runs every payload as a markdown link, image and reference target. */
async function runCorpus(
  lines: AsyncIterable<string>,
): Promise<{ sent: number; refused: number }> {
  let sent = 0;
  let refused = 0;
  for await (const payload of lines) {
    if (payload === "") continue;
    for (
      const text of [
        `[click](${payload})`,
        `![x](${payload})`,
        `[r]: ${payload}\n\n[see][r]`,
      ]
    ) {
      sent++;
      try {
        pageRules(JSON.stringify({ body: text }));
      } catch (error) {
        assert.ok(error instanceof PageRuleError, `${text}: ${error}`);
        refused++;
        continue;
      }
      const unsafe = unsafeRendered(text);
      assert.equal(unsafe, undefined, `accepted ${JSON.stringify(text)}`);
    }
  }
  return { sent, refused };
}

async function* dompurifyPayloads(): AsyncGenerator<string> {
  const cases = JSON.parse(
    await Deno.readTextFile(new URL("xss/dompurify.json", CORPORA)),
  ) as { payload: string }[];
  for (const { payload } of cases) yield payload;
}

Deno.test("every DOMPurify and PayloadsAllTheThings XSS payload as a markdown target is refused or renders no unsafe link, and never crashes", async () => {
  const dompurify = await runCorpus(dompurifyPayloads());
  assert.equal(dompurify.sent, 223 * 3);
  const patt = await runCorpus(corpusLines("xss/payloadsallthethings/"));
  assert.ok(patt.sent > 6_000, `${patt.sent}`);
  assert.ok(patt.refused > patt.sent / 2, `${patt.refused} of ${patt.sent}`);
});

Deno.test("every PayloadsAllTheThings traversal payload as a markdown target is refused or renders no unsafe link, and never crashes", async () => {
  const { sent } = await runCorpus(
    corpusLines("traversal/payloadsallthethings/"),
  );
  assert.ok(sent > 80_000, `${sent}`);
});
