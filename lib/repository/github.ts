/**
 * The GitHub implementation of `Repository`, over the REST "repository
 * contents" API (`GET` and `PUT /repos/{owner}/{repo}/contents/{path}`).
 * Host-agnostic: only `fetch` and Web APIs. The options are checked in
 * `github_options.ts`, failed answers mapped by the table in
 * `github_status.ts`.
 *
 * @module
 */

import {
  type CommitAuthor,
  ConflictError,
  gitBlobSha,
  type HistoryEntry,
  type HistoryOptions,
  type Repository,
  RepositoryError,
  type RepositoryFile,
} from "./repository.ts";
import { nextLink, retryAfterOf } from "./github_history.ts";
import { decodeBase64, encodeBase64 } from "../encoding/bytes.ts";
import { VERSION } from "../version.ts";
import {
  type GitHubOptions,
  type ParsedGitHubOptions,
  parseGitHubOptions,
} from "./github_options.ts";
import { failureOf } from "./github_status.ts";

export {
  type GitHubOptionName,
  type GitHubOptions,
  invalidGitHubOptions,
} from "./github_options.ts";

const API_VERSION = "2022-11-28";
const USER_AGENT = `inpage-editor/${VERSION}`;
const RETRY_DELAY_MS = 100;
const BLOB_SHA = /^[0-9a-f]{40}$/;
/** Pages of the commits list followed at most for one history answer. */
const HISTORY_PAGES_MAX = 4;
/** Versions at past commits looked up at once. */
const VERSIONS_AT_ONCE = 4;
/** Versions at past commits kept (they never change). */
const VERSIONS_KEPT = 10_000;

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

/**
 * Settles with `work`, or rejects with the signal's reason once it aborts,
 * even when `work` itself ignores the signal.
 */
function within<T>(signal: AbortSignal, work: Promise<T>): Promise<T> {
  work.catch(() => {});
  if (signal.aborted) return Promise.reject(signal.reason);
  return new Promise<T>((resolve, reject) => {
    const stop = () => reject(signal.reason);
    signal.addEventListener("abort", stop, { once: true });
    work.then(resolve, reject).finally(() =>
      signal.removeEventListener("abort", stop)
    );
  });
}

/** Waits `ms`, or rejects once the signal aborts. */
function sleep(signal: AbortSignal, ms: number): Promise<void> {
  let timer: ReturnType<typeof setTimeout> | undefined;
  return within(
    signal,
    new Promise<void>((resolve) => timer = setTimeout(resolve, ms)),
  ).finally(() => clearTimeout(timer));
}

/**
 * A `Repository` over GitHub's REST contents API. Options are checked once,
 * here.
 *
 * - A version is GitHub's blob `sha`; a read checks it against the bytes.
 * - A read answered 404 is `null` (GitHub also answers 404 for a missing
 *   branch or a repository the token cannot see); a directory, a symlink or
 *   a malformed answer is `RepositoryError("unavailable")`. A file over 1 MB
 *   (`encoding: "none"`) is read again with the raw media type. A read is
 *   retried once after a 5xx answer; a write never is.
 * - A write answered 409, or 422 about the `sha`, is a `ConflictError`; 401
 *   and 403 are `unauthorized`, except a rate limit (403 or 429 with
 *   `x-ratelimit-remaining: 0`, `retry-after` or a rate-limit message), which
 *   is `unavailable`, as are 5xx, network errors, malformed answers and
 *   timeouts; 404 on a write is `not_found`.
 * - The token never appears in an error.
 *
 * @param options the token, repository and optional branch, API root, timeout and fetch
 * @returns the repository
 * @throws {TypeError} when an option is malformed (the message never holds a value)
 * @throws {RangeError} when `timeoutMs` is out of range
 * @example
 * ```ts
 * import { createGitHubRepository } from "./github.ts";
 * import assert from "node:assert/strict";
 *
 * const repository = createGitHubRepository({
 *   token: "github_pat_example",
 *   repository: "octo/site",
 * });
 * assert.equal(typeof repository.read, "function");
 * ```
 */
