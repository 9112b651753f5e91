/**
 * The oracle for the page rules: every page `/api/save` accepts from the XSS
 * corpora (DOMPurify's fixtures and PayloadsAllTheThings, each payload placed
 * as text, link, image, key and attribute of a page, in several cases and
 * spellings) is rendered by a deliberately naive template and loaded in
 * Chromium, and no script may run.
 *
 * The template does what careless site templates do: it writes every string
 * as raw HTML (`set:html`, `innerHTML`) and spreads every object's keys as
 * attributes, unescaped names and escaped values, on `<img>` for an object
 * with a `src` (any case), `<a>` for one with a link, `<div>` otherwise. The
 * document is parsed by Chromium's HTML parser on its own origin, so `<script>`
 * would run. The page fails when a dialog opens, when `alert`, `confirm`,
 * `prompt` or `print` is called, when anything requests another origin, or
 * when the rendered DOM holds an event-handler attribute, a `style`
 * attribute, a script, a frame, or a URL attribute that the browser resolves
 * to anything but `http:`, `https:`, `mailto:`, `tel:` (which would run script
 * when clicked). The same checks find the four kinds of hostile page the rules
 * refuse when those are rendered without going through `/api/save`.
 */
import { CHROMIUM, FLAGS } from "../support/chromium.ts";
import assert from "node:assert/strict";
import { type Browser, chromium, type Page } from "playwright-core";
import { createRouter, type Repository } from "../../mod.ts";
import { fastHash } from "../support/helpers.ts";
import { STRESS } from "../support/runs.ts";

const CORPORA = new URL("../../../shared/corpora/", import.meta.url);
const ORIGIN = "https://site.test";
const KEY = "oracle key";
/** URL-bearing attribute names, for the mutations and the DOM check. */
const URL_NAMES = [
  "href",
  "src",
  "srcset",
  "action",
  "formaction",
  "xlink:href",
  "poster",
  "cite",
  "data",
  "background",
  "ping",
  "lowsrc",
  "longdesc",
  "usemap",
  "codebase",
  "icon",
  "manifest",
];
const HANDLER_NAMES = ["onerror", "onclick", "onload", "onfocus", "style"];
/** Pages rendered in one document. */
const BATCH = 1_000;

/**
 * Every case a template author could meet: as is, upper, alternating (under
 * `deno task stress`; the default tests take the alternating one only).
 */
function spellings(name: string): string[] {
  const alternating = [...name].map((c, i) => i % 2 ? c.toUpperCase() : c)
    .join("");
  return STRESS
    ? [...new Set([name, name.toUpperCase(), alternating])]
    : [alternating];
}

/** The corpus payloads, each once. */
async function payloads(): Promise<string[]> {
  const found = new Set<string>();
  const dompurify: { payload: string }[] = JSON.parse(
    await Deno.readTextFile(new URL("xss/dompurify.json", CORPORA)),
  );
  for (const { payload } of dompurify) found.add(payload);
  const folder = new URL("xss/payloadsallthethings/", CORPORA);
  for await (const entry of Deno.readDir(folder)) {
    if (!entry.isFile || !entry.name.endsWith(".txt")) continue;
    const text = await Deno.readTextFile(new URL(entry.name, folder));
    for (const line of text.split(/\r?\n/)) if (line) found.add(line);
  }
  return [...found];
}

