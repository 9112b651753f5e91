/**
 * A local HTTP double of GitHub's REST "repository contents" API, for tests:
 * `GET` and `PUT /repos/{owner}/{repo}/contents/{path}` (also under
 * `/api/v3`, as GitHub Enterprise Server serves it) on one private
 * repository with one branch, plus faults to inject.
 *
 * What it copies from GitHub's documentation and observed answers:
 * - a wrong token is 401 `Bad credentials`; no token is 404, as for any
 *   private repository; a missing `User-Agent` is 403;
 * - a read answers `type: "file"`, `encoding: "base64"` and the content with
 *   `\n` after every 60 characters; a file over 1 MB answers `content: ""`
 *   and `encoding: "none"` unless the raw media type is asked for; a
 *   directory answers an array;
 * - `sha` is the git blob SHA-1; a write without `sha` over an existing file
 *   is 422 `"sha" wasn't supplied`, with another `sha` 409 `{path} does not
 *   match {sha}`; a write to a new path is 201 (any `sha` ignored), an update
 *   200, with `{ content: { sha, … }, commit: { sha, … } }`;
 * - an unknown `ref` or `branch` is 404; `ref` may also name a commit;
 * - a write's `author` (`name` and `email`, both required) is the commit's
 *   author, the committer is the token's user; without it, both are;
 * - `GET /repos/{owner}/{repo}/commits` lists commits newest first from
 *   `sha` (the branch, or a commit), only those that changed `path` when
 *   given, `per_page` (default 30, at most 100) a `page`, with a `Link`
 *   header (`first`, `prev`, `next`, `last`) when there are more pages; an
 *   unknown `sha` is 404 `No commit found for SHA: …`;
 * - `GET /repos/{owner}/{repo}/compare/{base}...{head}` compares two commits
 *   (a branch name or a sha; an annotated tag's id is peeled to its commit):
 *   `status` (`identical`, `ahead`, `behind`, `diverged`), `ahead_by`,
 *   `behind_by`, `base_commit` and `merge_base_commit`; an unknown one is
 *   404 `Not Found`;
 * - commits off the branch (another branch's) and annotated tags can be
 *   made (`addOffBranchCommit`, `addTag`): `ref`, `sha` and the compare API
 *   reach them, as on GitHub;
 * - a symbolic link (`addLink`, a commit of the branch making a path a link):
 *   a read answers, as GitHub documents, the file it names when that is a
 *   file of the repository (under that file's own `path`), else
 *   `type: "symlink"` with its `target`;
 * - pull requests and their comments (`github_pulls_double.ts`).
 *
 * @module
 */

import { decodeBase64, encodeBase64 } from "../../lib/encoding/bytes.ts";
import { gitBlobSha } from "../../lib/repository/repository.ts";
import { sha1Hex as sha1Sync, sha256Hex } from "../../lib/digest.ts";
import type { Env, Router } from "../../mod.ts";
import { signedInEnv, type TestEnv } from "./helpers.ts";
import { type DoubleCommit, GitObjects } from "./git_objects.ts";
import { gitDataAnswer, type GitState } from "./github_git_data.ts";
import { type DoubleApp, refuseAppJwt } from "./github_app_double.ts";
import { type DoublePull, DoublePulls } from "./github_pulls_double.ts";

export type { DoubleApp, DoubleCommit, DoublePull };

/** What the double is started with. */
export interface GitHubDoubleOptions {
  /** The one token it accepts; default `ghp_doubleToken0123456789abcdef`. */
  token?: string;
  /** The repository as `owner/name`; default `octo/site`. */
  repository?: string;
  /** The one branch, also the default one; default `main`. */
  branch?: string;
  /** Files present at start, by path. */
  files?: Record<string, string | Uint8Array>;
  /**
   * The most commits one page of the commits list holds, whatever
   * `per_page` asks (GitHub's is 100); default 100.
   */
  maxPerPage?: number;
  /** A GitHub App whose installation may have tokens for the repository. */
  app?: DoubleApp;
  /** The double's clock (JWT times, token expiry); default `Date.now`. */
  clock?: () => number;
}

/** A fault answered instead of the normal answer. */
export type GitHubFault =
  & {
    /** How many calls it answers; default 1, `Infinity` for all. */
    times?: number;
    /** Only calls with this method; default every method. */
    method?: "GET" | "PUT" | "POST" | "PATCH" | "DELETE";
    /** Only calls whose path matches; default every path. */
    path?: RegExp;
  }
  & (
    | {
      /** Answers this status, headers and body (default a GitHub error body). */
      kind: "status";
      status: number;
      headers?: Record<string, string>;
      body?: string;
    }
    | {
      /** Answers 200 with a body that is not JSON. */
      kind: "malformed";
    }
    | {
      /** Never answers: holds the request until `close()`. */
      kind: "hang";
    }
    | {
      /** Runs `run` (another publish, say), then answers as usual. */
      kind: "call";
      run: () => void | Promise<void>;
    }
    | {
      /**
       * Breaks the connection: `reset` right after the status line and
       * headers, `partial` after half of a valid file answer, `endless`
       * sends half an answer and then nothing more until `close()`.
       */
      kind: "reset" | "partial" | "endless";
    }
  );

