/**
 * The GitHub implementation of `Repository`, over the REST "repository
 * contents" API (`GET` and `PUT /repos/{owner}/{repo}/contents/{path}`).
 * Host-agnostic: only `fetch` and Web APIs.
 *
 * @module
 */

import { isLoopbackHost } from "../loopback.ts";
import {
  ConflictError,
  gitBlobSha,
  type Repository,
  RepositoryError,
  type RepositoryFile,
} from "./repository.ts";
import { decodeBase64, encodeBase64 } from "../bytes.ts";

/** How to reach one GitHub repository. */
export interface GitHubOptions {
  /** A token with contents read and write on the repository. */
  token: string;
  /** The repository as `owner/name`. */
  repository: string;
  /** The branch read and written; default `main`. */
  branch?: string | undefined;
  /**
   * The REST API root; default `https://api.github.com`. A GitHub Enterprise
   * Server root such as `https://ghe.example/api/v3` works; `http:` is
   * accepted for a loopback host only.
   */
  apiUrl?: string | undefined;
  /** A bound on each repository call, retries included; default 10,000 ms. */
  timeoutMs?: number | undefined;
  /** The `fetch` to use; default the global one. */
  fetch?: typeof fetch | undefined;
}

/** The name of a `GitHubOptions` field. */
export type GitHubOptionName = keyof GitHubOptions;

