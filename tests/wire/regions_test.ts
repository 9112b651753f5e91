/**
 * The region contract (`lib/wire/regions.ts`) is the one home of what each
 * kind of region edits: the overlay (which regions it makes editable),
 * `editor check --html` (which regions fit their page file) and the regions
 * helper (the attributes templates write) agree on every kind and value,
 * an image's `src` and `alt` and a link's `title` included.
 */
import assert from "node:assert/strict";
import { join } from "node:path";
import { checkHtml } from "../../cli/check_html.ts";
import {
  INPAGE_ATTRIBUTES,
  REGION_KIND_NAMES,
  REGION_KINDS,
  type RegionKind,
} from "../../lib/wire/regions.ts";
import { regionFit } from "../../overlay/state/fields.ts";
import { inpage, region } from "../../regions/mod.ts";

/** Values each kind is tried against. */
const VALUES: Record<string, unknown> = {
  text: "Hello",
  html: "<p>Hi</p>",
  number: 3,
  nothing: null,
  list: [{ id: "a" }],
  media: { src: "a-0123456789ab.png", width: 4, height: 3, alt: "A" },
  bareMedia: { src: "a-0123456789ab.png" },
  noSrc: { alt: "no src" },
  numberAlt: { src: "a-0123456789ab.png", alt: 7 },
  stringWidth: { src: "a-0123456789ab.png", width: "4" },
  link: { href: "/about/", title: "About" },
  bareLink: { href: "/about/" },
  numberTitle: { href: "/about/", title: 42 },
  noHref: { title: "x" },
};

const KINDS: readonly RegionKind[] = ["text", "html", "image", "link", "list"];

Deno.test("the overlay and editor check --html decide alike, from the contract, which values each kind of region edits", async () => {
  const repo = await Deno.makeTempDir();
  try {
    await Deno.mkdir(join(repo, "src/content/pages/en"), { recursive: true });
    await Deno.mkdir(join(repo, "dist"));
    const path = "src/content/pages/en/home.json";
    await Deno.writeTextFile(join(repo, path), JSON.stringify(VALUES));
    const cases = KINDS.flatMap((kind) =>
      Object.keys(VALUES).map((key) => ({ kind, pointer: `/${key}` }))
    );
    const elements = cases.map(({ kind, pointer }) =>
      `<div ${REGION_KINDS[kind].attribute}="${pointer}"></div>`
    ).join("");
    await Deno.writeTextFile(
      join(repo, "dist/index.html"),
      `<main ${INPAGE_ATTRIBUTES.page}="${path}">${elements}</main>`,
    );
    const report = await checkHtml({ html: join(repo, "dist"), repo });
    const refused = new Set(
      report.problems.map((problem) =>
        `${problem.reason.split(" ")[0]} ${problem.at}`
      ),
    );
    const disagree = cases.filter(({ kind, pointer }) => {
      const overlay = regionFit(VALUES, pointer, kind) === undefined;
      const check = !refused.has(`${REGION_KINDS[kind].attribute} ${pointer}`);
      return overlay !== check;
    }).map(({ kind, pointer }) => `${kind} ${pointer}`);
    assert.deepEqual(disagree, []);
    // The decisions themselves.
    assert.equal(regionFit(VALUES, "/noSrc", "image")?.reason, "kind");
    assert.equal(regionFit(VALUES, "/numberAlt", "image")?.reason, "kind");
    assert.equal(regionFit(VALUES, "/bareMedia", "image"), undefined);
    assert.equal(regionFit(VALUES, "/numberTitle", "link")?.reason, "kind");
    assert.equal(regionFit(VALUES, "/bareLink", "link"), undefined);
  } finally {
    await Deno.remove(repo, { recursive: true });
  }
});

Deno.test("every kind's attribute is a name of the contract, and the regions helper writes it", () => {
  const names = Object.values(INPAGE_ATTRIBUTES) as string[];
  for (const kind of REGION_KIND_NAMES) {
    assert.ok(names.includes(REGION_KINDS[kind].attribute), kind);
    if (kind === "fields") {
      assert.deepEqual(Object.keys(inpage.fields(["/a"])), [
        REGION_KINDS.fields.attribute,
      ]);
    } else {
      const pointer = kind === "item" ? "/a/0" : "/a";
      assert.deepEqual(Object.keys(region(kind, pointer)), [
        REGION_KINDS[kind].attribute,
      ]);
    }
  }
  assert.equal(new Set(names).size, names.length, "each name once");
});