/** One request as the double received it, the token left out. */
export interface RecordedRequest {
  /** `GET`, `PUT`, … */
  method: string;
  /** The path as sent, still percent-encoded. */
  path: string;
  /** The query string, with its `?`, or `""`. */
  search: string;
  /** Headers by lowercase name; `authorization` is `[redacted]`. */
  headers: Record<string, string>;
  /** Whether the authorization header held the double's token. */
  authorized: boolean;
  /**
   * A write's JSON body, each `content` string replaced by its length in
   * characters.
   */
  body?: Record<string, unknown>;
  /** The status answered (304 for a conditional read that changed nothing). */
  status?: number;
}

/** A running double. */
export interface GitHubDouble {
  /** The API root, e.g. `http://127.0.0.1:41234`; add `/api/v3` for the GHES form. */
  url: string;
  /** The token it accepts. */
  token: string;
  /** Its repository as `owner/name`. */
  repository: string;
  /** Its branch. */
  branch: string;
  /** The branch's files by path. Replace entries rather than mutate bytes. */
  files: Map<string, Uint8Array>;
  /** The branch's commits, oldest first; writes add one each. */
  commits: DoubleCommit[];
  /** The other branches, by name, to their commit. */
  refs: Map<string, string>;
  /** The pull requests, by number. */
  pulls: Map<number, DoublePull>;
  /** The blobs, trees and commits, on a branch or not. */
  objects: GitObjects;
  /** Every request received, in order. */
  requests: RecordedRequest[];
  /** The installation tokens issued, oldest first (their values left out). */
  appTokens: { issuedAt: number; expiresAt: number }[];
  /**
   * Commits files on the default branch as someone else's publish would
   * (another page, say).
   *
   * @param files the files written, by path
   * @param message the commit message
   * @returns the commit
   */
  publishElsewhere(
    files: Record<string, string | Uint8Array>,
    message?: string,
  ): DoubleCommit;
  /** Revokes every installation token issued (GitHub answers 401 to them). */
  revokeAppTokens(): void;
  /**
   * Makes a commit on another branch, from the branch's head: the branch
   * does not move.
   *
   * @param files the files it changes, by path
   * @returns its sha
   */
  addOffBranchCommit(files: Record<string, string>): Promise<string>;
  /**
   * Makes an annotated tag of a commit.
   *
   * @param commit the commit's sha
   * @returns the tag object's own sha
   */
  addTag(commit: string): Promise<string>;
  /**
   * Commits on the branch a path turned into a symbolic link.
   *
   * @param path the link's path
   * @param target what it names, relative to its folder
   * @returns the commit's sha
   */
  addLink(path: string, target: string): Promise<string>;
  /**
   * Sets the fault for the next calls, replacing any; `null` clears it.
   *
   * @param fault the fault, or `null`
   */
  setFault(fault: GitHubFault | null): void;
  /** Releases held requests and stops the server. */
  close(): Promise<void>;
  /** Same as `close()`, for `await using`. */
  [Symbol.asyncDispose](): Promise<void>;
}

/**
 * The `GITHUB_*` variables that point an env at a double.
 *
 * @param github the running double
 * @returns `GITHUB_TOKEN`, `GITHUB_REPOSITORY` and `GITHUB_API_URL`
 */
export function githubEnv(github: GitHubDouble): {
  GITHUB_TOKEN: string;
  GITHUB_REPOSITORY: string;
  GITHUB_API_URL: string;
} {
  return {
    GITHUB_TOKEN: github.token,
    GITHUB_REPOSITORY: github.repository,
    GITHUB_API_URL: github.url,
  };
}

const DOCS = "https://docs.github.com/rest/repos/contents";
const RAW_LIMIT = 1024 * 1024;
const REPO = /^(?:\/api\/v3)?\/repos\/([^/]+)\/([^/]+)\/(.+)$/;
const ACCESS_TOKENS =
  /^(?:\/api\/v3)?\/app\/installations\/([^/]+)\/access_tokens$/;
const COMMITS =
  /^(?:\/api\/v3)?\/(?:repos\/([^/]+)\/([^/]+)|repositories\/(\d+))\/commits$/;
const COMPARE =
  /^(?:\/api\/v3)?\/repos\/([^/]+)\/([^/]+)\/compare\/([^/.]+|[0-9a-f]{40})\.\.\.([^/.]+|[0-9a-f]{40})$/;
/** The repository's id, as GitHub's `Link` headers name it. */
const REPOSITORY_ID = "1300192";
const TOKEN_USER = { name: "Double", email: "double@example.com" };

