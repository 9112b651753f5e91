/**
 * The GitHub implementation of `Repository`, over the REST "repository
 * contents" API (`GET` and `PUT /repos/{owner}/{repo}/contents/{path}`)
 * for reads and one-file writes, and the Git Data API for staged bytes and
 * many-file commits (`github_commit.ts`). Host-agnostic: only `fetch` and
 * Web APIs. The options are checked in `github_options.ts`; the calls
 * (token or GitHub App, conditional reads, paced writes, the log line of
 * each call) are made by `github_transport.ts`; failed answers are mapped
 * by the table in `github_status.ts`.
 *
 * @module
 */

import {
  type CommitAuthor,
  type CommitFile,
  type CommitOptions,
  ConflictError,
  gitBlobSha,
  type HistoryEntry,
  type HistoryOptions,
  type PullRequestInit,
  type Repository,
  type RepositoryFile,
} from "./repository.ts";
import { nextLink } from "./github_history.ts";
import { decodeBase64, encodeBase64 } from "../encoding/bytes.ts";
import {
  type GitHubOptions,
  type ParsedGitHubOptions,
  parseGitHubOptions,
} from "./github_options.ts";
import { GitHubTransport, isRecord, within } from "./github_transport.ts";
import { GitHubGitData } from "./github_commit.ts";
import { GitHubPulls } from "./github_pulls.ts";

export {
  type GitHubAppCredentials,
  type GitHubOptionName,
  type GitHubOptions,
  invalidGitHubOptions,
} from "./github_options.ts";

const RETRY_DELAY_MS = 100;
const BLOB_SHA = /^[0-9a-f]{40}$/;
/** Pages of the commits list followed at most for one history answer. */
const HISTORY_PAGES_MAX = 4;
/** Versions at past commits looked up at once. */
const VERSIONS_AT_ONCE = 4;
/** Versions at past commits kept (they never change). */
const VERSIONS_KEPT = 10_000;
/** Files kept by the `ETag` of their answer, and the largest kept. */
const FILES_KEPT = 64;
const FILE_KEPT_MAX = 256 * 1024;

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
 * - Reads are conditional: the `ETag` of the last answer for a path is sent
 *   as `If-None-Match` (kept in the process, and in `cache` when given); a
 *   304 is served from what was kept and costs no hourly budget.
 * - `app` authenticates as a GitHub App installation instead of `token`:
 *   its installation token is obtained with the app's JWT and renewed five
 *   minutes before it expires.
 * - Writes are paced under GitHub's 80 content-creating requests a minute;
 *   a rate limit answers `unavailable` with the seconds to wait.
 * - `stage` keeps bytes as a blob; `commit` makes one tree and one commit
 *   and moves the branch with `force: false`, rebuilt on the new head when
 *   another commit landed meanwhile (`github_commit.ts`); `deleteBranch`
 *   deletes an `inpage/…` branch; `openPullRequest` and `closePullRequest`
 *   open a pull request from such a branch and close it with a comment
 *   (`github_pulls.ts`; the token needs "Pull requests: read and write").
 * - Each call writes a line to `log` with GitHub's `x-ratelimit-remaining`.
 * - The token never appears in an error or a log line.
 *
 * @param options the token or app, repository and optional branch, API
 *   root, timeout, fetch, cache, log and clock
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
  const parsed = parseGitHubOptions(options);
  const http = new GitHubTransport({
    token: parsed.token,
    app: parsed.app,
    apiUrl: parsed.apiUrl,
    repository: `${parsed.owner}/${parsed.name}`,
    timeoutMs: parsed.timeoutMs,
    fetch: parsed.fetch,
    kv: parsed.cache,
    log: parsed.log,
    now: parsed.now,
  });
  const contents = new GitHubContents(parsed, http);
  const data = new GitHubGitData(http, {
    repo: contents.repo,
    branch: parsed.branch,
    timeoutMs: parsed.timeoutMs,
    versionAt: async (path, ref) => {
      const what = `the version of ${path} on ${ref}`;
      const file = await contents.readRef(path, ref, what);
      // A symbolic link is never replaced by a publish, nor taken as absent.
      if (file === "link") {
        throw http.unavailable(`GitHub answered ${what} with a symbolic link`);
      }
      return file?.version ?? "";
    },
  });
  // A one-file write moves the branch: the next commit starts from there.
  contents.onCommit = (branch, commit) => data.moved(branch, commit);
  const pulls = new GitHubPulls(http, {
    repo: contents.repo,
    branch: parsed.branch,
    timeoutMs: parsed.timeoutMs,
  });
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
    readAtCommit: (path: string, commit: string) =>
      contents.readAtCommit(path, commit),
    stage: (content: Uint8Array) => data.stage(content),
    commit: (files: readonly CommitFile[], options: CommitOptions) =>
      data.commit(files, options),
    deleteBranch: (branch: string) => data.deleteBranch(branch),
    openPullRequest: (pull: PullRequestInit) => pulls.open(pull),
    closePullRequest: (number: number, comment: string) =>
      pulls.close(number, comment),
  });
}