export function createGitHubRepository(options: GitHubOptions): Repository {
  const contents = new GitHubContents(parseGitHubOptions(options));
  return Object.freeze({
    read: (path: string) => contents.read(path),
    write: (
      path: string,
      content: Uint8Array,
      expected: string,
      message: string,
      author?: CommitAuthor,
    ) => contents.write(path, content, expected, message, author),
    history: (path: string, options: HistoryOptions) =>
      contents.history(path, options),
    readAt: (path: string, commit: string) => contents.readAt(path, commit),
  });
}

/** The calls of one GitHub repository, over its checked options. */
class GitHubContents {
  readonly #token: string;
  readonly #branch: string;
  readonly #root: string;
  readonly #send: typeof fetch;
  readonly #timeoutMs: number;
  readonly #repo: string;
  readonly #api: string;
  readonly #versions = new Map<string, string>();
  /** Commits known to be on the branch's history (it only grows). */
  readonly #onBranch = new Set<string>();

  constructor(options: ParsedGitHubOptions) {
    this.#token = options.token;
    this.#branch = options.branch;
    this.#api = `${options.apiUrl}/`;
    this.#repo = `${options.apiUrl}/repos/${
      encodeURIComponent(options.owner)
    }/${encodeURIComponent(options.name)}/`;
    this.#root = `${this.#repo}contents/`;
    this.#send = options.fetch;
    this.#timeoutMs = options.timeoutMs;
  }

  /** Removes the this.#token from text bound for an error, and caps its length. */
  clean(text: string): string {
    return text.split(this.#token).join("[redacted]").replace(
      // Control characters would break a log line.
      // deno-lint-ignore no-control-regex
      /[\x00-\x1f\x7f]+/g,
      " ",
    ).slice(0, 300);
  }

  unavailable(detail: string): RepositoryError {
    return new RepositoryError("unavailable", this.clean(detail));
  }

  contentsUrl(path: string): string {
    const segments = typeof path === "string" ? path.split("/") : [];
    if (
      segments.length === 0 ||
      segments.some((segment) =>
        segment === "" || segment === "." || segment === ".."
      )
    ) {
      throw new TypeError("Repository path must be a relative file path");
    }
    try {
      return this.#root + segments.map(encodeURIComponent).join("/");
    } catch {
      throw new TypeError("Repository path must be well-formed Unicode");
    }
  }

  headers(accept: string, json = false): Headers {
    const result = new Headers({
      "Accept": accept,
      "Authorization": `Bearer ${this.#token}`,
      "User-Agent": USER_AGENT,
      "X-GitHub-Api-Version": API_VERSION,
    });
    if (json) result.set("Content-Type", "application/json");
    return result;
  }

