/**
 * The example site's renderer: pages rendered from
 * `src/content/pages/{lang}/{page}.json` on each request, the way a site's
 * dev server would, so that a publish shows on the next reload. Files under
 * `public/` (the style sheet, `images/`) are served as they are.
 *
 * Regions are marked with the editor's data attributes, written by the
 * regions helper (`@inpage/editor/regions`): `data-inpage-page` on the
 * container (with `data-inpage-fields` naming the description, which only
 * the `<meta>` shows), `data-inpage-text` on plain-text fields (written as
 * text), `data-inpage-html` on rich text (written as HTML: the page rules
 * allow only safe markup), `data-inpage-image` on images (a media object as
 * `<img>`) and `data-inpage-link` on links (a link object spread into the
 * attributes of `<a>`). The navigation and the sections are lists
 * (`data-inpage-list`, `data-inpage-item` on each child), each with a
 * `<template>` for its first item when it is empty.
 *
 * @module
 */

import { join } from "node:path";
import { serveStaticFile } from "../../cli/static_site.ts";
import { pageRules } from "../../lib/pages/page_rules.ts";
import { inpage } from "../../regions/mod.ts";

/** The site's languages, with the words its templates need. */
const LANGUAGES: Readonly<Record<string, Labels>> = {
  en: {
    name: "English",
    newSection: { heading: "A new section", body: "<p>Write here.</p>" },
    newLink: "A link",
    footer:
      "An example site for @inpage/editor. Add ?edit to any address to edit it.",
    broken: "This page fails the page rules: run editor check",
  },
  fr: {
    name: "Français",
    newSection: {
      heading: "Une nouvelle section",
      body: "<p>Écrivez ici.</p>",
    },
    newLink: "Un lien",
    footer:
      "Un site d’exemple pour @inpage/editor. Ajoutez ?edit à l’adresse pour le modifier.",
    broken: "Cette page enfreint les règles des pages : lancez editor check",
  },
};

interface Labels {
  name: string;
  /** The first item of an empty list of sections. */
  newSection: { heading: string; body: string };
  /** The text of the first link of an empty navigation. */
  newLink: string;
  footer: string;
  broken: string;
}

const SEGMENT = /^[a-z0-9]+(?:-[a-z0-9]+)*$/;

/**
 * Answers a request for the site whose checkout is `siteRoot`: a page, a
 * redirect to a page's canonical address, or a file of `public/`.
 *
 * @param request the request
 * @param siteRoot the site's folder (holding `src/` and `public/`)
 * @returns the response, or `undefined` when the site has nothing there
 * @example
 * ```ts ignore
 * Deno.serve(async (request) =>
 *   await renderSite(request, ".") ?? new Response("Not found", { status: 404 })
 * );
 * ```
 */
export async function renderSite(
  request: Request,
  siteRoot: string,
): Promise<Response | undefined> {
  if (request.method !== "GET" && request.method !== "HEAD") return undefined;
  const url = new URL(request.url);
  if (url.pathname === "/") return redirect(url, "/en/");
  const segments = url.pathname.split("/").slice(1);
  const [lang = "", ...rest] = segments;
  const labels = Object.hasOwn(LANGUAGES, lang) ? LANGUAGES[lang] : undefined;
  if (!labels) return await serveStaticFile(request, join(siteRoot, "public"));
  if (rest.length === 0) return redirect(url, `/${lang}/`);
  const slash = rest.at(-1) === "";
  if (slash) rest.pop();
  const names = rest.length === 0 ? ["home"] : rest;
  if (names.length > 4 || !names.every((name) => SEGMENT.test(name))) {
    return undefined;
  }
  const path = `src/content/pages/${lang}/${names.join("/")}.json`;
  const source = await Deno.readTextFile(join(siteRoot, path)).catch(() =>
    undefined
  );
  if (source === undefined) return undefined;
  if (!slash) return redirect(url, `${url.pathname}/`);
  let page: Page;
  let broken = false;
  try {
    pageRules(source);
    page = JSON.parse(source);
  } catch {
    // A file that fails the rules (a hand edit in git) still renders, its
    // rich text as plain text and its links left out, so that an editor can
    // open it and fix it.
    broken = true;
    try {
      page = JSON.parse(source);
    } catch {
      page = {};
    }
    if (typeof page !== "object" || page === null || Array.isArray(page)) {
      page = {};
    }
  }
  const body = layout({
    lang,
    labels,
    path,
    page,
    current: names.join("/"),
    address: url.pathname,
    broken,
  });
  return html(200, request.method === "HEAD" ? null : body);
}

/** What the templates read from a page file; other keys are kept unused. */
interface Page {
  title?: string;
  description?: string;
  lead?: string;
  image?: Media;
  /** Each `{ text, link }`: read through `record`, whatever a hand edit put. */
  nav?: unknown[];
  /** Each `{ id, heading, body }`, read the same way. */
  sections?: unknown[];
  cta?: { text?: string; link?: Link };
}

/** A link object: `href`, an optional `title`, other attributes. */
type Link = Record<string, unknown>;

interface Media {
  src: string;
  width?: number;
  height?: number;
  alt?: string;
}

