/**
 * The realistic 100 KB page the page-rule benchmarks publish.
 *
 * @module
 */

const PAGE_BYTES = 100_000;

/**
 * A page of sections with rich text (about half of its bytes), media, links
 * and ids, just under 100,000 bytes of compact JSON; with `markdown`, its
 * rich text is markdown (links, an image, a list) instead of HTML.
 *
 * @param variant where its numbering starts, so that pages differ
 * @param markdown whether its rich text is markdown
 * @returns the page as compact JSON
 */
export function realisticPage(variant = 0, markdown = false): string {
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
      body: markdown
        ? `We fire our **stoneware** at 1280 °C, see ` +
          `[the classes](/classes/beginners "Beginners") or ` +
          `[our glaze notes](https://example.org/glazes?page=${index}&sort=new).` +
          `\n\n![A bowl](/images/bowl-${index}.webp)\n\n` +
          `- Clay **prepared** on site\n- Kilns *checked* weekly\n`
        : `<p>We fire our <strong>stoneware</strong> at 1280 °C, ` +
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