/** The pages made from one payload: it as text, link, image, key, attribute. */
function mutations(payload: string, index: number): unknown[] {
  const name = URL_NAMES[index % URL_NAMES.length] as string;
  const handler = HANDLER_NAMES[index % HANDLER_NAMES.length] as string;
  const key = payload.slice(0, 64);
  const pages: unknown[] = [
    { body: payload },
    { body: `<b>${payload}</b>`, note: `<a href="${payload}">x</a>` },
    { body: `<a title="${payload}" href="/x">x</a>` },
    { link: { href: payload, text: payload } },
    { img: { src: payload, alt: payload } },
    { [key]: "x" },
    { x: { [key]: "alert(1)" } },
    { img: { src: "a.jpg", [key]: "alert(1)" } },
  ];
  for (const spelled of spellings(name)) {
    pages.push({ link: { [spelled]: payload, text: "x" } });
    pages.push({ img: { src: "a.jpg", [spelled]: payload } });
    pages.push({ link: { [spelled]: [payload] } });
  }
  for (const spelled of spellings(handler)) {
    pages.push({ img: { src: "a.jpg", [spelled]: payload } });
  }
  pages.push({ link: { HREF: payload }, img: { SRC: payload } });
  // Its text made inert by entities, and without its angle brackets: pages
  // the rules accept, which must stay text in a browser.
  const escaped = payload.replaceAll("&", "&amp;").replaceAll("<", "&lt;")
    .replaceAll(">", "&gt;");
  const bare = payload.replace(/[<>]/g, " ");
  pages.push({ body: escaped, link: { href: "/x", title: escaped } });
  pages.push({ body: bare, list: [bare, { text: bare }] });
  pages.push({ img: { src: "a.jpg", alt: bare, title: escaped } });
  // The names and URLs it holds, as keys and values of spread objects.
  const words = new Set(payload.match(/[A-Za-z][\w:-]{0,40}/g) ?? []);
  for (const word of [...words].slice(0, STRESS ? 8 : 3)) {
    pages.push({ x: { [word]: "/safe" }, y: { [word]: bare } });
    pages.push({ img: { src: "a.jpg", [word]: "b.png" } });
  }
  const urls = payload.match(/[a-z]+:[^\s"'<>]{1,80}/gi) ?? [];
  for (const url of urls.slice(0, STRESS ? 4 : 2)) {
    pages.push({ link: { href: url, text: url } });
    pages.push({ link: { [name]: url }, img: { src: "a.jpg", alt: url } });
    // A key that would carry its own value when written unescaped.
    pages.push({ link: { [`${name}="${url}" x`.slice(0, 64)]: "/ok" } });
    pages.push({ link: { [`${name}=${url} x`.slice(0, 64)]: "/ok" } });
  }
  return pages;
}

const ESCAPES: Record<string, string> = {
  "&": "&amp;",
  "<": "&lt;",
  ">": "&gt;",
  '"': "&quot;",
  "'": "&#39;",
};

function escapeValue(text: string): string {
  return text.replace(/[&<>"']/g, (c) => ESCAPES[c] as string);
}

/** What a template writes for a value in an attribute, as `String` would. */
function text(value: unknown): string {
  if (Array.isArray(value)) {
    return value.map((item) => item === null ? "" : text(item)).join(",");
  }
  return value !== null && typeof value === "object"
    ? "[object Object]"
    : String(value);
}

/**
 * The naive template: strings as raw HTML, objects spread as attributes on
 * `<img>` (with a `src`), `<a>` (with a URL-bearing name) or `<div>`, their
 * values then rendered inside.
 */
function render(value: unknown): string {
  if (typeof value === "string") return value;
  if (Array.isArray(value)) return value.map(render).join("");
  if (value === null || typeof value !== "object") {
    return escapeValue(text(value));
  }
  const entries = Object.entries(value);
  const lower = entries.map(([key]) => key.toLowerCase());
  const tag = lower.includes("src")
    ? "img"
    : lower.some((key) => URL_NAMES.includes(key))
    ? "a"
    : "div";
  const attributes = entries.map(([key, item]) =>
    ` ${key}="${escapeValue(text(item))}"`
  ).join("");
  const inner = entries.map(([, item]) => render(item)).join("");
  return tag === "img"
    ? `<img${attributes}>${inner}`
    : `<${tag}${attributes}>${inner}</${tag}>`;
}

/** Installed before any script of the document: records calls, not dialogs. */
const HOOKS = `
  for (const name of ["alert", "confirm", "prompt", "print"]) {
    window[name] = (...args) => console.log("XSS-MARKER " + name + " " + args.join(" "));
  }`;

/** Checks of the rendered DOM, run in the page. */
const DOM_CHECK = `(() => {
  const problems = [];
  const safe = new Set(["http:", "https:", "mailto:", "tel:"]);
  const urlNames = new Set(${JSON.stringify(URL_NAMES)});
  const walk = (root) => {
    for (const element of root.querySelectorAll("*")) {
      const tag = element.localName;
      if (["script", "iframe", "frame", "object", "embed", "base", "meta", "link", "style", "form"].includes(tag) && !element.hasAttribute("data-oracle")) {
        problems.push("element " + tag);
      }
      for (const attribute of element.attributes) {
        const name = attribute.name.toLowerCase();
        if ((name.length > 2 && name.startsWith("on")) || name === "style" || name === "srcdoc") {
          problems.push("attribute " + name + " on " + tag);
        }
        if (urlNames.has(name) && attribute.value.trim() !== "") {
          const candidates = name === "srcset" || name === "ping"
            ? attribute.value.split(/[\\s,]+/).filter(Boolean)
            : [attribute.value];
          for (const candidate of candidates) {
            let protocol;
            try {
              protocol = new URL(candidate, document.baseURI).protocol;
            } catch {
              continue;
            }
            if (!safe.has(protocol)) {
              problems.push(name + " " + protocol + " on " + tag);
            }
          }
        }
      }
      if (element.shadowRoot) walk(element.shadowRoot);
      if (tag === "template") walk(element.content);
    }
  };
  walk(document);
  return problems;
})()`;

interface Verdict {
  markers: string[];
  requests: string[];
  problems: string[];
}

/** Loads pages rendered by the template in one document and reports. */
async function renderInBrowser(
  page: Page,
  pages: readonly string[],
): Promise<Verdict> {
  const markers: string[] = [];
  const requests: string[] = [];
  const onConsole = (message: { text(): string }) => {
    if (message.text().startsWith("XSS-MARKER")) markers.push(message.text());
  };
  const onDialog = (
    dialog: { message(): string; dismiss(): Promise<void> },
  ) => {
    markers.push(`dialog ${dialog.message()}`);
    void dialog.dismiss();
  };
  page.on("console", onConsole);
  page.on("dialog", onDialog);
  const body = pages.map((text, index) =>
    `<section id="page-${index}">${render(JSON.parse(text))}</section>`
  ).join("\n");
  await page.unroute("**/*");
  await page.route("**/*", async (route) => {
    const url = route.request().url();
    if (url === `${ORIGIN}/`) {
      await route.fulfill({
        contentType: "text/html; charset=utf-8",
        body:
          `<!doctype html><html><head><title>naive</title></head><body>${body}</body></html>`,
      });
    } else if (url.startsWith(`${ORIGIN}/`)) {
      await route.fulfill({ status: 404, body: "" });
    } else {
      requests.push(url.slice(0, 200));
      await route.abort();
    }
  });
  await page.goto(`${ORIGIN}/`, { waitUntil: "load" });
  // Let timers, failed image loads and focus handlers run.
  await page.waitForTimeout(100);
  const problems = await page.evaluate(DOM_CHECK) as string[];
  page.off("console", onConsole);
  page.off("dialog", onDialog);
  return { markers, requests, problems };
}

function clean(verdict: Verdict): boolean {
  return verdict.markers.length === 0 && verdict.requests.length === 0 &&
    verdict.problems.length === 0;
}

/** The pages of a failing batch that fail alone, with what they did. */
async function culprits(
  page: Page,
  pages: readonly string[],
): Promise<string[]> {
  const found: string[] = [];
  for (const text of pages) {
    const verdict = await renderInBrowser(page, [text]);
    if (!clean(verdict)) {
      found.push(`${text.slice(0, 300)} => ${JSON.stringify(verdict)}`);
      if (found.length >= 5) break;
    }
  }
  return found;
}

/** An in-memory repository: one new file per publish. */
function memoryRepository(): Repository & { files: Map<string, Uint8Array> } {
  const files = new Map<string, Uint8Array>();
  let writes = 0;
  return {
    files,
    read: (path) => {
      const content = files.get(path);
      return Promise.resolve(
        content ? { content, version: `v${path}` } : null,
      );
    },
    write: (path, content) => {
      files.set(path, content);
      return Promise.resolve(`v${++writes}`);
    },
  };
}

async function launch(): Promise<Browser> {
  return await chromium.launch({
    executablePath: CHROMIUM,
    headless: true,
    args: [...FLAGS],
  });
}

Deno.test("the oracle finds script in hostile pages rendered without the page rules", async () => {
  const browser = await launch();
  try {
    const page = await browser.newPage();
    await page.addInitScript(HOOKS);
    const hostile = [
      { link: { HREF: "javascript:alert(1)" } },
      { img: { src: "x.jpg", onerror: "alert(1)" } },
      { body: "<img src=x onerror=alert(1)>" },
      { x: { "x onclick": "alert(1)", "x autofocus onfocus": "alert(1)" } },
      { img: { src: "a.jpg", srcset: "https://evil.example/a.png" } },
      { body: "<script>alert(1)</script>" },
      { link: { 'href="javascript:alert(1)" x': "/ok" } },
    ];
    for (const page_ of hostile) {
      const verdict = await renderInBrowser(page, [JSON.stringify(page_)]);
      assert.ok(!clean(verdict), `not caught: ${JSON.stringify(page_)}`);
    }
    const safe = await renderInBrowser(page, [
      JSON.stringify({ link: { href: "/about", text: "<b>About</b>" } }),
      JSON.stringify({ img: { src: "a.jpg", alt: "A" } }),
    ]);
    assert.deepEqual(safe, { markers: [], requests: [], problems: [] });
  } finally {
    await browser.close();
  }
});

Deno.test("no page the service accepts from the XSS corpora runs script in a naive template, in Chromium", async () => {
  const router = createRouter({ locales: ["en"] });
  const kv = await Deno.openKv(":memory:");
  const repository = memoryRepository();
  const env = {
    RATE_LIMIT: kv,
    EDITOR_KEY_HASH: await fastHash(KEY),
    REPOSITORY: repository,
    EDITOR_LOG: () => {},
  };
  let client = 0;
  const info = () => {
    const n = client++;
    return {
      remoteAddr: {
        hostname: `10.${(n >> 16) & 255}.${(n >> 8) & 255}.${n & 255}`,
      },
    };
  };
  const login = await router.handle(
    new Request(`${ORIGIN}/api/auth`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ key: KEY }),
    }),
    env,
    info(),
  );
  assert.equal(login.status, 200);
  const cookie = login.headers.getSetCookie().map((c) => c.split(";")[0])
    .join("; ");
  const browser = await launch();
  try {
    const all = await payloads();
    assert.ok(all.length > 2_300, `${all.length} distinct payloads`);
    const statuses = new Map<number, number>();
    let sent = 0;
    for (const [index, payload] of all.entries()) {
      for (const candidate of mutations(payload, index)) {
        const path = `src/content/pages/en/p-${sent++}.json`;
        const response = await router.handle(
          new Request(`${ORIGIN}/api/save`, {
            method: "POST",
            headers: { "content-type": "application/json", cookie },
            body: JSON.stringify({
              path,
              content: JSON.stringify(candidate),
              version: "",
            }),
          }),
          env,
          info(),
        );
        await response.body?.cancel();
        statuses.set(response.status, (statuses.get(response.status) ?? 0) + 1);
        assert.ok(
          response.status === 200 || response.status === 422 ||
            response.status === 413,
          `${response.status} for ${JSON.stringify(candidate).slice(0, 200)}`,
        );
      }
    }
    const accepted = [...repository.files.values()].map((bytes) =>
      new TextDecoder().decode(bytes)
    );
    assert.equal(accepted.length, statuses.get(200) ?? 0);
    const page = await browser.newPage();
    await page.addInitScript(HOOKS);
    for (let start = 0; start < accepted.length; start += BATCH) {
      const batch = accepted.slice(start, start + BATCH);
      const verdict = await renderInBrowser(page, batch);
      if (!clean(verdict)) {
        assert.fail(
          `script or a foreign request from accepted pages:\n${
            (await culprits(page, batch)).join("\n")
          }\n${JSON.stringify(verdict).slice(0, 2000)}`,
        );
      }
    }
    console.log(
      `naive render oracle: ${sent} pages sent from ${all.length} payloads, ` +
        `${accepted.length} accepted and rendered in Chromium, no script ran ` +
        `(statuses ${JSON.stringify(Object.fromEntries(statuses))})`,
    );
    assert.ok(accepted.length > 8_000, `${accepted.length} pages rendered`);
  } finally {
    await browser.close();
    kv.close();
  }
});
