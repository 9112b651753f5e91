/**
 * Pull requests and their comments for the GitHub double, as GitHub
 * documents them (https://docs.github.com/rest/pulls/pulls and
 * https://docs.github.com/rest/issues/comments):
 *
 * - `POST /repos/{owner}/{repo}/pulls` with `title`, `head`, `base` (and an
 *   optional `body`): 201 with the pull request (`number`, `state: "open"`,
 *   `head` and `base` as `{ ref, sha, label }`, `merged: false`, …); 422
 *   `Validation Failed` with `errors` when `head` or `base` names no
 *   branch, when `head` holds no commit that `base` lacks (`No commits
 *   between main and …`), or when an open pull request comes from `head`
 *   already (`A pull request already exists for octo:…`);
 * - `GET` and `PATCH /repos/{owner}/{repo}/pulls/{number}` (`state`,
 *   `title`, `body`): 200 with the pull request, 404 for an unknown number;
 * - `POST /repos/{owner}/{repo}/issues/{number}/comments` with `body`: 201
 *   with the comment (pull requests are issues: they share the numbers);
 * - deleting a pull request's head branch closes it, as on GitHub.
 *
 * @module
 */

import type { GitState } from "./github_git_data.ts";

/** A pull request of the double. */
export interface DoublePull {
  /** Its number (shared with issues). */
  number: number;
  /** `open` or `closed`. */
  state: "open" | "closed";
  /** Its title. */
  title: string;
  /** Its description, `null` when none. */
  body: string | null;
  /** The branch holding the changes. */
  head: string;
  /** The branch it would merge into. */
  base: string;
  /** Its comments' bodies, oldest first. */
  comments: string[];
}

const PULLS_DOCS = "https://docs.github.com/rest/pulls/pulls";
const COMMENTS_DOCS = "https://docs.github.com/rest/issues/comments";

function json(status: number, body: unknown): Response {
  return new Response(JSON.stringify(body), {
    status,
    headers: { "content-type": "application/json; charset=utf-8" },
  });
}

function error(status: number, message: string, docs: string): Response {
  return json(status, {
    message,
    documentation_url: docs,
    status: String(status),
  });
}

function invalid(errors: Record<string, unknown>[], docs: string): Response {
  return json(422, {
    message: "Validation Failed",
    errors,
    documentation_url: docs,
    status: "422",
  });
}

async function bodyOf(
  request: Request,
): Promise<Record<string, unknown> | undefined> {
  try {
    const body = await request.json();
    return typeof body === "object" && body !== null && !Array.isArray(body)
      ? body
      : undefined;
  } catch {
    return undefined;
  }
}

/** The pull requests of one double, and the answers to their endpoints. */
export class DoublePulls {
  /** Every pull request, by number. */
  readonly pulls = new Map<number, DoublePull>();
  readonly #state: GitState;
  #next = 1;

  /**
   * Makes the store over the double's refs.
   *
   * @param state the double's branches and objects
   */
  constructor(state: GitState) {
    this.#state = state;
  }

  /** Closes the open pull requests whose head branch was deleted. */
  branchDeleted(branch: string): void {
    for (const pull of this.pulls.values()) {
      if (pull.head === branch) pull.state = "closed";
    }
  }

