/**
 * Publishing a realistic 100 KB page: `pageRules` against the least any
 * publish must do with the same text, `JSON.parse` then
 * `JSON.stringify(…, null, 2)`.
 *
 * `pageRules` keeps no verdict from one call to the next: the only thing it
 * remembers across pages is how parse5 reads a character reference such as
 * `&amp;` (`lib/pages/character_reference.ts`), a bounded cache of readings of
 * references, not of strings. So that no memory of a page can flatter it,
 * the second group publishes a different page at every iteration (every id,
 * heading, image, alt and rich-text string differs from the other pages');
 * its figures are the headline, the first group's (the same page every time)
 * are there to compare.
 *
 * @module
 */

import { pageRules } from "../lib/pages/page_rules.ts";

const PAGE_BYTES = 100_000;

/**
 * A page of sections with rich text (about half of its bytes), media, links
 * and ids, just under 100,000 bytes of compact JSON.
 */
function realisticPage(variant = 0): string {
  const sections: unknown[] = [];
  const page = {
    title: "Our workshop — pottery & ceramics",
    description: "Hand-made stoneware, classes and commissions in the old town",
    hero: {
      src: "workshop-front-2024.jpg",
      width: 1600,
      height: 900,
      alt: "The workshop seen from the street",
    },
    sections,
  };
  for (let index = variant; sections.length < 1000; index++) {
    const section = {
      id: `section-${index}`,
      type: index % 3 === 0 ? "gallery" : "text",
      heading: `Chapter ${index}: glazes, kilns and patience`,
      body: `<p>We fire our <strong>stoneware</strong> at 1280 °C, ` +
        `see <a href="/classes/beginners" title="Beginners">the classes</a> ` +
        `or <a href="https://example.org/glazes?page=${index}&amp;sort=new">` +
        `our glaze notes</a>.<br>Bookings &amp; questions: ` +
        `<em>every day</em> but Monday.</p>` +
        `<ul><li>Clay <b>prepared</b> on site</li><li>Kilns <i>checked</i> ` +
        `weekly</li></ul>`,
      image: {
        src: `bowl-${index}.webp`,
        width: 1200,
        height: 800,
        alt: `Bowl number ${index}, celadon glaze`,
      },
      links: [
        { label: "Contact", href: "mailto:hello@example.org" },
        { label: "Call us", href: "tel:+33123456789" },
        { label: "Top", href: "#top" },
      ],
      published: index % 2 === 0,
      order: index,
    };
    sections.push(section);
    if (new TextEncoder().encode(JSON.stringify(page)).length > PAGE_BYTES) {
      sections.pop();
      break;
    }
  }
  return JSON.stringify(page);
}

const content = realisticPage();
/** Pages whose strings all differ from one another, published in turn. */
const variants = Array.from(
  { length: 8 },
  (_, index) => realisticPage(1_000 * (index + 1)),
);
let next = 0;
let nextBaseline = 0;

Deno.bench({
  name: "JSON.parse + JSON.stringify (baseline)",
  group: "publish-100kb",
  baseline: true,
  fn() {
    JSON.stringify(JSON.parse(content), null, 2);
  },
});

Deno.bench({
  name: "pageRules",
  group: "publish-100kb",
  fn() {
    pageRules(content);
  },
});

Deno.bench({
  name: "JSON.parse + JSON.stringify (baseline), a different page each time",
  group: "publish-100kb-different-pages",
  baseline: true,
  fn() {
    const page = variants[nextBaseline++ % variants.length] as string;
    JSON.stringify(JSON.parse(page), null, 2);
  },
});

Deno.bench({
  name: "pageRules, a different page each time",
  group: "publish-100kb-different-pages",
  fn() {
    pageRules(variants[next++ % variants.length] as string);
  },
});