/** The calls of one GitHub repository, over its checked options. */
class GitHubContents {
  readonly #http: GitHubTransport;
  readonly #branch: string;
  readonly #root: string;
  readonly #timeoutMs: number;
  /** `{apiUrl}/repos/{owner}/{name}/`. */
  readonly repo: string;
  readonly #api: string;
  readonly #versions = new Map<string, string>();
  /** Files as read, by the `ETag` of their answer (a 304 names them). */
  readonly #files = new Map<string, RepositoryFile>();
  /** Commits known to be on the branch's history (it only grows). */
  readonly #onBranch = new Set<string>();

  constructor(options: ParsedGitHubOptions, http: GitHubTransport) {
    this.#http = http;
    this.#branch = options.branch;
    this.#api = `${options.apiUrl}/`;
    this.repo = `${options.apiUrl}/repos/${encodeURIComponent(options.owner)}/${
      encodeURIComponent(options.name)
    }/`;
    this.#root = `${this.repo}contents/`;
    this.#timeoutMs = options.timeoutMs;
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

  /** A file over 1 MB: GitHub sends its bytes only with the raw media type. */
  async readRaw(
    signal: AbortSignal,
    what: string,
    url: string,
  ): Promise<RepositoryFile | null> {
    const response = await this.#http.request({
      what,
      method: "GET",
      url,
      accept: "application/vnd.github.raw+json",
      signal,
    });
    if (response.status === 404) {
      await this.#http.discard(response);
      return null;
    }
    if (response.status !== 200) {
      throw await this.#http.failure(signal, what, response, false);
    }
    let content: Uint8Array;
    try {
      content = new Uint8Array(await within(signal, response.arrayBuffer()));
    } catch {
      if (signal.aborted) throw this.#http.timedOut(what);
      throw this.#http.unavailable(`GitHub's answer to ${what} broke off`);
    }
    // The file may have changed since the first answer: the version is
    // computed from the bytes returned, so it always describes them.
    return { content, version: gitBlobSha(content) };
  }

  async read(path: string): Promise<RepositoryFile | null> {
    const what = `the read of ${path}`;
    const file = await this.readRef(path, this.#branch, what);
    if (file === "link") {
      throw this.#http.unavailable(
        `GitHub answered ${what} with a symbolic link`,
      );
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
   * A file at a commit of any branch (a review's): for the commits the
   * package recorded itself.
   */
  async readAtCommit(
    path: string,
    commit: string,
  ): Promise<RepositoryFile | null> {
    if (typeof commit !== "string" || !BLOB_SHA.test(commit)) return null;
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
    const response = await this.#http.request({
      what,
      method: "GET",
      url: `${this.repo}compare/${
        encodeURIComponent(this.#branch)
      }...${commit}?per_page=1`,
      signal,
    });
    if (response.status === 404 || response.status === 422) {
      // No such commit, or nothing in common with the branch.
      await this.#http.discard(response);
      return false;
    }
    if (response.status !== 200) {
      throw await this.#http.failure(signal, what, response, false);
    }
    const body = await this.#http.bodyJson(signal, what, response);
    const base = isRecord(body) ? body.merge_base_commit : undefined;
    const status = isRecord(body) ? body.status : undefined;
    if (typeof status !== "string" || !isRecord(base)) {
      throw this.#http.unavailable(
        `GitHub answered ${what} without a comparison`,
      );
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
    let url: string | undefined = `${this.repo}commits?${query}`;
    for (let page = 0; url && page < HISTORY_PAGES_MAX; page++) {
      const response = await this.#http.request({
        what,
        method: "GET",
        url,
        signal,
        conditional: true,
      });
      if (
        response.status === 404 || response.status === 409 ||
        response.status === 422
      ) {
        // No such commit (`before`), no such branch, or an empty
        // repository (409): nothing to list.
        await this.#http.discard(response);
        return before === undefined ? [] : null;
      }
      if (response.status !== 200) {
        throw await this.#http.failure(signal, what, response, false);
      }
      const body = await this.#http.bodyJson(signal, what, response);
      if (!Array.isArray(body)) {
        throw this.#http.unavailable(`GitHub answered ${what} with a non-list`);
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
      throw this.#http.unavailable(
        `GitHub answered ${what} with a malformed commit`,
      );
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
    const call = { what, method: "GET", url, signal, conditional: true };
    let response = await this.#http.request(call);
    if (response.status >= 500) {
      await this.#http.discard(response);
      await sleep(signal, RETRY_DELAY_MS);
      response = await this.#http.request(call);
    }
    if (response.status === 404) {
      await this.#http.discard(response);
      return null;
    }
    if (response.status !== 200) {
      throw await this.#http.failure(signal, what, response, false);
    }
    // A 304 served from what was kept: the file it was read as, when known.
    const etag = response.headers.get("etag");
    const known = etag && response.headers.has("x-inpage-not-modified")
      ? this.#files.get(etag)
      : undefined;
    if (known) {
      await this.#http.discard(response);
      return { content: known.content.slice(), version: known.version };
    }
    const file = await this.fileOf(signal, what, url, path, response);
    if (
      etag && file && file !== "link" &&
      file.content.byteLength <= FILE_KEPT_MAX
    ) {
      if (this.#files.size >= FILES_KEPT) this.#files.clear();
      this.#files.set(etag, {
        content: file.content.slice(),
        version: file.version,
      });
    }
    return file;
  }

  /** The file of a contents answer (a 200), checked; `"link"` for a link. */
  async fileOf(
    signal: AbortSignal,
    what: string,
    url: string,
    path: string,
    response: Response,
  ): Promise<RepositoryFile | null | "link"> {
    const body = await this.#http.bodyJson(signal, what, response);
    if (Array.isArray(body)) {
      throw this.#http.unavailable(`GitHub answered ${what} with a directory`);
    }
    if (!isRecord(body) || typeof body.type !== "string") {
      throw this.#http.unavailable(
        `GitHub answered ${what} with a malformed object`,
      );
    }
    if (body.type === "symlink" && path !== "" && body.path === path) {
      return "link";
    }
    if (body.type !== "file") {
      throw this.#http.unavailable(
        `GitHub answered ${what} with a ${body.type}`,
      );
    }
    // GitHub follows a link to a file of the repository and answers that
    // file, under its own path: never served as the page.
    if (typeof body.path === "string" && body.path !== path) return "link";
    if (typeof body.sha !== "string" || !BLOB_SHA.test(body.sha)) {
      throw this.#http.unavailable(
        `GitHub answered ${what} without a blob sha`,
      );
    }
    if (body.encoding === "none") {
      return await this.readRaw(signal, what, url);
    }
    if (body.encoding !== "base64" || typeof body.content !== "string") {
      throw this.#http.unavailable(
        `GitHub answered ${what} without base64 content`,
      );
    }
    const content = decodeBase64(body.content);
    if (!content) {
      throw this.#http.unavailable(
        `GitHub answered ${what} with malformed base64`,
      );
    }
    const version = gitBlobSha(content);
    if (version !== body.sha) {
      throw this.#http.unavailable(
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
      throw new ConflictError(`Version for ${path} is not a blob sha`, path);
    }
    const json = {
      message: message || `Update ${path}`,
      content: encodeBase64(content),
      branch: this.#branch,
      ...(sha === "" ? {} : { sha }),
      ...(author === undefined
        ? {}
        : { author: { name: author.name, email: author.email } }),
    };
    const signal = AbortSignal.timeout(this.#timeoutMs);
    const response = await this.#http.request({
      what,
      method: "PUT",
      url,
      json,
      signal,
    });
    if (response.status !== 200 && response.status !== 201) {
      throw await this.#http.failure(signal, what, response, true, path);
    }
    const answer = await this.#http.bodyJson(signal, what, response);
    const file = isRecord(answer) ? answer.content : undefined;
    const version = isRecord(file) ? file.sha : undefined;
    if (typeof version !== "string" || !BLOB_SHA.test(version)) {
      throw this.#http.unavailable(
        `GitHub answered ${what} without a blob sha`,
      );
    }
    const commit = isRecord(answer) ? answer.commit : undefined;
    const head = isRecord(commit) ? commit.sha : undefined;
    if (typeof head === "string" && BLOB_SHA.test(head)) {
      this.onCommit?.(this.#branch, head);
    }
    return version;
  }

  /** Told of each commit a write made: the branch and its new head. */
  onCommit?: (branch: string, commit: string) => void;
}