function layout(
  { lang, labels, path, page, current, address, broken }: {
    lang: string;
    labels: Labels;
    path: string;
    page: Page;
    current: string;
    address: string;
    broken: boolean;
  },
): string {
  /** Rich text as it is, or as plain text when the file fails the rules. */
  const rich = (value: unknown) =>
    typeof value !== "string" ? "" : broken ? text(value) : value;
  const str = (value: unknown) => typeof value === "string" ? value : "";
  /** A link object's attributes, left out when the file fails the rules. */
  const linkAttributes = (link: unknown) =>
    broken || typeof link !== "object" || link === null
      ? ""
      : spread(link as Link);
  const link = (item: Record<string, unknown>, i: number, live = true) =>
    `<a${linkAttributes(item.link)}${
      live && record(item.link).href === address ? ' aria-current="page"' : ""
    }${
      attributes(
        inpage.item(["nav", i]),
        inpage.link(["nav", i, "link"]),
        inpage.text(["nav", i, "text"]),
      )
    }>${text(str(item.text))}</a>`;
  const newLink = { text: labels.newLink, link: { href: `/${lang}/` } };
  const nav =
    (Array.isArray(page.nav) ? page.nav : []).map((item, i) =>
      link(record(item), i)
    )
      .join("") +
    `<template${attributes(inpage.template("/nav", newLink))}>${
      link(newLink, 0, false)
    }</template>`;
  const languages = Object.keys(LANGUAGES).map((code) => {
    const href = current === "home" ? `/${code}/` : `/${code}/${current}/`;
    const attributes = code === lang
      ? ' aria-current="true"'
      : ` hreflang="${code}" lang="${code}"`;
    return `<a href="${href}"${attributes} title="${
      LANGUAGES[code]?.name
    }">${code.toUpperCase()}</a>`;
  }).join("");
  const section = (section: Record<string, unknown>, index: number) => `
      <section class="card"${
    typeof section.id === "string" && section.id
      ? ` id="${text(section.id)}"`
      : ""
  }${attributes(inpage.item(["sections", index]))}>
        <h2${attributes(inpage.text(["sections", index, "heading"]))}>${
    text(str(section.heading))
  }</h2>
        <div class="prose"${
    attributes(inpage.html(["sections", index, "body"]))
  }>${rich(section.body)}</div>
      </section>`;
  const newSection = { id: "section", ...labels.newSection };
  const sections = (Array.isArray(page.sections) ? page.sections : []).map(
    (item, index) => section(record(item), index),
  ).join("") + `
      <template${attributes(inpage.template("/sections", newSection))}>${
    section(newSection, 0)
  }</template>`;
  const image = page.image && typeof page.image.src === "string"
    ? `<figure class="picture"><img${
      attributes(inpage.image("/image"))
    } src="/images/${text(page.image.src)}"${
      page.image.width ? ` width="${page.image.width}"` : ""
    }${page.image.height ? ` height="${page.image.height}"` : ""} alt="${
      text(page.image.alt ?? "")
    }"></figure>`
    : "";
  const cta = page.cta?.link
    ? `<p><a class="button"${linkAttributes(page.cta.link)}${
      attributes(inpage.link("/cta/link"), inpage.text("/cta/text"))
    }>${text(str(page.cta.text))}</a></p>`
    : "";
  return `<!doctype html>
<html lang="${lang}">
<head>
  <meta charset="utf-8">
  <meta name="viewport" content="width=device-width, initial-scale=1">
  <title>${text(str(page.title))} · Inpage Studio</title>
  <meta name="description" content="${text(str(page.description))}">
  <link rel="stylesheet" href="/site.css">
  <link rel="icon" href="data:,">
  <script type="module" src="/_inpage/loader.js"></script>
</head>
<body>
  <div class="page"${
    attributes(inpage.page(path), inpage.fields(["/description"]))
  }>
  <header class="top">
    <a class="brand" href="/${lang}/">Inpage Studio</a>
    <nav class="pages"${attributes(inpage.list("/nav"))}>${nav}</nav>
    <nav class="languages" aria-label="Language">${languages}</nav>
  </header>
  ${
    broken
      ? `<p class="broken" role="note">${labels.broken}</p>\n  `
      : ""
  }<main>
    <section class="hero">
      <div class="hero-text">
        <h1${attributes(inpage.text("/title"))}>${text(str(page.title))}</h1>
        <div class="lead prose"${attributes(inpage.html("/lead"))}>${
    rich(page.lead)
  }</div>
        ${cta}
      </div>
      ${image}
    </section>
    <div class="sections"${attributes(inpage.list("/sections"))}>${sections}
    </div>
  </main>
  </div>
  <footer class="bottom">${labels.footer}</footer>
</body>
</html>
`;
}

/** An object of the page, or an empty one (a hand edit may put anything). */
function record(value: unknown): Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value)
    ? value as Record<string, unknown>
    : {};
}

/** The attribute objects of the regions helper, written escaped. */
function attributes(...objects: object[]): string {
  let out = "";
  for (const object of objects) {
    for (const [name, value] of Object.entries(object)) {
      out += ` ${name}="${text(String(value))}"`;
    }
  }
  return out;
}

/** Attributes from a link object: every string, number or boolean value. */
function spread(link: Record<string, unknown>): string {
  let out = "";
  for (const [name, value] of Object.entries(link)) {
    if (!/^[a-z][a-z0-9-]*$/i.test(name)) continue;
    if (typeof value === "string" || typeof value === "number") {
      out += ` ${name}="${text(String(value))}"`;
    } else if (value === true) out += ` ${name}`;
  }
  return out;
}

/** Escapes text for an element's content or a quoted attribute. */
function text(value: string): string {
  return value.replace(
    /[&<>"']/g,
    (character) => `&#${character.charCodeAt(0)};`,
  );
}

function html(status: number, body: string | null): Response {
  return new Response(body, {
    status,
    headers: {
      "content-type": "text/html; charset=utf-8",
      "cache-control": "no-store",
      "x-content-type-options": "nosniff",
    },
  });
}

function redirect(url: URL, pathname: string): Response {
  return new Response(null, {
    status: 302,
    headers: { location: pathname + url.search },
  });
}
