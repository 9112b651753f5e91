/**
 * Publishing a review, or closing it unpublished. A publish applies each
 * page's field changes (base: the page the review was made from; mine:
 * the review's page; theirs: the site branch's page now) through the
 * package's one per-field merge (`lib/wire/merge.ts`), checks the merged
 * pages against the page rules, and commits them with the images the
 * review carries in one commit on the site branch; a field changed on both
 * sides publishes nothing. Then the review is closed: its pull request
 * commented on and closed (GitHub), its branch deleted, its record marked.
 * A publish or close under way holds the review (a claim in its record),
 * so that two cannot run at once.
 *
 * @module
 */

import { type Env, logNotice, now } from "../http/env.ts";
import { kvOf } from "../access/kv_binding.ts";
import { mediaSources } from "../pages/media_sources.ts";
import { loadPageRules } from "../pages/load.ts";
import type { PageRuleOptions } from "../pages/page_rules.ts";
import {
  type CommitFile,
  ConflictError,
  RepositoryError,
  type RepositoryFile,
} from "../repository/repository.ts";
import { type Choice, type JsonObject, mergePages } from "../wire/merge.ts";
import type {
  ReviewField,
  ReviewPublished,
  ReviewSettle,
} from "../wire/review.ts";
import { CONTENT_MAX, REVIEW_CLAIM_MS } from "../limits.ts";
import { reviewRepository } from "./create.ts";
import {
  refusedPage,
  ReviewError,
  type ReviewPageProblems,
} from "./review_error.ts";
import { closedComment, publishedComment } from "./review_text.ts";
import {
  changeReview,
  closeReview,
  type ReviewPageRecord,
  type ReviewPerson,
  type ReviewRecord,
} from "./store.ts";

/** Commits tried when another publish lands between the read and the commit. */
const MERGE_ATTEMPTS = 3;

type Repo = ReturnType<typeof reviewRepository>;

/** How a review is published. */
export interface PublishOptions extends PageRuleOptions {
  /** Whether its schedule publishes it (the pull request's comment says so). */
  readonly scheduled?: boolean | undefined;
  /**
   * How a person settled the clashes of an earlier attempt: used for each
   * page still at the version they chose against.
   */
  readonly settle?: ReviewSettle | undefined;
}

/**
 * Publishes a review in one commit on the site branch, then closes it.
 *
 * @param env the host's bindings
 * @param id the review's id
 * @param publisher who publishes it (for the pull request's comment)
 * @param options the site's page rules (`templateSyntax`), and whether its
 *   schedule publishes it
 * @returns the commit and each page's new version
 * @throws {ReviewError} `not_found`, `conflict` (with `fields`), `busy`
 *   (another publish of it is under way), `invalid_content` (with `pages`)
 * @throws {RepositoryError} when the repository refuses or does not answer
 */
export async function publishReview(
  env: Env,
  id: string,
  publisher: ReviewPerson,
  options: PublishOptions = {},
): Promise<ReviewPublished> {
  const scheduled = options.scheduled ?? false;
  const repository = reviewRepository(env);
  const record = await claim(env, id);
  let published: ReviewPublished;
  try {
    published = await applyReview(repository, record, options);
  } catch (error) {
    await release(env, id);
    throw error;
  }
  await tidy(env, repository, record, async () => {
    if (record.pull !== undefined) {
      await repository.closePullRequest?.(
        record.pull,
        publishedComment(published.commit, publisher, scheduled),
      );
    }
  });
  await closeReview(kvOf(env), id, now(env), published.commit);
  return published;
}

/**
 * Closes a review without publishing it: its pull request (with a comment)
 * and its branch, then its record.
 *
 * @param env the host's bindings
 * @param id the review's id
 * @param editor who closes it: a publisher, or the review's author
 * @throws {ReviewError} `not_found`; `not_the_author` for an author closing
 *   another's review; `busy` while a publish of it is under way
 * @throws {RepositoryError} when the branch cannot be deleted
 */
