/**
 * The GitHub repository's many-file commit, over the Git Data API: bytes
 * kept aside as blobs (`POST git/blobs`); a commit is one tree on the
 * branch head's tree (`POST git/trees` with `base_tree`; text files go
 * inline, other bytes as blobs), one commit (`POST git/commits`), and the
 * branch moved with `force: false` (`PATCH git/refs/heads/{branch}`). A
 * move GitHub refuses because the branch moved meanwhile (another page
 * published) is rebuilt on the new head, at most
 * {@linkcode COMMIT_ATTEMPTS} times; only a file whose version is not the
 * expected one is a conflict.
 *
 * Each file's condition is read with the contents API on the branch, the
 * same conditional read as `Repository.read` (usually a 304, which costs
 * no budget): the head it is compared with can only be older than the
 * branch when the move is attempted, and a move succeeds only onto the
 * head the tree was built on.
 *
 * @module
 */

import {
  BranchExistsError,
  type CommitFile,
  type CommitOptions,
  type CommitResult,
  ConflictError,
  gitBlobSha,
  isOwnBranch,
  isStaged,
  RepositoryError,
  type StagedBlob,
} from "./repository.ts";
import { encodeBase64 } from "../encoding/bytes.ts";
import { type GitHubTransport, isRecord } from "./github_transport.ts";

/** Moves of the branch tried before a publish gives up. */
export const COMMIT_ATTEMPTS = 4;
const OBJECT_ID = /^[0-9a-f]{40}$/;
/** Commits whose tree is known (a commit's tree never changes). */
const TREES_KEPT = 1_000;

/** A tree entry of `POST git/trees`. */
interface TreeEntry {
  path: string;
  mode: "100644";
  type: "blob";
  sha?: string;
  content?: string;
}

/** How the Git Data calls reach one repository. */
export interface GitDataOptions {
  /** `{apiUrl}/repos/{owner}/{name}/`. */
  repo: string;
  /** The site branch. */
  branch: string;
  /** The bound on one call, in milliseconds. */
  timeoutMs: number;
  /**
   * Reads a file's version on a ref (the contents API, conditional): `""`
   * when absent.
   */
  versionAt: (
    path: string,
    ref: string,
    signal: AbortSignal,
  ) => Promise<string>;
}

/** The Git Data calls of one GitHub repository. */
export class GitHubGitData {
  readonly #http: GitHubTransport;
  readonly #options: GitDataOptions;
  readonly #heads = new Map<string, string>();
  readonly #trees = new Map<string, string>();

  /**
   * Makes the calls; nothing is sent yet.
   *
   * @param http the transport
   * @param options the repository, the site branch and the version reader
   */
  constructor(http: GitHubTransport, options: GitDataOptions) {
    this.#http = http;
    this.#options = options;
  }