function json(
  status: number,
  body: unknown,
  headers: Record<string, string> = {},
): Response {
  return new Response(JSON.stringify(body), {
    status,
    headers: { "content-type": "application/json; charset=utf-8", ...headers },
  });
}

function error(status: number, message: string, docs = DOCS): Response {
  return json(status, {
    message,
    documentation_url: docs,
    status: String(status),
  });
}

/** A JSON body with every `content` string replaced by its length. */
function summarised(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(summarised);
  if (typeof value !== "object" || value === null) return value;
  return Object.fromEntries(
    Object.entries(value).map(([key, inner]) => [
      key,
      key === "content" && typeof inner === "string"
        ? `<${inner.length} characters>`
        : summarised(inner),
    ]),
  );
}

/** Base64 as GitHub's read answers carry it: a `\n` after every 60 characters. */
function lineBroken(bytes: Uint8Array): string {
  const flat = encodeBase64(bytes);
  const lines: string[] = [];
  for (let start = 0; start < flat.length; start += 60) {
    lines.push(flat.slice(start, start + 60) + "\n");
  }
  return lines.join("");
}

/**
 * Starts the double on `127.0.0.1`, on a free port.
 *
 * @param options token, repository, branch and files; all optional
 * @returns the running double; close it in the test
 */
export function startGitHubDouble(
  options: GitHubDoubleOptions = {},
): GitHubDouble {
  const token = options.token ?? "ghp_doubleToken0123456789abcdef";
  const repository = options.repository ?? "octo/site";
  const branch = options.branch ?? "main";
  const [owner, name] = repository.split("/");
  const files = new Map<string, Uint8Array>();
  for (const [path, content] of Object.entries(options.files ?? {})) {
    files.set(
      path,
      typeof content === "string" ? new TextEncoder().encode(content) : content,
    );
  }
  const requests: RecordedRequest[] = [];
  const shas = new WeakMap<Uint8Array, string>();
  let fault: GitHubFault | null = null;
  let faultLeft = 0;
  let commits = 0;
  let remaining = 5000;
  const maxPerPage = options.maxPerPage ?? 100;
  const clock = options.clock ?? Date.now;
  const app = options.app;
  const appTokens: { issuedAt: number; expiresAt: number }[] = [];
  const installationTokens = new Map<string, number>();
  const objects = new GitObjects();
  const refs = new Map<string, string>();
  const log: DoubleCommit[] = [];
  const initialDate = new Date(Date.UTC(2026, 0, 1)).toISOString();
  const initial: DoubleCommit = {
    sha: sha1Sync(new TextEncoder().encode(`initial ${repository}`)),
    message: "Initial",
    author: { ...TOKEN_USER, date: initialDate },
    committer: { ...TOKEN_USER, date: initialDate },
    parent: null,
    tree: objects.treeOf(files),
    files: new Map(files),
  };
  log.push(initial);
  objects.commits.set(initial.sha, initial);

  /** A new commit object, on no branch; its files are its tree's. */
  function makeCommit(
    message: string,
    tree: string,
    parent: string | null,
    author: { name: string; email: string } | undefined,
  ): DoubleCommit {
    commits += 1;
    const date = new Date(Date.UTC(2026, 0, 1) + commits * 60_000)
      .toISOString();
    const committer = { ...TOKEN_USER, date };
    const commit: DoubleCommit = {
      sha: sha1Sync(
        new TextEncoder().encode(`commit ${commits} ${tree} ${parent}`),
      ),
      message,
      author: author
        ? { name: author.name, email: author.email, date }
        : committer,
      committer,
      parent,
      tree,
      files: objects.filesOf(tree)!,
    };
    // A parent's symbolic links stay, but where a file now is.
    const kept = [...objects.commits.get(parent ?? "")?.links ?? []]
      .filter(([path]) => !commit.files.has(path));
    if (kept.length > 0) commit.links = new Map(kept);
    objects.commits.set(commit.sha, commit);
    return commit;
  }

  /** Moves the default branch forward to a commit, its files with it. */
  function moveDefault(sha: string): void {
    const chain: DoubleCommit[] = [];
    const head = log.at(-1)!.sha;
    for (let at: string | null = sha; at !== null && at !== head;) {
      const commit: DoubleCommit = objects.commits.get(at)!;
      chain.unshift(commit);
      at = commit.parent;
    }
    log.push(...chain);
    const after = objects.commits.get(sha)!.files;
    files.clear();
    for (const [path, bytes] of after) files.set(path, bytes);
  }

  const state: GitState = {
    objects,
    branch,
    repository,
    refs,
    head: () => log.at(-1)!.sha,
    moveDefault,
    makeCommit,
    branchDeleted: (deleted) => pulls.branchDeleted(deleted),
  };
  const pulls = new DoublePulls(state);

  /** Another publish on the default branch: a commit of these files. */
  function publishElsewhere(
    written: Record<string, string | Uint8Array>,
    message = "Published elsewhere",
  ): DoubleCommit {
    const next = new Map(files);
    for (const [path, content] of Object.entries(written)) {
      next.set(
        path,
        typeof content === "string"
          ? new TextEncoder().encode(content)
          : content,
      );
    }
    const commit = makeCommit(
      message,
      objects.treeOf(next),
      state.head(),
      undefined,
    );
    moveDefault(commit.sha);
    return commit;
  }
  let release!: () => void;
  const released = new Promise<void>((resolve) => release = resolve);

  async function shaOf(bytes: Uint8Array): Promise<string> {
    let sha = shas.get(bytes);
    if (sha === undefined) {
      sha = await gitBlobSha(bytes);
      shas.set(bytes, sha);
    }
    return sha;
  }

  function takeFault(method: string, path: string): GitHubFault | null {
    if (!fault || faultLeft <= 0) return null;
    if (fault.method !== undefined && fault.method !== method) return null;
    if (fault.path !== undefined && !fault.path.test(path)) return null;
    const taken = fault;
    faultLeft -= 1;
    if (faultLeft <= 0) fault = null;
    return taken;
  }

  function links(base: string, path: string, sha: string) {
    const self = `${base}/repos/${repository}/contents/${path}?ref=${branch}`;
    const git = `${base}/repos/${repository}/git/blobs/${sha}`;
    const html = `https://github.example/${repository}/blob/${branch}/${path}`;
    return {
      url: self,
      html_url: html,
      git_url: git,
      download_url:
        `https://raw.github.example/${repository}/${branch}/${path}`,
      _links: { self, git, html },
    };
  }

  function describe(base: string, path: string, sha: string, size: number) {
    return {
      name: path.slice(path.lastIndexOf("/") + 1),
      path,
      sha,
      size,
      ...links(base, path, sha),
    };
  }

  async function answerFault(
    taken: Exclude<GitHubFault, { kind: "call" }>,
  ): Promise<Response> {
    switch (taken.kind) {
      case "status":
        return new Response(
          taken.body ??
            JSON.stringify({
              message: taken.status === 429 || taken.status === 403
                ? "API rate limit exceeded for user ID 1."
                : "Server Error",
              documentation_url: "https://docs.github.com/rest",
              status: String(taken.status),
            }),
          {
            status: taken.status,
            headers: {
              "content-type": "application/json; charset=utf-8",
              ...taken.headers,
            },
          },
        );
      case "malformed":
        return new Response('{"type": "file", "encoding": "base64", "con', {
          status: 200,
          headers: { "content-type": "application/json; charset=utf-8" },
        });
      case "hang": {
        await released;
        return error(503, "Service Unavailable");
      }
      case "reset":
      case "partial":
      case "endless": {
        const half = new TextEncoder().encode(
          '{"type":"file","encoding":"base64","size":12,"name":"home.json",',
        );
        const kind = taken.kind;
        return new Response(
          new ReadableStream<Uint8Array>({
            async start(controller) {
              if (kind !== "reset") controller.enqueue(half);
              if (kind === "endless") await released;
              controller.error(new Error("connection broken"));
            },
          }),
          {
            status: 200,
            headers: { "content-type": "application/json; charset=utf-8" },
          },
        );
      }
    }
  }

  /** Annotated tags: the tag object's sha → the commit's. */
  const tags = new Map<string, string>();

  /** The commit a ref names: the branch, a commit, a tag peeled. */
  function commitAt(ref: string | null): DoubleCommit | undefined {
    if (ref === null || ref === branch) return log.at(-1);
    const other = refs.get(ref);
    if (other !== undefined) return objects.commits.get(other);
    return objects.commits.get(tags.get(ref) ?? ref);
  }

  function filesAt(ref: string | null): Map<string, Uint8Array> | undefined {
    if (ref === null || ref === branch) return files;
    return commitAt(ref)?.files;
  }

  /** A commit and its ancestors, newest first. */
  function ancestry(commit: DoubleCommit): DoubleCommit[] {
    const chain: DoubleCommit[] = [];
    for (
      let at: DoubleCommit | undefined = commit;
      at;
      at = at.parent === null ? undefined : commitAt(at.parent)
    ) chain.push(at);
    return chain;
  }

  function compare(baseRef: string, headRef: string, base: string): Response {
    const from = commitAt(baseRef);
    const to = commitAt(headRef);
    if (!from || !to) return error(404, "Not Found");
    const behind = ancestry(from);
    const ahead = ancestry(to);
    const mergeBase = behind.find((commit) => ahead.includes(commit));
    if (!mergeBase) return error(404, "No common ancestor between the two");
    const aheadBy = ahead.indexOf(mergeBase);
    const behindBy = behind.indexOf(mergeBase);
    const commitOf = (commit: DoubleCommit) => ({
      sha: commit.sha,
      url: `${base}/repos/${repository}/commits/${commit.sha}`,
      commit: { message: commit.message, author: commit.author },
    });
    return json(200, {
      url: `${base}/repos/${repository}/compare/${baseRef}...${headRef}`,
      status: aheadBy === 0 && behindBy === 0
        ? "identical"
        : aheadBy === 0
        ? "behind"
        : behindBy === 0
        ? "ahead"
        : "diverged",
      ahead_by: aheadBy,
      behind_by: behindBy,
      total_commits: aheadBy,
      base_commit: commitOf(from),
      merge_base_commit: commitOf(mergeBase),
      commits: ahead.slice(0, aheadBy).reverse().map(commitOf),
      files: [],
    });
  }

  function listCommits(url: URL, base: string): Response {
    const start = url.searchParams.get("sha") ?? branch;
    const path = url.searchParams.get("path");
    const perPage = Math.min(
      maxPerPage,
      Math.max(1, Number(url.searchParams.get("per_page") ?? "30") || 30),
    );
    const page = Math.max(1, Number(url.searchParams.get("page") ?? "1") || 1);
    const head = commitAt(start);
    if (head === undefined) {
      return json(404, {
        message: `No commit found for SHA: ${start}`,
        documentation_url:
          "https://docs.github.com/rest/commits/commits#list-commits",
        status: "404",
      });
    }
    const chain = ancestry(head);
    const touching = path === null ? chain : chain.filter((commit) => {
      const parent = commit.parent === null
        ? undefined
        : commitAt(commit.parent);
      return parent?.files.get(path) !== commit.files.get(path) ||
        parent?.links?.get(path) !== commit.links?.get(path);
    });
    const last = Math.max(1, Math.ceil(touching.length / perPage));
    const items = touching.slice((page - 1) * perPage, page * perPage).map((
      commit,
    ) => ({
      sha: commit.sha,
      node_id: `C_${commit.sha.slice(0, 16)}`,
      commit: {
        author: commit.author,
        committer: commit.committer,
        message: commit.message,
        tree: {
          sha: commit.sha.split("").reverse().join(""),
          url: `${base}/repos/${repository}/git/trees/${commit.sha}`,
        },
        url: `${base}/repos/${repository}/git/commits/${commit.sha}`,
        comment_count: 0,
        verification: {
          verified: false,
          reason: "unsigned",
          signature: null,
          payload: null,
        },
      },
      url: `${base}/repos/${repository}/commits/${commit.sha}`,
      html_url: `https://github.example/${repository}/commit/${commit.sha}`,
      comments_url:
        `${base}/repos/${repository}/commits/${commit.sha}/comments`,
      author: null,
      committer: null,
      parents: commit.parent === null ? [] : [{
        sha: commit.parent,
        url: `${base}/repos/${repository}/commits/${commit.parent}`,
        html_url:
          `https://github.example/${repository}/commit/${commit.parent}`,
      }],
    }));
    const link = (n: number) => {
      // As GitHub's documentation shows them: the repository by its id.
      const next = new URL(url.href);
      next.searchParams.set("page", String(n));
      return `<${base}/repositories/${REPOSITORY_ID}/commits${next.search}>`;
    };
    const parts: string[] = [];
    if (page > 1) {
      parts.push(`${link(page - 1)}; rel="prev"`);
    }
    if (page < last) {
      parts.push(`${link(page + 1)}; rel="next"`, `${link(last)}; rel="last"`);
    }
    if (page > 1) parts.push(`${link(1)}; rel="first"`);
    return json(200, items, parts.length ? { link: parts.join(", ") } : {});
  }

  async function get(
    request: Request,
    url: URL,
    base: string,
    path: string,
  ): Promise<Response> {
    const ref = url.searchParams.get("ref");
    const files = filesAt(ref);
    if (files === undefined) {
      return error(404, `No commit found for the ref ${ref}`);
    }
    const link = commitAt(ref)?.links?.get(path);
    if (link !== undefined) {
      const folder = path.includes("/")
        ? path.slice(0, path.lastIndexOf("/") + 1)
        : "";
      const named = new URL(link, `file:///${folder}`).pathname.slice(1);
      const file = files.get(named);
      if (file === undefined) {
        return json(200, {
          type: "symlink",
          target: link,
          ...describe(
            base,
            path,
            sha1Sync(new TextEncoder().encode(`link ${link}`)),
            link.length,
          ),
        });
      }
      // Followed, as GitHub does: the file it names, under that path.
      path = named;
    }
    const bytes = files.get(path);
    if (bytes === undefined) {
      const prefix = `${path}/`;
      const entries = [...files.keys()].filter((key) => key.startsWith(prefix));
      if (entries.length === 0) return error(404, "Not Found");
      const names = new Set(
        entries.map((key) => key.slice(prefix.length).split("/")[0]!),
      );
      const listing = [];
      for (const entry of [...names].sort()) {
        const child = `${prefix}${entry}`;
        const file = files.get(child);
        listing.push(
          file
            ? {
              type: "file",
              ...describe(base, child, await shaOf(file), file.byteLength),
            }
            : { type: "dir", ...describe(base, child, "0".repeat(40), 0) },
        );
      }
      return json(200, listing);
    }
    const sha = await shaOf(bytes);
    const accept = request.headers.get("accept") ?? "";
    if (/vnd\.github(?:\.v3)?\.raw/.test(accept)) {
      return new Response(bytes.slice(), {
        status: 200,
        headers: { "content-type": "application/octet-stream", etag: sha },
      });
    }
    const large = bytes.byteLength > RAW_LIMIT;
    return json(200, {
      type: "file",
      encoding: large ? "none" : "base64",
      content: large ? "" : lineBroken(bytes),
      ...describe(base, path, sha, bytes.byteLength),
    });
  }

  async function put(
    request: Request,
    record: RecordedRequest,
    base: string,
    path: string,
  ): Promise<Response> {
    let body: unknown;
    try {
      body = await request.json();
    } catch {
      return error(400, "Problems parsing JSON");
    }
    if (typeof body !== "object" || body === null || Array.isArray(body)) {
      return error(400, "Problems parsing JSON");
    }
    const fields = body as Record<string, unknown>;
    record.body = {
      ...fields,
      ...(typeof fields.content === "string"
        ? { content: `<${fields.content.length} characters>` }
        : {}),
    };
    for (const field of ["message", "content"]) {
      if (fields[field] === undefined) {
        return error(422, `Invalid request.\n\n"${field}" wasn't supplied.`);
      }
      if (typeof fields[field] !== "string") {
        return error(
          422,
          `Invalid request.\n\nFor 'properties/${field}', ${
            JSON.stringify(fields[field])
          } is not a string.`,
        );
      }
    }
    const author = fields.author;
    if (author !== undefined) {
      const person = author as Record<string, unknown> | null;
      if (
        typeof person !== "object" || person === null ||
        typeof person.name !== "string" || typeof person.email !== "string"
      ) {
        return error(
          422,
          `Invalid request.\n\n"name" and "email" are required for 'author'.`,
        );
      }
    }
    for (const field of ["sha", "branch"]) {
      if (fields[field] !== undefined && typeof fields[field] !== "string") {
        return error(
          422,
          `Invalid request.\n\nFor 'properties/${field}', ${
            JSON.stringify(fields[field])
          } is not a string.`,
        );
      }
    }
    if (fields.branch !== undefined && fields.branch !== branch) {
      return error(404, `Branch ${fields.branch} not found`);
    }
    const content = decodeBase64(fields.content as string);
    if (!content) return error(422, "content is not valid Base64");
    const sha = fields.sha as string | undefined;
    const newSha = await gitBlobSha(content);
    shas.set(content, newSha);
    // Compare and swap with no await between the check and the set, so two
    // racing writes with the same sha cannot both win.
    let created: boolean;
    for (;;) {
      const current = files.get(path);
      const currentSha = current ? await shaOf(current) : undefined;
      if (files.get(path) !== current) continue;
      if (current && sha === undefined) {
        return error(422, `Invalid request.\n\n"sha" wasn't supplied.`);
      }
      if (current && sha !== currentSha) {
        return error(409, `${path} does not match ${sha}`);
      }
      files.set(path, content);
      created = current === undefined;
      break;
    }
    const given = author as { name: string; email: string } | undefined;
    const next = new Map(files);
    next.set(path, content);
    const made = makeCommit(
      fields.message as string,
      objects.treeOf(next),
      state.head(),
      given,
    );
    moveDefault(made.sha);
    const commitSha = made.sha;
    const writer = made.author;
    const person = made.committer;
    return json(created ? 201 : 200, {
      content: {
        type: "file",
        ...describe(base, path, newSha, content.byteLength),
      },
      commit: {
        sha: commitSha,
        node_id: `C_${commitSha.slice(0, 16)}`,
        url: `${base}/repos/${repository}/git/commits/${commitSha}`,
        html_url: `https://github.example/${repository}/commit/${commitSha}`,
        author: writer,
        committer: person,
        message: fields.message,
        tree: {
          sha: made.tree,
          url: `${base}/repos/${repository}/git/trees/${made.tree}`,
        },
        parents: [],
        verification: {
          verified: false,
          reason: "unsigned",
          signature: null,
          payload: null,
        },
      },
    });
  }

  /** Whether an authorization header holds a token the double accepts now. */
  function knownToken(authorization: string | null): boolean {
    const given = /^(?:Bearer|token) (\S+)$/.exec(authorization ?? "")?.[1];
    if (given === undefined) return false;
    if (given === token) return true;
    const expires = installationTokens.get(given);
    return expires !== undefined && clock() < expires;
  }

  /** `POST /app/installations/{id}/access_tokens`, with the app's JWT. */
  async function accessToken(
    request: Request,
    installation: string,
  ): Promise<Response> {
    const docs =
      "https://docs.github.com/rest/apps/apps#create-an-installation-access-token-for-an-app";
    const jwt = /^Bearer (\S+)$/.exec(
      request.headers.get("authorization") ?? "",
    )?.[1];
    if (!app || jwt === undefined) {
      return error(401, "A JSON web token could not be decoded", docs);
    }
    const refusal = await refuseAppJwt(jwt, app, clock());
    if (refusal) return error(refusal.status, refusal.message, docs);
    if (installation !== app.installationId) {
      return error(404, "Not Found", docs);
    }
    const issuedAt = clock();
    const expiresAt = issuedAt + (app.tokenLifetimeMs ?? 3_600_000);
    const issued = `ghs_${
      Array.from(
        crypto.getRandomValues(new Uint8Array(18)),
        (byte) => byte.toString(16).padStart(2, "0"),
      ).join("")
    }`;
    installationTokens.set(issued, expiresAt);
    appTokens.push({ issuedAt, expiresAt });
    return json(201, {
      token: issued,
      expires_at: new Date(Math.floor(expiresAt / 1000) * 1000).toISOString()
        .replace(".000Z", "Z"),
      permissions: { contents: "write", metadata: "read" },
      repository_selection: "selected",
    });
  }

  /** The answer of an authorized request to the repository, or `undefined`. */
  async function route(
    request: Request,
    record: RecordedRequest,
    url: URL,
    base: string,
  ): Promise<Response | undefined> {
    const comparing = COMPARE.exec(url.pathname);
    if (comparing && request.method === "GET") {
      if (
        decodeURIComponent(comparing[1]!) !== owner ||
        decodeURIComponent(comparing[2]!) !== name
      ) {
        return error(404, "Not Found");
      }
      return compare(comparing[3]!, comparing[4]!, base);
    }
    const listing = COMMITS.exec(url.pathname);
    if (listing && request.method === "GET") {
      const byId = listing[3] !== undefined;
      if (
        byId
          ? listing[3] !== REPOSITORY_ID
          : decodeURIComponent(listing[1]!) !== owner ||
            decodeURIComponent(listing[2]!) !== name
      ) {
        return error(404, "Not Found");
      }
      return listCommits(url, base);
    }
    const repo = REPO.exec(url.pathname);
    if (!repo) return undefined;
    try {
      if (
        decodeURIComponent(repo[1]!) !== owner ||
        decodeURIComponent(repo[2]!) !== name
      ) {
        return error(404, "Not Found");
      }
    } catch {
      return error(404, "Not Found");
    }
    const rest = repo[3]!;
    if (rest.startsWith("git/")) {
      return await gitDataAnswer(state, request, rest, base);
    }
    if (rest.startsWith("pulls") || rest.startsWith("issues/")) {
      return await pulls.answer(request, rest, base);
    }
    if (!rest.startsWith("contents/")) return undefined;
    let path: string;
    try {
      path = rest.slice("contents/".length).split("/").map(decodeURIComponent)
        .join("/");
    } catch {
      return error(404, "Not Found");
    }
    if (request.method === "GET") return await get(request, url, base, path);
    if (request.method === "PUT") return await put(request, record, base, path);
    return undefined;
  }

  /** A 304 when the request's `If-None-Match` names the answer's `ETag`. */
  async function conditional(
    request: Request,
    response: Response,
  ): Promise<Response> {
    if (request.method !== "GET" || response.status !== 200) return response;
    const body = new Uint8Array(await response.arrayBuffer());
    const etag = `W/"${sha256Hex(body)}"`;
    const asked = (request.headers.get("if-none-match") ?? "").split(",")
      .map((tag) => tag.trim().replace(/^W\//, ""));
    const headers = new Headers(response.headers);
    headers.set("etag", etag);
    headers.set("cache-control", "private, max-age=60, s-maxage=60");
    headers.set("vary", "Accept, Authorization, Cookie, X-GitHub-OTP");
    if (asked.includes(etag.replace(/^W\//, ""))) {
      headers.delete("content-type");
      return new Response(null, { status: 304, headers });
    }
    return new Response(body, { status: 200, headers });
  }

  async function handle(request: Request): Promise<Response> {
    const url = new URL(request.url);
    const headers: Record<string, string> = {};
    request.headers.forEach((value, key) => {
      headers[key] = key === "authorization" ? "[redacted]" : value;
    });
    const authorization = request.headers.get("authorization");
    const authorized = knownToken(authorization);
    const record: RecordedRequest = {
      method: request.method,
      path: url.pathname,
      search: url.search,
      headers,
      authorized,
    };
    requests.push(record);
    let received = request;
    if (request.method !== "GET" && request.method !== "PUT") {
      // Read once for the record, then handed on as a request of its own.
      const text = await request.text();
      received = new Request(request.url, {
        method: request.method,
        headers: request.headers,
        ...(text === "" ? {} : { body: text }),
      });
      try {
        const sent = JSON.parse(text);
        if (typeof sent === "object" && sent !== null && !Array.isArray(sent)) {
          record.body = summarised(sent) as Record<string, unknown>;
        }
      } catch {
        // Not JSON: the route answers it.
      }
    }
    const response = await answer(received, record, url, authorization);
    record.status = response.status;
    return response;
  }

  async function answer(
    request: Request,
    record: RecordedRequest,
    url: URL,
    authorization: string | null,
  ): Promise<Response> {
    const taken = takeFault(request.method, url.pathname);
    if (taken?.kind === "call") await taken.run();
    else if (taken) return await answerFault(taken);
    if (!request.headers.has("user-agent")) {
      return error(
        403,
        "Request forbidden by administrative rules. Please make sure your request has a User-Agent header",
      );
    }
    const version = request.headers.get("x-github-api-version");
    if (version !== null && version !== "2022-11-28") {
      return error(400, `API version ${version} is not supported.`);
    }
    const base = url.origin +
      (url.pathname.startsWith("/api/v3") ? "/api/v3" : "");
    const installation = ACCESS_TOKENS.exec(url.pathname);
    if (installation && request.method === "POST") {
      return await accessToken(request, installation[1]!);
    }
    if (authorization !== null && !record.authorized) {
      return error(401, "Bad credentials", "https://docs.github.com/rest");
    }
    const routed = record.authorized
      ? await route(request, record, url, base)
      : undefined;
    const response = await conditional(
      request,
      routed ?? error(404, "Not Found"),
    );
    if (response.status !== 304) remaining = Math.max(remaining - 1, 1);
    response.headers.set("x-ratelimit-limit", "5000");
    response.headers.set("x-ratelimit-remaining", String(remaining));
    response.headers.set("x-ratelimit-used", String(5000 - remaining));
    response.headers.set("x-ratelimit-resource", "core");
    response.headers.set("x-github-api-version-selected", "2022-11-28");
    return response;
  }

  const server = Deno.serve(
    { hostname: "127.0.0.1", port: 0, onListen: () => {} },
    handle,
  );
  let closing: Promise<void> | undefined;
  const close = () => {
    closing ??= (async () => {
      release();
      await server.shutdown();
    })();
    return closing;
  };
  return {
    url: `http://127.0.0.1:${server.addr.port}`,
    token,
    repository,
    branch,
    files,
    commits: log,
    refs,
    pulls: pulls.pulls,
    objects,
    requests,
    appTokens,
    publishElsewhere,
    revokeAppTokens: () => installationTokens.clear(),
    addOffBranchCommit(changed) {
      const head = log.at(-1)!;
      const next = new Map(head.files);
      for (const [path, text] of Object.entries(changed)) {
        next.set(path, new TextEncoder().encode(text));
      }
      const made = makeCommit(
        "On another branch",
        objects.treeOf(next),
        head.sha,
        undefined,
      );
      return Promise.resolve(made.sha);
    },
    addTag(commit) {
      const sha = sha1Sync(
        new TextEncoder().encode(`tag ${tags.size} ${commit}`),
      );
      tags.set(sha, commit);
      return Promise.resolve(sha);
    },
    addLink(path, target) {
      const head = log.at(-1)!;
      const next = new Map(files);
      next.delete(path);
      const made = makeCommit(
        `Link ${path}`,
        objects.treeOf(next),
        head.sha,
        undefined,
      );
      const links = new Map(made.links);
      links.set(path, target);
      made.links = links;
      moveDefault(made.sha);
      return Promise.resolve(made.sha);
    },
    setFault(next: GitHubFault | null): void {
      fault = next;
      faultLeft = next ? next.times ?? 1 : 0;
    },
    close,
    [Symbol.asyncDispose]: close,
  };
}

/** A session over a fresh double, configured by the `GITHUB_*` variables. */
export interface GitHubSignedIn extends AsyncDisposable {
  /** The double. */
  github: GitHubDouble;
  /** The KV. */
  kv: Deno.Kv;
  /** The env: KV, key hash, the double's variables, log capture. */
  env: TestEnv;
  /** The cookie header of a session opened with the key. */
  cookie: string;
}

/**
 * Starts a double with some files, opens a KV and logs in through the
 * router, the env pointing at the double as production does.
 *
 * @param router the router under test
 * @param key the site key
 * @param files the double's files, by path
 * @param extra env entries that replace the defaults
 * @returns the session, the KV closed and the double stopped when disposed
 */
export async function githubSignedIn(
  router: Router,
  key: string,
  files: Record<string, string | Uint8Array>,
  extra: Env = {},
): Promise<GitHubSignedIn> {
  const github = startGitHubDouble({ files });
  const kv = await Deno.openKv(":memory:");
  const close = async () => {
    kv.close();
    await github.close();
  };
  try {
    const { env, cookie } = await signedInEnv(router, kv, key, {
      ...githubEnv(github),
      ...extra,
    });
    return { github, kv, env, cookie, [Symbol.asyncDispose]: close };
  } catch (error) {
    await close();
    throw error;
  }
}