  async call(
    signal: AbortSignal,
    what: string,
    url: string,
    init: RequestInit,
  ): Promise<Response> {
    try {
      return await within(signal, this.#send(url, { ...init, signal }));
    } catch (error) {
      if (signal.aborted) throw this.timedOut(what);
      throw this.unavailable(
        `GitHub could not be reached for ${what}: ${
          error instanceof Error ? `${error.name}: ${error.message}` : "unknown"
        }`,
      );
    }
  }

  async bodyText(
    signal: AbortSignal,
    what: string,
    response: Response,
  ): Promise<string> {
    try {
      return await within(signal, response.text());
    } catch {
      if (signal.aborted) throw this.timedOut(what);
      throw this.unavailable(`GitHub's answer to ${what} broke off`);
    }
  }

  async bodyJson(
    signal: AbortSignal,
    what: string,
    response: Response,
  ): Promise<unknown> {
    const text = await this.bodyText(signal, what, response);
    try {
      return JSON.parse(text);
    } catch {
      throw this.unavailable(`GitHub answered ${what} with malformed JSON`);
    }
  }

  async discard(response: Response): Promise<void> {
    try {
      await response.body?.cancel();
    } catch {
      // Nothing more to release.
    }
  }

  /** The error for an answer that is not a success, its body consumed. */
  async failure(
    signal: AbortSignal,
    what: string,
    response: Response,
    writing: boolean,
  ): Promise<Error> {
    const { status } = response;
    let message = "";
    try {
      const body: unknown = JSON.parse(
        await this.bodyText(signal, what, response),
      );
      if (isRecord(body) && typeof body.message === "string") {
        message = body.message;
      }
    } catch {
      if (signal.aborted) return this.timedOut(what);
      // A body that is not GitHub's JSON: the status decides alone.
    }
    const detail = `GitHub answered ${status} to ${what}${
      message ? `: ${message}` : ""
    }`;
    const rateLimited = response.headers.get("x-ratelimit-remaining") === "0" ||
      response.headers.has("retry-after") || /rate limit/i.test(message);
    const kind = failureOf({ status, message, rateLimited, writing });
    if (kind === "conflict") return new ConflictError(this.clean(detail));
    const wait = kind === "unavailable" && (status === 403 || status === 429)
      ? retryAfterOf(response.headers, Date.now())
      : undefined;
    return new RepositoryError(kind, this.clean(detail), wait);
  }

  timedOut(what: string): RepositoryError {
    return this.unavailable(
      `GitHub did not answer ${what} within ${this.#timeoutMs} ms`,
    );
  }

  /** A file over 1 MB: GitHub sends its bytes only with the raw media type. */
  async readRaw(
    signal: AbortSignal,
    what: string,
    url: string,
  ): Promise<RepositoryFile | null> {
    const response = await this.call(signal, what, url, {
      method: "GET",
      headers: this.headers("application/vnd.github.raw+json"),
    });
    if (response.status === 404) {
      await this.discard(response);
      return null;
    }
    if (response.status !== 200) {
      throw await this.failure(signal, what, response, false);
    }
    let content: Uint8Array;
    try {
      content = new Uint8Array(await within(signal, response.arrayBuffer()));
    } catch {
      if (signal.aborted) throw this.timedOut(what);
      throw this.unavailable(`GitHub's answer to ${what} broke off`);
    }
    // The file may have changed since the first answer: the version is
    // computed from the bytes returned, so it always describes them.
    return { content, version: gitBlobSha(content) };
  }

  async read(path: string): Promise<RepositoryFile | null> {
    const what = `the read of ${path}`;
    const file = await this.readRef(path, this.#branch, what);
    if (file === "link") {
      throw this.unavailable(`GitHub answered ${what} with a symbolic link`);
    }
    return file;
  }

  async readAt(path: string, commit: string): Promise<RepositoryFile | null> {
    if (typeof commit !== "string" || !BLOB_SHA.test(commit)) return null;
    // Only the branch's own history: not another branch, not a tag.
    if (!await this.isOnBranch(commit)) return null;
    return await this.readPast(path, commit);
  }

  /**
   * A file at a commit of the branch's history. An unknown commit is 404
   * (`No commit found for the ref …`), as is a file that commit did not
   * have: `null` either way; a symbolic link then is `null` too (never its
   * target's text).
   */
  async readPast(path: string, commit: string): Promise<RepositoryFile | null> {
    const file = await this.readRef(
      path,
      commit,
      `the read of ${path} at ${commit}`,
    );
    if (file === "link") return null;
    if (file) this.remember(commit, path, file.version);
    return file;
  }

  /**
   * Whether a commit is on the branch's history: GitHub's compare API,
   * `{branch}...{commit}`, answers `behind` (or `identical`) with the commit
   * itself as the merge base. An annotated tag's id is peeled to its
   * commit there, another id: not one. Answers found so are kept.
   */
  async isOnBranch(commit: string): Promise<boolean> {
    if (this.#onBranch.has(commit)) return true;
    const what = `the comparison of ${commit} with the branch`;
    const signal = AbortSignal.timeout(this.#timeoutMs);
    const response = await this.call(
      signal,
      what,
      `${this.#repo}compare/${
        encodeURIComponent(this.#branch)
      }...${commit}?per_page=1`,
      {
        method: "GET",
        headers: this.headers("application/vnd.github+json"),
      },
    );
    if (response.status === 404 || response.status === 422) {
      // No such commit, or nothing in common with the branch.
      await this.discard(response);
      return false;
    }
    if (response.status !== 200) {
      throw await this.failure(signal, what, response, false);
    }
    const body = await this.bodyJson(signal, what, response);
    const base = isRecord(body) ? body.merge_base_commit : undefined;
    const status = isRecord(body) ? body.status : undefined;
    if (typeof status !== "string" || !isRecord(base)) {
      throw this.unavailable(`GitHub answered ${what} without a comparison`);
    }
    const on = (status === "behind" || status === "identical") &&
      base.sha === commit;
    if (on) this.knownOnBranch([commit]);
    return on;
  }

  /** Notes commits found on the branch's history. */
  knownOnBranch(commits: readonly string[]): void {
    if (this.#onBranch.size + commits.length > VERSIONS_KEPT) {
      this.#onBranch.clear();
    }
    for (const commit of commits) this.#onBranch.add(commit);
  }

  remember(commit: string, path: string, version: string): void {
    if (this.#versions.size >= VERSIONS_KEPT) this.#versions.clear();
    this.#versions.set(`${commit}:${path}`, version);
  }

  /** The file's version at a commit: `""` when it had none. */
  async versionAt(path: string, commit: string): Promise<string> {
    const known = this.#versions.get(`${commit}:${path}`);
    if (known !== undefined) return known;
    const file = await this.readPast(path, commit);
    if (!file) this.remember(commit, path, "");
    return file?.version ?? "";
  }

  /**
   * The commits of the branch that changed a file, newest first, with the
   * REST commits list (`sha`, `path`, `per_page`), following its `Link`
   * header while a page comes back short; each entry's version is the
   * file's blob sha at that commit (the contents API with `ref`, kept once
   * known: it never changes).
   */
  async history(
    path: string,
    options: HistoryOptions,
  ): Promise<HistoryEntry[] | null> {
    this.contentsUrl(path); // checks the path
    const { before, limit } = options;
    if (before !== undefined && !BLOB_SHA.test(before)) return null;
    if (!Number.isSafeInteger(limit) || limit < 1) return [];
    // Only the branch's own history, also when paging back from a commit.
    if (before !== undefined && !await this.isOnBranch(before)) return null;
    const wanted = before === undefined ? limit : limit + 1;
    const query = new URLSearchParams({
      sha: before ?? this.#branch,
      path,
      per_page: String(Math.min(100, wanted)),
    });
    const what = `the history of ${path}`;
    const signal = AbortSignal.timeout(this.#timeoutMs);
    const found: HistoryEntry[] = [];
    let url: string | undefined = `${this.#repo}commits?${query}`;
    for (let page = 0; url && page < HISTORY_PAGES_MAX; page++) {
      const response = await this.call(signal, what, url, {
        method: "GET",
        headers: this.headers("application/vnd.github+json"),
      });
      if (
        response.status === 404 || response.status === 409 ||
        response.status === 422
      ) {
        // No such commit (`before`), no such branch, or an empty
        // repository (409): nothing to list.
        await this.discard(response);
        return before === undefined ? [] : null;
      }
      if (response.status !== 200) {
        throw await this.failure(signal, what, response, false);
      }
      const body = await this.bodyJson(signal, what, response);
      if (!Array.isArray(body)) {
        throw this.unavailable(`GitHub answered ${what} with a non-list`);
      }
      for (const item of body) found.push(this.entryOf(item, what));
      // GitHub's links may name the repository by id
      // (`/repositories/{id}/commits?…`): any URL under the API root.
      url = found.length >= wanted ? undefined : nextLink(
        response.headers.get("link"),
        this.#api,
      );
    }
    const entries = before !== undefined && found[0]?.commit === before
      ? found.slice(1, limit + 1)
      : found.slice(0, limit);
    this.knownOnBranch(entries.map((entry) => entry.commit));
    const queue = [...entries];
    const workers = Array.from({ length: VERSIONS_AT_ONCE }, async () => {
      for (let entry = queue.shift(); entry; entry = queue.shift()) {
        entry.version = await this.versionAt(path, entry.commit);
      }
    });
    await Promise.all(workers);
    return entries;
  }

  /** One item of the commits list as a history entry (its version later). */
  entryOf(item: unknown, what: string): HistoryEntry {
    const commit = isRecord(item) ? item.commit : undefined;
    const author = isRecord(commit) ? commit.author : undefined;
    const sha = isRecord(item) ? item.sha : undefined;
    const message = isRecord(commit) ? commit.message : undefined;
    if (
      typeof sha !== "string" || !BLOB_SHA.test(sha) ||
      typeof message !== "string" || !isRecord(author) ||
      typeof author.name !== "string" || typeof author.date !== "string"
    ) {
      throw this.unavailable(`GitHub answered ${what} with a malformed commit`);
    }
    return {
      commit: sha,
      version: "",
      date: author.date,
      author: author.name,
      message: message.split("\n")[0] ?? "",
    };
  }

  /**
   * A file at a ref; `"link"` for a symbolic link, whether GitHub answers
   * it as one or follows it to the file it names (whose path it answers).
   */
  async readRef(
    path: string,
    ref: string,
    what: string,
  ): Promise<RepositoryFile | null | "link"> {
    const url = `${this.contentsUrl(path)}?ref=${encodeURIComponent(ref)}`;
    const signal = AbortSignal.timeout(this.#timeoutMs);
    const init: RequestInit = {
      method: "GET",
      headers: this.headers("application/vnd.github+json"),
    };
    let response = await this.call(signal, what, url, init);
    if (response.status >= 500) {
      await this.discard(response);
      await sleep(signal, RETRY_DELAY_MS);
      response = await this.call(signal, what, url, init);
    }
    if (response.status === 404) {
      await this.discard(response);
      return null;
    }
    if (response.status !== 200) {
      throw await this.failure(signal, what, response, false);
    }
    const body = await this.bodyJson(signal, what, response);
    if (Array.isArray(body)) {
      throw this.unavailable(`GitHub answered ${what} with a directory`);
    }
    if (!isRecord(body) || typeof body.type !== "string") {
      throw this.unavailable(`GitHub answered ${what} with a malformed object`);
    }
    if (body.type === "symlink" && path !== "" && body.path === path) {
      return "link";
    }
    if (body.type !== "file") {
      throw this.unavailable(`GitHub answered ${what} with a ${body.type}`);
    }
    // GitHub follows a link to a file of the repository and answers that
    // file, under its own path: never served as the page.
    if (typeof body.path === "string" && body.path !== path) return "link";
    if (typeof body.sha !== "string" || !BLOB_SHA.test(body.sha)) {
      throw this.unavailable(`GitHub answered ${what} without a blob sha`);
    }
    if (body.encoding === "none") {
      return await this.readRaw(signal, what, url);
    }
    if (body.encoding !== "base64" || typeof body.content !== "string") {
      throw this.unavailable(`GitHub answered ${what} without base64 content`);
    }
    const content = decodeBase64(body.content);
    if (!content) {
      throw this.unavailable(`GitHub answered ${what} with malformed base64`);
    }
    const version = gitBlobSha(content);
    if (version !== body.sha) {
      throw this.unavailable(
        `GitHub answered ${what} with a sha that does not match the content`,
      );
    }
    return { content, version };
  }

  async write(
    path: string,
    content: Uint8Array,
    expected: string,
    message: string,
    author?: CommitAuthor,
  ): Promise<string> {
    const url = this.contentsUrl(path);
    const what = `the write of ${path}`;
    const sha = typeof expected === "string" ? expected.toLowerCase() : "";
    if (typeof expected !== "string" || (sha !== "" && !BLOB_SHA.test(sha))) {
      // No file has such a version, so the comparison fails without a request.
      throw new ConflictError(`Version for ${path} is not a blob sha`);
    }
    const body = JSON.stringify({
      message: message || `Update ${path}`,
      content: encodeBase64(content),
      branch: this.#branch,
      ...(sha === "" ? {} : { sha }),
      ...(author === undefined
        ? {}
        : { author: { name: author.name, email: author.email } }),
    });
    const signal = AbortSignal.timeout(this.#timeoutMs);
    const response = await this.call(signal, what, url, {
      method: "PUT",
      headers: this.headers("application/vnd.github+json", true),
      body,
    });
    if (response.status !== 200 && response.status !== 201) {
      throw await this.failure(signal, what, response, true);
    }
    const answer = await this.bodyJson(signal, what, response);
    const file = isRecord(answer) ? answer.content : undefined;
    const version = isRecord(file) ? file.sha : undefined;
    if (typeof version !== "string" || !BLOB_SHA.test(version)) {
      throw this.unavailable(`GitHub answered ${what} without a blob sha`);
    }
    return version;
  }
}