export async function closeUnpublished(
  env: Env,
  id: string,
  editor: ReviewPerson & { role: string },
): Promise<void> {
  const repository = reviewRepository(env);
  const record = await claim(env, id, (held) => {
    if (editor.role !== "publisher" && held.author.id !== editor.id) {
      throw new ReviewError(
        "not_the_author",
        `${editor.id} may not close ${held.author.id}'s review`,
      );
    }
  });
  try {
    if (record.pull !== undefined) {
      await repository.closePullRequest?.(record.pull, closedComment(editor));
    }
    await repository.deleteBranch(record.branch);
  } catch (error) {
    await release(env, id);
    throw error;
  }
  await closeReview(kvOf(env), id, now(env));
}

/** Takes a review for a publish or a close: refused while another holds it. */
async function claim(
  env: Env,
  id: string,
  check?: (record: ReviewRecord) => void,
): Promise<ReviewRecord> {
  const time = now(env);
  return await changeReview(kvOf(env), id, (record) => {
    check?.(record);
    if (record.claim !== undefined && record.claim > time) {
      throw new ReviewError("busy", `review ${id} is being published`);
    }
    return { ...record, claim: time + REVIEW_CLAIM_MS };
  });
}

/** Lets a review go after a publish or close that did not happen. */
async function release(env: Env, id: string): Promise<void> {
  await changeReview(kvOf(env), id, ({ claim: _, ...record }) => record)
    .catch(() => {}); // the claim ends by itself
}

/** Runs a clean-up step after a publish; a failure is a log line only. */
async function tidy(
  env: Env,
  repository: Repo,
  record: ReviewRecord,
  closePull: () => Promise<void>,
): Promise<void> {
  for (
    const [what, step] of [
      ["pull request", closePull],
      ["branch", () => repository.deleteBranch(record.branch)],
    ] as const
  ) {
    try {
      await step();
    } catch (error) {
      logNotice(
        env,
        `review ${record.id} published; its ${what} was not closed: ${
          error instanceof Error ? error.message : String(error)
        }`,
      );
    }
  }
}

/** Merges and commits, again when another publish landed meanwhile. */
async function applyReview(
  repository: Repo,
  record: ReviewRecord,
  rules: PublishOptions,
): Promise<ReviewPublished> {
  for (let attempt = 1;; attempt++) {
    const files = await mergedFiles(repository, record, rules);
    try {
      const { commit, versions } = await repository.commit(files, {
        message: record.message,
        author: { name: record.author.name, email: record.author.email },
      });
      const pages = Object.fromEntries(
        record.pages.map(({ path }) => [path, versions[path] ?? ""]),
      );
      return { commit, versions: pages };
    } catch (error) {
      if (!(error instanceof ConflictError) || attempt >= MERGE_ATTEMPTS) {
        throw error;
      }
    }
  }
}

/** One page's three sides. */
interface Sides {
  page: ReviewPageRecord;
  base: RepositoryFile | null;
  mine: RepositoryFile;
  theirs: RepositoryFile | null;
}

/** The files of the publish: the merged pages and the images they name. */
async function mergedFiles(
  repository: Repo,
  record: ReviewRecord,
  rules: PublishOptions,
): Promise<CommitFile[]> {
  const sides = await Promise.all(
    record.pages.map((page) => sidesOf(repository, record, page)),
  );
  const clashes: ReviewField[] = [];
  const merged: { sides: Sides; page: JsonObject | Uint8Array }[] = [];
  for (const side of sides) {
    const result = mergeOne(side, choicesFor(rules.settle, side));
    if (Array.isArray(result)) {
      clashes.push(
        ...result.map((pointer) => ({ path: side.page.path, pointer })),
      );
    } else merged.push({ sides: side, page: result });
  }
  if (clashes.length > 0) {
    throw new ReviewError(
      "conflict",
      `${clashes.length} fields changed on both sides`,
      { fields: clashes },
    );
  }
  const files = await checkedPages(merged, rules);
  const named = new Set(
    files.flatMap((file) =>
      mediaSources(
        JSON.parse(new TextDecoder().decode(file.content as Uint8Array)),
      )
    ),
  );
  for (const image of record.images) {
    const name = image.path.slice(image.path.lastIndexOf("/") + 1);
    if (!named.has(name)) continue;
    files.push({
      path: image.path,
      content: { staged: image.staged },
      expected: null,
    });
  }
  return files;
}

