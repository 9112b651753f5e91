/**
 * What a review says on GitHub: its pull request's description (the
 * changed fields per page) and the comments that close it. Markdown built
 * from names the package checked (page paths, image names) and from the
 * editors' names and the pages' keys, shown in code spans so that nothing
 * in them is read as markup or mentions anyone.
 *
 * @module
 */

import { REVIEW_FIELDS_LISTED_MAX } from "../limits.ts";
import type { ReviewPerson } from "./store.ts";

/** One page of a review, as its pull request describes it. */
export interface PageChange {
  /** The page's path. */
  path: string;
  /** The fields it changes (JSON Pointers); `null` for a new page. */
  fields: string[] | null;
}

/** Some text as a Markdown code span that no backtick inside can end. */
export function code(text: string): string {
  const flat = text.replace(/[\r\n]+/g, " ");
  const runs = flat.match(/`+/g) ?? [];
  const fence = "`".repeat(
    Math.max(0, ...runs.map((run) => run.length)) + 1,
  );
  const pad = flat.startsWith("`") || flat.endsWith("`") ? " " : "";
  return `${fence}${pad}${flat}${pad}${fence}`;
}

/**
 * The description of a review's pull request.
 *
 * @example
 * ```ts
 * import { pullBody } from "./review_text.ts";
 * import assert from "node:assert/strict";
 *
 * const body = pullBody(
 *   { id: "alice", name: "Alice Martin", email: "alice@example.com" },
 *   [{ path: "src/content/pages/en/about.json", fields: ["/title"] }],
 *   [],
 * );
 * assert.ok(body.includes("- `src/content/pages/en/about.json`: `/title`"));
 * ```
 *
 * @param author who sent it
 * @param pages each page and the fields it changes
 * @param images the images it adds
 * @returns the Markdown
 */
export function pullBody(
  author: ReviewPerson,
  pages: readonly PageChange[],
  images: readonly string[],
): string {
  const lines = [
    `Sent for review by ${code(author.name)} with the in-page editor.`,
    "",
    "Changed fields:",
    "",
  ];
  for (const page of pages) {
    if (page.fields === null) {
      lines.push(`- ${code(page.path)}: a new page`);
      continue;
    }
    const listed = page.fields.slice(0, REVIEW_FIELDS_LISTED_MAX).map((
      field,
    ) => code(field === "" ? "(the whole page)" : field));
    const more = page.fields.length - listed.length;
    lines.push(
      `- ${code(page.path)}: ${listed.join(", ")}${
        more > 0 ? ` and ${more} more` : ""
      }`,
    );
  }
  if (images.length > 0) {
    lines.push("", `Images: ${images.map(code).join(", ")}`);
  }
  lines.push(
    "",
    "Publish it, schedule it or close it from the site's Reviews panel: a publish applies its fields to the pages as they are then, in one commit, and closes this pull request.",
  );
  return lines.join("\n");
}

/**
 * The comment that closes a published review's pull request.
 *
 * @param commit the commit on the site branch
 * @param publisher who published it
 * @param scheduled whether its schedule published it
 * @returns the Markdown
 */
export function publishedComment(
  commit: string,
  publisher: ReviewPerson,
  scheduled: boolean,
): string {
  return `Published in ${commit} by ${code(publisher.name)}${
    scheduled ? " as scheduled" : ""
  }, with the in-page editor.`;
}

/**
 * The comment that closes a review's pull request without publishing it.
 *
 * @param editor who closed it
 * @returns the Markdown
 */
export function closedComment(editor: ReviewPerson): string {
  return `Closed without publishing by ${
    code(editor.name)
  }, with the in-page editor.`;
}