const API_VERSION = "2022-11-28";
const USER_AGENT = "inpage-editor/2.1.0";
const DEFAULT_API_URL = "https://api.github.com";
const DEFAULT_BRANCH = "main";
const DEFAULT_TIMEOUT_MS = 10_000;
const MAX_TIMEOUT_MS = 2_147_483_647;
const RETRY_DELAY_MS = 100;
const BLOB_SHA = /^[0-9a-f]{40}$/;
const OWNER = /^[A-Za-z0-9_](?:[A-Za-z0-9_-]{0,38})$/;
const NAME = /^[A-Za-z0-9._-]{1,100}$/;
const TOKEN = /^[\x21-\x7e]{1,1024}$/;
// Git refuses control characters, space and these in a branch name.
// deno-lint-ignore no-control-regex
const BRANCH_CHARS = /^[^\x00-\x20\x7f~^:?*[\\]{1,255}$/;
// One character class, no group: linear and without recursion on 27 MB.

/** The problem with one option, as the error to throw, or `undefined`. */
function optionProblem(
  name: GitHubOptionName,
  value: unknown,
): TypeError | RangeError | undefined {
  switch (name) {
    case "token":
      return typeof value === "string" && TOKEN.test(value)
        ? undefined
        : new TypeError(
          "GitHub token must be a non-empty string of visible ASCII characters",
        );
    case "repository":
      return parseRepository(value)
        ? undefined
        : new TypeError("GitHub repository must be owner/name");
    case "branch":
      return value === undefined || isBranch(value)
        ? undefined
        : new TypeError("GitHub branch must be a valid branch name");
    case "apiUrl":
      return value === undefined || parseApiUrl(value) !== undefined
        ? undefined
        : new TypeError(
          "GitHub API URL must be an absolute https URL (http for a loopback host) without credentials, query or fragment",
        );
    case "timeoutMs":
      return value === undefined ||
          (typeof value === "number" && Number.isInteger(value) &&
            value >= 1 && value <= MAX_TIMEOUT_MS)
        ? undefined
        : new RangeError(
          `GitHub timeout must be a whole number of milliseconds from 1 to ${MAX_TIMEOUT_MS}`,
        );
    case "fetch":
      return value === undefined || typeof value === "function"
        ? undefined
        : new TypeError("GitHub fetch must be a function");
  }
}

const OPTION_NAMES: readonly GitHubOptionName[] = [
  "token",
  "repository",
  "branch",
  "apiUrl",
  "timeoutMs",
  "fetch",
];

/**
 * The names of the options that `createGitHubRepository` would refuse. No
 * value appears in the result.
 *
 * @param options candidate options, of any type
 * @returns the refused option names, in declaration order; empty when all are valid
 * @example
 * ```ts
 * import { invalidGitHubOptions } from "./github.ts";
 * import assert from "node:assert/strict";
 *
 * assert.deepEqual(
 *   invalidGitHubOptions({ token: "", repository: "octo/site" }),
 *   ["token"],
 * );
 * ```
 */
export function invalidGitHubOptions(
  options: { readonly [K in GitHubOptionName]?: unknown },
): GitHubOptionName[] {
  return OPTION_NAMES.filter((name) =>
    optionProblem(name, options[name]) !== undefined
  );
}

function parseRepository(
  value: unknown,
): { owner: string; name: string } | undefined {
  if (typeof value !== "string") return undefined;
  const parts = value.split("/");
  if (parts.length !== 2) return undefined;
  const [owner = "", name = ""] = parts;
  if (!OWNER.test(owner) || !NAME.test(name)) return undefined;
  if (name === "." || name === "..") return undefined;
  return { owner, name };
}

function isBranch(value: unknown): value is string {
  return typeof value === "string" && BRANCH_CHARS.test(value) &&
    !value.startsWith("/") && !value.startsWith("-") &&
    !value.endsWith("/") && !value.endsWith(".") &&
    !value.endsWith(".lock") && !value.includes("..") &&
    !value.includes("//") && !value.includes("@{") && value !== "@";
}

/** The API root without a trailing slash, or `undefined` when refused. */
function parseApiUrl(value: unknown): string | undefined {
  if (typeof value !== "string") return undefined;
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    return undefined;
  }
  const secure = url.protocol === "https:" ||
    (url.protocol === "http:" && isLoopbackHost(url.hostname));
  if (!secure || url.username || url.password || url.search || url.hash) {
    return undefined;
  }
  return url.origin + url.pathname.replace(/\/+$/, "");
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

/** One repository call: a deadline shared by every request it makes. */
class Deadline {
  readonly #controller = new AbortController();
  readonly #timer: ReturnType<typeof setTimeout>;
  readonly #expired: Promise<never>;

  constructor(timeoutMs: number, readonly fail: () => Error) {
    this.#expired = new Promise<never>((_, reject) => {
      this.#controller.signal.addEventListener("abort", () => reject(fail()));
    });
    this.#expired.catch(() => {});
    this.#timer = setTimeout(() => this.#controller.abort(), timeoutMs);
  }

  get signal(): AbortSignal {
    return this.#controller.signal;
  }

  /** Settles with `work`, or rejects when the deadline passes first. */
  race<T>(work: Promise<T>): Promise<T> {
    work.catch(() => {});
    return Promise.race([work, this.#expired]);
  }

  sleep(ms: number): Promise<void> {
    let timer: ReturnType<typeof setTimeout> | undefined;
    return this.race(
      new Promise<void>((resolve) => timer = setTimeout(resolve, ms)),
    ).finally(() => clearTimeout(timer));
  }

  end(): void {
    clearTimeout(this.#timer);
  }
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
  if (!isRecord(options)) {
    throw new TypeError("GitHub options must be an object");
  }
  for (const name of OPTION_NAMES) {
    const problem = optionProblem(name, options[name]);
    if (problem) throw problem;
  }
  const token = options.token;
  const { owner, name } = parseRepository(options.repository)!;
  const branch = options.branch ?? DEFAULT_BRANCH;
  const apiUrl = parseApiUrl(options.apiUrl ?? DEFAULT_API_URL)!;
  const timeoutMs = options.timeoutMs ?? DEFAULT_TIMEOUT_MS;
  const send: typeof fetch = options.fetch ??
    ((input, init) => fetch(input, init));
  const root = `${apiUrl}/repos/${encodeURIComponent(owner)}/${
    encodeURIComponent(name)
  }/contents/`;

  /** Removes the token from text bound for an error, and caps its length. */
  function clean(text: string): string {
    return text.split(token).join("[redacted]").replace(
      // Control characters would break a log line.
      // deno-lint-ignore no-control-regex
      /[\x00-\x1f\x7f]+/g,
      " ",
    ).slice(0, 300);
  }

  function unavailable(detail: string): RepositoryError {
    return new RepositoryError("unavailable", clean(detail));
  }

  function contentsUrl(path: string): string {
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
      return root + segments.map(encodeURIComponent).join("/");
    } catch {
      throw new TypeError("Repository path must be well-formed Unicode");
    }
  }

  function headers(accept: string, json = false): Headers {
    const result = new Headers({
      "Accept": accept,
      "Authorization": `Bearer ${token}`,
      "User-Agent": USER_AGENT,
      "X-GitHub-Api-Version": API_VERSION,
    });
    if (json) result.set("Content-Type", "application/json");
    return result;
  }

  async function call(
    deadline: Deadline,
    what: string,
    url: string,
    init: RequestInit,
  ): Promise<Response> {
    try {
      return await deadline.race(
        send(url, { ...init, signal: deadline.signal }),
      );
    } catch (error) {
      if (deadline.signal.aborted) throw deadline.fail();
      throw unavailable(
        `GitHub could not be reached for ${what}: ${
          error instanceof Error ? `${error.name}: ${error.message}` : "unknown"
        }`,
      );
    }
  }

  async function bodyText(
    deadline: Deadline,
    what: string,
    response: Response,
  ): Promise<string> {
    try {
      return await deadline.race(response.text());
    } catch {
      if (deadline.signal.aborted) throw deadline.fail();
      throw unavailable(`GitHub's answer to ${what} broke off`);
    }
  }

  async function bodyJson(
    deadline: Deadline,
    what: string,
    response: Response,
  ): Promise<unknown> {
    const text = await bodyText(deadline, what, response);
    try {
      return JSON.parse(text);
    } catch {
      throw unavailable(`GitHub answered ${what} with malformed JSON`);
    }
  }

  async function discard(response: Response): Promise<void> {
    try {
      await response.body?.cancel();
    } catch {
      // Nothing more to release.
    }
  }

  /** The error for an answer that is not a success, its body consumed. */
  async function failure(
    deadline: Deadline,
    what: string,
    response: Response,
    writing: boolean,
  ): Promise<Error> {
    const { status } = response;
    let message = "";
    try {
      const body: unknown = JSON.parse(
        await bodyText(deadline, what, response),
      );
      if (isRecord(body) && typeof body.message === "string") {
        message = body.message;
      }
    } catch {
      if (deadline.signal.aborted) return deadline.fail();
      // A body that is not GitHub's JSON: the status decides alone.
    }
    const detail = `GitHub answered ${status} to ${what}${
      message ? `: ${message}` : ""
    }`;
    const rateLimited = response.headers.get("x-ratelimit-remaining") === "0" ||
      response.headers.has("retry-after") || /rate limit/i.test(message);
    if (status === 429 || (status === 403 && rateLimited)) {
      return unavailable(detail);
    }
    if (status === 401 || status === 403) {
      return new RepositoryError("unauthorized", clean(detail));
    }
    if (writing) {
      if (status === 409) return new ConflictError(clean(detail));
      if (status === 422 && /\bsha\b/i.test(message)) {
        return new ConflictError(clean(detail));
      }
      if (status === 404) {
        return new RepositoryError("not_found", clean(detail));
      }
    }
    return unavailable(detail);
  }

  function start(what: string): Deadline {
    return new Deadline(
      timeoutMs,
      () => unavailable(`GitHub did not answer ${what} within ${timeoutMs} ms`),
    );
  }

  /** A file over 1 MB: GitHub sends its bytes only with the raw media type. */
  async function readRaw(
    deadline: Deadline,
    what: string,
    url: string,
  ): Promise<RepositoryFile | null> {
    const response = await call(deadline, what, url, {
      method: "GET",
      headers: headers("application/vnd.github.raw+json"),
    });
    if (response.status === 404) {
      await discard(response);
      return null;
    }
    if (response.status !== 200) {
      throw await failure(deadline, what, response, false);
    }
    let content: Uint8Array;
    try {
      content = new Uint8Array(await deadline.race(response.arrayBuffer()));
    } catch {
      if (deadline.signal.aborted) throw deadline.fail();
      throw unavailable(`GitHub's answer to ${what} broke off`);
    }
    // The file may have changed since the first answer: the version is
    // computed from the bytes returned, so it always describes them.
    return { content, version: await gitBlobSha(content) };
  }

  async function read(path: string): Promise<RepositoryFile | null> {
    const url = `${contentsUrl(path)}?ref=${encodeURIComponent(branch)}`;
    const what = `the read of ${path}`;
    const deadline = start(what);
    try {
      const init: RequestInit = {
        method: "GET",
        headers: headers("application/vnd.github+json"),
      };
      let response = await call(deadline, what, url, init);
      if (response.status >= 500) {
        await discard(response);
        await deadline.sleep(RETRY_DELAY_MS);
        response = await call(deadline, what, url, init);
      }
      if (response.status === 404) {
        await discard(response);
        return null;
      }
      if (response.status !== 200) {
        throw await failure(deadline, what, response, false);
      }
      const body = await bodyJson(deadline, what, response);
      if (Array.isArray(body)) {
        throw unavailable(`GitHub answered ${what} with a directory`);
      }
      if (!isRecord(body) || typeof body.type !== "string") {
        throw unavailable(`GitHub answered ${what} with a malformed object`);
      }
      if (body.type !== "file") {
        throw unavailable(`GitHub answered ${what} with a ${body.type}`);
      }
      if (typeof body.sha !== "string" || !BLOB_SHA.test(body.sha)) {
        throw unavailable(`GitHub answered ${what} without a blob sha`);
      }
      if (body.encoding === "none") {
        return await readRaw(deadline, what, url);
      }
      if (body.encoding !== "base64" || typeof body.content !== "string") {
        throw unavailable(`GitHub answered ${what} without base64 content`);
      }
      const content = decodeBase64(body.content);
      if (!content) {
        throw unavailable(`GitHub answered ${what} with malformed base64`);
      }
      const version = await gitBlobSha(content);
      if (version !== body.sha) {
        throw unavailable(
          `GitHub answered ${what} with a sha that does not match the content`,
        );
      }
      return { content, version };
    } finally {
      deadline.end();
    }
  }

  async function write(
    path: string,
    content: Uint8Array,
    expected: string,
    message: string,
  ): Promise<string> {
    const url = contentsUrl(path);
    const what = `the write of ${path}`;
    const sha = typeof expected === "string" ? expected.toLowerCase() : "";
    if (typeof expected !== "string" || (sha !== "" && !BLOB_SHA.test(sha))) {
      // No file has such a version, so the comparison fails without a request.
      throw new ConflictError(`Version for ${path} is not a blob sha`);
    }
    const body = JSON.stringify({
      message: message || `Update ${path}`,
      content: encodeBase64(content),
      branch,
      ...(sha === "" ? {} : { sha }),
    });
    const deadline = start(what);
    try {
      const response = await call(deadline, what, url, {
        method: "PUT",
        headers: headers("application/vnd.github+json", true),
        body,
      });
      if (response.status !== 200 && response.status !== 201) {
        throw await failure(deadline, what, response, true);
      }
      const answer = await bodyJson(deadline, what, response);
      const file = isRecord(answer) ? answer.content : undefined;
      const version = isRecord(file) ? file.sha : undefined;
      if (typeof version !== "string" || !BLOB_SHA.test(version)) {
        throw unavailable(`GitHub answered ${what} without a blob sha`);
      }
      return version;
    } finally {
      deadline.end();
    }
  }

  return Object.freeze({ read, write });
}