async function sidesOf(
  repository: Repo,
  record: ReviewRecord,
  page: ReviewPageRecord,
): Promise<Sides> {
  const [mine, base, theirs] = await Promise.all([
    repository.readAtCommit(page.path, record.commit),
    page.base === ""
      ? Promise.resolve(null)
      : repository.readAtCommit(page.path, record.parent),
    repository.read(page.path),
  ]);
  if (mine === null || (page.base !== "" && base === null)) {
    throw new RepositoryError(
      "unavailable",
      `review ${record.id} cannot be read: ${page.path} is missing at its commit`,
    );
  }
  return { page, base, mine, theirs };
}

function parsed(file: RepositoryFile): JsonObject | undefined {
  try {
    const value = JSON.parse(new TextDecoder().decode(file.content));
    return typeof value === "object" && value !== null && !Array.isArray(value)
      ? value
      : undefined;
  } catch {
    return undefined;
  }
}

/**
 * One page merged: the review's bytes as they are when the site branch's
 * page is still the base; else the merged object; or the clashing
 * pointers (`""`: the whole page, created or removed meanwhile).
 */
function mergeOne(
  side: Sides,
  choices?: ReadonlyMap<string, Choice>,
): JsonObject | Uint8Array | string[] {
  const { base, mine, theirs } = side;
  if ((theirs?.version ?? "") === side.page.base) return mine.content;
  if (base === null || theirs === null) return [""];
  const [before, after, now] = [parsed(base), parsed(mine), parsed(theirs)];
  if (!before || !after || !now) return [""];
  const result = mergePages(before, after, now, choices);
  return result.ok ? result.page : result.clashes;
}

/**
 * The choices settled for a page (`mine`: the review's value; `theirs`:
 * the site's), when the page is still at the version they were made
 * against; none otherwise.
 */
function choicesFor(
  settle: ReviewSettle | undefined,
  side: Sides,
): ReadonlyMap<string, Choice> | undefined {
  const path = side.page.path;
  if (!settle || !Object.hasOwn(settle.versions, path)) return undefined;
  if (settle.versions[path] !== (side.theirs?.version ?? "")) return undefined;
  return new Map(
    settle.keep.filter((field) => field.path === path).map((field) => [
      field.pointer,
      field.side === "review" ? "mine" : "theirs",
    ]),
  );
}

/**
 * The merged pages through the page rules of the site as it is now, each
 * with its condition. A page the merge left as the review sent it is
 * checked too (the site's rules may have changed since), and committed as
 * the review's bytes.
 */
async function checkedPages(
  merged: readonly { sides: Sides; page: JsonObject | Uint8Array }[],
  rules: PageRuleOptions,
): Promise<CommitFile[]> {
  const { pageRules, PageRuleError } = await loadPageRules();
  const files: CommitFile[] = [];
  const refused: ReviewPageProblems[] = [];
  for (const { sides, page } of merged) {
    const path = sides.page.path;
    const expected = sides.theirs?.version ?? "";
    try {
      let bytes: Uint8Array;
      if (page instanceof Uint8Array) {
        // As the review sent it: checked, and committed as it is.
        pageRules(new TextDecoder().decode(page), undefined, rules);
        bytes = page;
      } else {
        const text = pageRules(JSON.stringify(page), undefined, rules);
        bytes = new TextEncoder().encode(text);
      }
      if (bytes.byteLength > CONTENT_MAX) {
        const problem = { at: "", reason: "size" };
        refused.push({ path, ...problem, problems: [problem] });
        continue;
      }
      files.push({ path, content: bytes, expected });
    } catch (error) {
      if (!(error instanceof PageRuleError)) throw error;
      refused.push(refusedPage(path, error));
    }
  }
  if (refused.length > 0) {
    throw new ReviewError(
      "invalid_content",
      `the merged pages break the page rules: ${
        refused.map((page) => page.path).join(", ")
      }`,
      { pages: refused },
    );
  }
  return files;
}