  #headOf(branch: string): string | undefined {
    return branch === this.#state.branch
      ? this.#state.head()
      : this.#state.refs.get(branch);
  }

  #json(base: string, pull: DoublePull) {
    const [owner] = this.#state.repository.split("/");
    const repo = `${base}/repos/${this.#state.repository}`;
    const end = (ref: string) => ({
      label: `${owner}:${ref}`,
      ref,
      sha: this.#headOf(ref) ?? "0".repeat(40),
    });
    return {
      url: `${repo}/pulls/${pull.number}`,
      id: 1_000_000 + pull.number,
      node_id: `PR_${pull.number}`,
      html_url:
        `https://github.example/${this.#state.repository}/pull/${pull.number}`,
      issue_url: `${repo}/issues/${pull.number}`,
      comments_url: `${repo}/issues/${pull.number}/comments`,
      number: pull.number,
      state: pull.state,
      locked: false,
      title: pull.title,
      body: pull.body,
      head: end(pull.head),
      base: end(pull.base),
      draft: false,
      merged: false,
      comments: pull.comments.length,
    };
  }

  /**
   * The answer of a pull request or comment call, or `undefined` when the
   * path is none of theirs.
   *
   * @param request the request
   * @param rest the path after `/repos/{owner}/{repo}/`
   * @param base the API root as the request reached it
   * @returns the answer
   */
  async answer(
    request: Request,
    rest: string,
    base: string,
  ): Promise<Response | undefined> {
    const method = request.method;
    if (rest === "pulls" && method === "POST") {
      return await this.#create(request, base);
    }
    let match = /^pulls\/(\d+)$/.exec(rest);
    if (match && (method === "GET" || method === "PATCH")) {
      const pull = this.pulls.get(Number(match[1]));
      if (!pull) return error(404, "Not Found", PULLS_DOCS);
      if (method === "PATCH") {
        const body = await bodyOf(request);
        if (!body) return error(400, "Problems parsing JSON", PULLS_DOCS);
        if (body.state !== undefined) {
          if (body.state !== "open" && body.state !== "closed") {
            return invalid([{
              resource: "PullRequest",
              field: "state",
              code: "invalid",
            }], PULLS_DOCS);
          }
          pull.state = body.state;
        }
        if (typeof body.title === "string") pull.title = body.title;
        if (typeof body.body === "string") pull.body = body.body;
      }
      return json(200, this.#json(base, pull));
    }
    match = /^issues\/(\d+)\/comments$/.exec(rest);
    if (match && method === "POST") {
      const pull = this.pulls.get(Number(match[1]));
      if (!pull) return error(404, "Not Found", COMMENTS_DOCS);
      const body = await bodyOf(request);
      if (!body) return error(400, "Problems parsing JSON", COMMENTS_DOCS);
      if (typeof body.body !== "string") {
        return error(
          422,
          `Invalid request.\n\n"body" wasn't supplied.`,
          COMMENTS_DOCS,
        );
      }
      pull.comments.push(body.body);
      const id = 2_000_000 + pull.comments.length * 100 + pull.number;
      const repo = `${base}/repos/${this.#state.repository}`;
      return json(201, {
        id,
        node_id: `IC_${id}`,
        url: `${repo}/issues/comments/${id}`,
        html_url:
          `https://github.example/${this.#state.repository}/pull/${pull.number}#issuecomment-${id}`,
        issue_url: `${repo}/issues/${pull.number}`,
        body: body.body,
        user: { login: "double", id: 1, type: "User" },
        created_at: new Date(Date.UTC(2026, 0, 2)).toISOString(),
        updated_at: new Date(Date.UTC(2026, 0, 2)).toISOString(),
        author_association: "OWNER",
      });
    }
    return undefined;
  }

  async #create(request: Request, base: string): Promise<Response> {
    const body = await bodyOf(request);
    if (!body) return error(400, "Problems parsing JSON", PULLS_DOCS);
    for (const field of ["title", "head", "base"]) {
      if (typeof body[field] !== "string") {
        return invalid([{
          resource: "PullRequest",
          field,
          code: "missing_field",
        }], PULLS_DOCS);
      }
    }
    const head = body.head as string;
    const into = body.base as string;
    const headSha = this.#headOf(head);
    const baseSha = this.#headOf(into);
    for (
      const [field, sha] of [["head", headSha], ["base", baseSha]] as const
    ) {
      if (sha === undefined) {
        return invalid([{
          resource: "PullRequest",
          field,
          code: "invalid",
        }], PULLS_DOCS);
      }
    }
    const [owner] = this.#state.repository.split("/");
    if (
      headSha === baseSha || this.#state.objects.descends(headSha!, baseSha!)
    ) {
      return invalid([{
        resource: "PullRequest",
        code: "custom",
        message: `No commits between ${into} and ${head}`,
      }], PULLS_DOCS);
    }
    if (
      [...this.pulls.values()].some((pull) =>
        pull.state === "open" && pull.head === head
      )
    ) {
      return invalid([{
        resource: "PullRequest",
        code: "custom",
        message: `A pull request already exists for ${owner}:${head}.`,
      }], PULLS_DOCS);
    }
    const pull: DoublePull = {
      number: this.#next++,
      state: "open",
      title: body.title as string,
      body: typeof body.body === "string" ? body.body : null,
      head,
      base: into,
      comments: [],
    };
    this.pulls.set(pull.number, pull);
    return json(201, this.#json(base, pull));
  }
}
