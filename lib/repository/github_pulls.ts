/**
 * The GitHub repository's pull requests, for reviews: one opened from an
 * `inpage/…` branch into the site branch (`POST /repos/{owner}/{repo}/pulls`
 * with `title`, `head`, `base` and `body`, answered 201 with its `number`),
 * and closed without merging after a comment saying why (`POST
 * /repos/{owner}/{repo}/issues/{number}/comments`, answered 201, then
 * `PATCH /repos/{owner}/{repo}/pulls/{number}` with `state: "closed"`,
 * answered 200). The token needs "Pull requests: read and write" besides
 * "Contents" (a GitHub App, the same permission).
 *
 * @module
 */

import {
  isOwnBranch,
  type PullRequestInit,
  RepositoryError,
} from "./repository.ts";
import { type GitHubTransport, isRecord } from "./github_transport.ts";

/** Longest pull request body sent (GitHub's limit is 65,536 characters). */
const BODY_MAX = 60_000;

/** How the pull request calls reach one repository. */
export interface PullOptions {
  /** `{apiUrl}/repos/{owner}/{name}/`. */
  repo: string;
  /** The site branch, the base of every pull request. */
  branch: string;
  /** The bound on one call, in milliseconds. */
  timeoutMs: number;
}

/** The pull request calls of one GitHub repository. */
export class GitHubPulls {
  readonly #http: GitHubTransport;
  readonly #options: PullOptions;

  /**
   * Makes the calls; nothing is sent yet.
   *
   * @param http the transport
   * @param options the repository, its site branch and the bound on a call
   */
  constructor(http: GitHubTransport, options: PullOptions) {
    this.#http = http;
    this.#options = options;
  }

  /**
   * Opens a pull request from an `inpage/…` branch into the site branch.
   *
   * @param pull the branch, title and body
   * @returns its number
   * @throws {RepositoryError} when GitHub refuses or does not answer
   */
  async open(pull: PullRequestInit): Promise<number> {
    if (!isOwnBranch(pull?.branch)) {
      throw new RepositoryError(
        "unauthorized",
        "Refused branch (a pull request comes from an inpage/… branch)",
      );
    }
    const what = `the pull request of ${pull.branch}`;
    const signal = AbortSignal.timeout(this.#options.timeoutMs);
    const response = await this.#http.request({
      what,
      method: "POST",
      url: `${this.#options.repo}pulls`,
      json: {
        title: pull.title,
        head: pull.branch,
        base: this.#options.branch,
        body: pull.body.slice(0, BODY_MAX),
      },
      signal,
    });
    if (response.status !== 201) {
      throw await this.#failure(signal, what, response);
    }
    const body = await this.#http.bodyJson(signal, what, response);
    const number = isRecord(body) ? body.number : undefined;
    if (typeof number !== "number" || !Number.isSafeInteger(number)) {
      throw this.#http.unavailable(`GitHub answered ${what} without a number`);
    }
    return number;
  }

  /**
   * Comments on a pull request, then closes it without merging.
   *
   * @param number the pull request's number
   * @param comment the comment
   * @throws {RepositoryError} when GitHub refuses or does not answer
   */
  async close(number: number, comment: string): Promise<void> {
    if (!Number.isSafeInteger(number) || number < 1) {
      throw new TypeError("A pull request's number is a positive integer");
    }
    const signal = AbortSignal.timeout(this.#options.timeoutMs * 2);
    const commented = `the comment on pull request ${number}`;
    const said = await this.#http.request({
      what: commented,
      method: "POST",
      url: `${this.#options.repo}issues/${number}/comments`,
      json: { body: comment.slice(0, BODY_MAX) },
      signal,
    });
    if (said.status !== 201) {
      throw await this.#failure(signal, commented, said);
    }
    await this.#http.discard(said);
    const closing = `the closing of pull request ${number}`;
    const closed = await this.#http.request({
      what: closing,
      method: "PATCH",
      url: `${this.#options.repo}pulls/${number}`,
      json: { state: "closed" },
      signal,
    });
    if (closed.status !== 200) {
      throw await this.#failure(signal, closing, closed);
    }
    await this.#http.discard(closed);
  }

  /** A failed answer: never a conflict (no file's version is at stake). */
  async #failure(
    signal: AbortSignal,
    what: string,
    response: Response,
  ): Promise<Error> {
    const error = await this.#http.failure(signal, what, response, false);
    if (response.status === 404 && error instanceof RepositoryError) {
      return new RepositoryError("not_found", error.message);
    }
    return error;
  }
}