  /**
   * Keeps bytes as a blob, in no tree.
   *
   * @param content the bytes
   * @returns the blob's sha
   */
  async stage(content: Uint8Array): Promise<StagedBlob> {
    if (!(content instanceof Uint8Array)) {
      throw new TypeError("Staged content must be bytes");
    }
    const signal = AbortSignal.timeout(this.#options.timeoutMs);
    const sha = await this.#blob(content, signal, "a staged blob");
    return { staged: sha };
  }

  async #blob(
    content: Uint8Array,
    signal: AbortSignal,
    what: string,
  ): Promise<string> {
    const answer = await this.#send(
      signal,
      `the creation of ${what}`,
      "POST",
      "git/blobs",
      {
        content: encodeBase64(content),
        encoding: "base64",
      },
      [201],
    );
    const sha = isRecord(answer.body) ? answer.body.sha : undefined;
    if (typeof sha !== "string" || sha !== gitBlobSha(content)) {
      throw this.#http.unavailable(
        `GitHub answered the creation of ${what} without its sha`,
      );
    }
    return sha;
  }

  /**
   * Commits files on a branch in one commit (see the module doc).
   *
   * @param files the files
   * @param options message, author and branch
   * @returns the head after the commit and each file's version
   */
  async commit(
    files: readonly CommitFile[],
    options: CommitOptions,
  ): Promise<CommitResult> {
    checkFiles(files);
    const site = this.#options.branch;
    const branch = options.branch ?? site;
    if (branch !== site && !isOwnBranch(branch)) {
      throw new RepositoryError(
        "unauthorized",
        "Refused branch (only inpage/… besides the site branch)",
      );
    }
    const signal = AbortSignal.timeout(this.#options.timeoutMs * 3);
    const entries: TreeEntry[] = [];
    const versions: Record<string, string> = {};
    for (const file of files) {
      const entry = await this.#entry(file.path, file.content, signal);
      entries.push(entry.entry);
      versions[file.path] = entry.version;
    }
    for (let attempt = 0; attempt < COMMIT_ATTEMPTS; attempt++) {
      let head = await this.#head(
        branch,
        attempt > 0 || options.create === true,
        signal,
      );
      if (head !== "" && options.create && branch !== site) {
        throw new BranchExistsError(branch);
      }
      const created = head === "";
      // A new branch starts from the site branch as it is now (another
      // process may have moved it): its files are checked at that commit.
      if (created) head = await this.#head(site, true, signal);
      if (head === "") {
        throw new RepositoryError("not_found", `The branch ${site} is absent`);
      }
      // A new branch's files are those of the site branch's head.
      const ref = created ? head : branch;
      for (const file of files) {
        if (file.expected === null) continue;
        const version = await this.#options.versionAt(file.path, ref, signal);
        if (version !== file.expected.toLowerCase()) {
          throw new ConflictError(
            `${file.path} is ${version || "absent"} on ${branch}, expected ${
              file.expected || "absent"
            }`,
            file.path,
          );
        }
      }
      const baseTree = await this.#treeOf(head, signal);
      const tree = await this.#tree(baseTree, entries, signal);
      if (tree === baseTree && !created) return { commit: head, versions };
      const commit = tree === baseTree
        ? head
        : await this.#commitObject(tree, head, options, signal);
      if (await this.#move(branch, commit, created, signal)) {
        this.#heads.set(branch, commit);
        this.#remember(commit, tree);
        return commit === head || branch === site
          ? { commit, versions }
          : { commit, versions, parent: head };
      }
      this.#heads.delete(branch);
    }
    throw this.#http.unavailable(
      `${branch} kept moving: ${COMMIT_ATTEMPTS} commits were refused`,
    );
  }

  /**
   * Notes a branch's new head, moved by another call of this repository (a
   * one-file write), so that the next commit starts from it.
   *
   * @param branch the branch
   * @param commit its head now
   */
  moved(branch: string, commit: string): void {
    if (this.#heads.has(branch)) this.#heads.set(branch, commit);
  }

  /**
   * Deletes an `inpage/…` branch.
   *
   * @param branch its name
   * @returns `true` when deleted, `false` when there was none
   */
  async deleteBranch(branch: string): Promise<boolean> {
    if (branch === this.#options.branch || !isOwnBranch(branch)) {
      throw new RepositoryError(
        "unauthorized",
        "Refused branch (only inpage/… besides the site branch)",
      );
    }
    const signal = AbortSignal.timeout(this.#options.timeoutMs);
    const what = `the deletion of ${branch}`;
    const response = await this.#http.request({
      what,
      method: "DELETE",
      url: `${this.#options.repo}git/refs/${refPath(branch)}`,
      signal,
    });
    if (response.status === 204) {
      this.#heads.delete(branch);
      await this.#http.discard(response);
      return true;
    }
    if (response.status === 422 || response.status === 404) {
      await this.#http.discard(response);
      return false;
    }
    throw await this.#failure(signal, what, response);
  }

  /** A file's tree entry and version: text inline, other bytes as a blob. */
  async #entry(
    path: string,
    content: Uint8Array | StagedBlob,
    signal: AbortSignal,
  ): Promise<{ entry: TreeEntry; version: string }> {
    const base = { path, mode: "100644" as const, type: "blob" as const };
    if (isStaged(content)) {
      if (!OBJECT_ID.test(content.staged)) {
        throw new RepositoryError("unavailable", "A staged id is malformed");
      }
      return {
        entry: { ...base, sha: content.staged },
        version: content.staged,
      };
    }
    const version = gitBlobSha(content);
    let text: string | undefined;
    try {
      text = new TextDecoder("utf-8", { fatal: true, ignoreBOM: true })
        .decode(content);
    } catch {
      text = undefined;
    }
    if (text !== undefined) {
      return { entry: { ...base, content: text }, version };
    }
    const sha = await this.#blob(content, signal, `the blob of ${path}`);
    return { entry: { ...base, sha }, version };
  }

  /** A branch's head: the last one known, or read (conditionally). */
  async #head(
    branch: string,
    fresh: boolean,
    signal: AbortSignal,
  ): Promise<string> {
    const known = this.#heads.get(branch);
    if (known !== undefined && !fresh) return known;
    const what = `the head of ${branch}`;
    const response = await this.#http.request({
      what,
      method: "GET",
      url: `${this.#options.repo}git/ref/${refPath(branch)}`,
      signal,
      conditional: true,
    });
    if (response.status === 404) {
      await this.#http.discard(response);
      this.#heads.delete(branch);
      return "";
    }
    if (response.status !== 200) {
      throw await this.#failure(signal, what, response);
    }
    const body = await this.#http.bodyJson(signal, what, response);
    const object = isRecord(body) ? body.object : undefined;
    const sha = isRecord(object) ? object.sha : undefined;
    if (typeof sha !== "string" || !OBJECT_ID.test(sha)) {
      throw this.#http.unavailable(`GitHub answered ${what} without a sha`);
    }
    this.#heads.set(branch, sha);
    return sha;
  }

  /** A commit's tree: known, or read (`GET git/commits/{sha}`). */
  async #treeOf(commit: string, signal: AbortSignal): Promise<string> {
    const known = this.#trees.get(commit);
    if (known !== undefined) return known;
    const answer = await this.#send(
      signal,
      `the read of commit ${commit}`,
      "GET",
      `git/commits/${commit}`,
      undefined,
      [200],
    );
    const tree = isRecord(answer.body) ? answer.body.tree : undefined;
    const sha = isRecord(tree) ? tree.sha : undefined;
    if (typeof sha !== "string" || !OBJECT_ID.test(sha)) {
      throw this.#http.unavailable(
        `GitHub answered commit ${commit} without its tree`,
      );
    }
    this.#remember(commit, sha);
    return sha;
  }

  #remember(commit: string, tree: string): void {
    if (this.#trees.size >= TREES_KEPT) this.#trees.clear();
    this.#trees.set(commit, tree);
  }

  async #tree(
    baseTree: string,
    entries: readonly TreeEntry[],
    signal: AbortSignal,
  ): Promise<string> {
    const answer = await this.#send(
      signal,
      "the creation of a tree",
      "POST",
      "git/trees",
      {
        base_tree: baseTree,
        tree: entries,
      },
      [201],
    );
    const sha = isRecord(answer.body) ? answer.body.sha : undefined;
    if (typeof sha !== "string" || !OBJECT_ID.test(sha)) {
      throw this.#http.unavailable("GitHub answered a tree without its sha");
    }
    return sha;
  }

  async #commitObject(
    tree: string,
    parent: string,
    options: CommitOptions,
    signal: AbortSignal,
  ): Promise<string> {
    const author = options.author;
    const answer = await this.#send(
      signal,
      "the creation of a commit",
      "POST",
      "git/commits",
      {
        message: options.message || "Update",
        tree,
        parents: [parent],
        ...(author === undefined
          ? {}
          : { author: { name: author.name, email: author.email } }),
      },
      [201],
    );
    const sha = isRecord(answer.body) ? answer.body.sha : undefined;
    if (typeof sha !== "string" || !OBJECT_ID.test(sha)) {
      throw this.#http.unavailable("GitHub answered a commit without its sha");
    }
    return sha;
  }

  /**
   * Moves a branch to a commit with `force: false` (or makes it): `false`
   * when GitHub refuses because the branch moved meanwhile.
   */
  async #move(
    branch: string,
    commit: string,
    create: boolean,
    signal: AbortSignal,
  ): Promise<boolean> {
    const what = `the move of ${branch}`;
    const response = await this.#http.request(
      create
        ? {
          what,
          method: "POST",
          url: `${this.#options.repo}git/refs`,
          json: { ref: `refs/${refPath(branch)}`, sha: commit },
          signal,
        }
        : {
          what,
          method: "PATCH",
          url: `${this.#options.repo}git/refs/${refPath(branch)}`,
          json: { sha: commit, force: false },
          signal,
        },
    );
    if (response.status === 200 || response.status === 201) {
      await this.#http.discard(response);
      return true;
    }
    if (response.status === 422 || response.status === 409) {
      const text = await this.#http.bodyText(signal, what, response);
      if (/fast.forward|already exists/i.test(text)) return false;
      throw this.#http.unavailable(
        `GitHub answered ${response.status} to ${what}: ${text.slice(0, 200)}`,
      );
    }
    throw await this.#failure(signal, what, response);
  }

  /** Sends a Git Data call and reads its JSON answer, one of `ok` expected. */
  async #send(
    signal: AbortSignal,
    what: string,
    method: string,
    path: string,
    json: unknown,
    ok: readonly number[],
  ): Promise<{ body: unknown }> {
    const response = await this.#http.request({
      what,
      method,
      url: `${this.#options.repo}${path}`,
      signal,
      ...(json === undefined ? {} : { json }),
    });
    if (!ok.includes(response.status)) {
      throw await this.#failure(signal, what, response);
    }
    return { body: await this.#http.bodyJson(signal, what, response) };
  }

  /** A failed Git Data answer: never a conflict (only a file's version is one). */
  async #failure(
    signal: AbortSignal,
    what: string,
    response: Response,
  ): Promise<Error> {
    const status = response.status;
    const error = await this.#http.failure(signal, what, response, false);
    if (status === 404 && error instanceof RepositoryError) {
      return new RepositoryError("not_found", error.message);
    }
    return error;
  }
}

/** `heads/{branch}`, each segment percent-encoded. */
function refPath(branch: string): string {
  return `heads/${branch.split("/").map(encodeURIComponent).join("/")}`;
}

/** Refuses a malformed list of commit files before anything is sent. */
function checkFiles(files: readonly CommitFile[]): void {
  if (!Array.isArray(files) || files.length === 0) {
    throw new TypeError("A commit needs at least one file");
  }
  const seen = new Set<string>();
  for (const file of files) {
    const path = file?.path;
    if (
      typeof path !== "string" || seen.has(path) ||
      path.split("/").some((part) =>
        part === "" || part === "." || part === ".."
      ) ||
      !(file.content instanceof Uint8Array || isStaged(file.content)) ||
      !(file.expected === null || typeof file.expected === "string")
    ) {
      throw new TypeError(
        "Each commit file needs its own relative path, bytes or a staged blob, and a version or null",
      );
    }
    seen.add(path);
  }
}
