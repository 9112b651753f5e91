/**
 * The Git Data API of the GitHub double, as GitHub documents it
 * (https://docs.github.com/rest/git): blobs (`POST git/blobs`, `GET
 * git/blobs/{sha}`), trees (`POST git/trees` with `base_tree`, entries by
 * `sha` or `content`, `sha: null` deleting; `GET git/trees/{sha}` with
 * `recursive`), commits (`POST git/commits`, `GET git/commits/{sha}`) and
 * references (`GET git/ref/heads/{branch}`, `POST git/refs`, `PATCH
 * git/refs/heads/{branch}` refusing with 422 "Update is not a fast
 * forward" unless `force`, `DELETE git/refs/heads/{branch}`).
 *
 * @module
 */

import { decodeBase64, encodeBase64 } from "../../lib/encoding/bytes.ts";
import type { DoubleCommit, GitObjects, Person } from "./git_objects.ts";

/** What the Git Data endpoints read and change of the double. */
export interface GitState {
  /** The object store. */
  objects: GitObjects;
  /** The default branch. */
  branch: string;
  /** `owner/name`. */
  repository: string;
  /** The other branches, by name, to their commit. */
  refs: Map<string, string>;
  /** The default branch's head. */
  head(): string;
  /** Moves the default branch to a commit that descends from its head. */
  moveDefault(sha: string): void;
  /** Told of each branch deleted (its pull requests close). */
  branchDeleted?(branch: string): void;
  /** Makes a commit object, on no branch. */
  makeCommit(
    message: string,
    tree: string,
    parent: string | null,
    author: { name: string; email: string } | undefined,
  ): DoubleCommit;
}

const DOCS = "https://docs.github.com/rest/git";

function json(status: number, body: unknown): Response {
  return new Response(JSON.stringify(body), {
    status,
    headers: { "content-type": "application/json; charset=utf-8" },
  });
}

function error(status: number, message: string, page: string): Response {
  return json(status, {
    message,
    documentation_url: `${DOCS}/${page}`,
    status: String(status),
  });
}

/** Base64 with a `\n` after every 60 characters, as GitHub sends blobs. */
function lineBroken(bytes: Uint8Array): string {
  const flat = encodeBase64(bytes);
  return (flat.match(/.{1,60}/g) ?? []).map((line) => `${line}\n`).join("");
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

const SHA = /^[0-9a-f]{40}$/;
const MODES = new Set(["100644", "100755", "040000", "160000", "120000"]);

/** The commit's JSON, as `git/commits` answers it. */
function commitJson(base: string, state: GitState, commit: DoubleCommit) {
  const repo = `${base}/repos/${state.repository}`;
  return {
    sha: commit.sha,
    node_id: `C_${commit.sha.slice(0, 16)}`,
    url: `${repo}/git/commits/${commit.sha}`,
    html_url: `https://github.example/${state.repository}/commit/${commit.sha}`,
    author: commit.author,
    committer: commit.committer,
    message: commit.message,
    tree: { sha: commit.tree, url: `${repo}/git/trees/${commit.tree}` },
    parents: commit.parent === null ? [] : [{
      sha: commit.parent,
      url: `${repo}/git/commits/${commit.parent}`,
      html_url:
        `https://github.example/${state.repository}/commit/${commit.parent}`,
    }],
    verification: {
      verified: false,
      reason: "unsigned",
      signature: null,
      payload: null,
      verified_at: null,
    },
  };
}

function refJson(base: string, state: GitState, branch: string, sha: string) {
  const repo = `${base}/repos/${state.repository}`;
  return {
    ref: `refs/heads/${branch}`,
    node_id: `REF_${sha.slice(0, 12)}`,
    url: `${repo}/git/refs/heads/${branch}`,
    object: { sha, type: "commit", url: `${repo}/git/commits/${sha}` },
  };
}

/** The tree's entries as `git/trees` lists them, `recursive` or not. */
function treeItems(
  base: string,
  state: GitState,
  tree: string,
  recursive: boolean,
  prefix = "",
): unknown[] {
  const repo = `${base}/repos/${state.repository}`;
  return (state.objects.trees.get(tree) ?? []).flatMap((item) => {
    const path = `${prefix}${item.name}`;
    const entry = item.type === "tree"
      ? {
        path,
        mode: item.mode,
        type: "tree",
        sha: item.sha,
        url: `${repo}/git/trees/${item.sha}`,
      }
      : {
        path,
        mode: item.mode,
        type: "blob",
        sha: item.sha,
        size: state.objects.blobs.get(item.sha)?.byteLength ?? 0,
        url: `${repo}/git/blobs/${item.sha}`,
      };
    return recursive && item.type === "tree"
      ? [entry, ...treeItems(base, state, item.sha, true, `${path}/`)]
      : [entry];
  });
}

/**
 * Answers a Git Data request, or `undefined` when the path is not one.
 *
 * @param state the double's repository
 * @param request the request
 * @param rest the path after `/repos/{owner}/{repo}/`
 * @param base the API root as the request reached it
 * @returns the answer
 */
export async function gitDataAnswer(
  state: GitState,
  request: Request,
  rest: string,
  base: string,
): Promise<Response | undefined> {
  const method = request.method;
  const repo = `${base}/repos/${state.repository}`;
  const { objects } = state;
  let match: RegExpExecArray | null;
  if (rest === "git/blobs" && method === "POST") {
    const body = await bodyOf(request);
    if (!body) {
      return error(400, "Problems parsing JSON", "blobs#create-a-blob");
    }
    if (typeof body.content !== "string") {
      return error(
        422,
        `Invalid request.\n\n"content" wasn't supplied.`,
        "blobs#create-a-blob",
      );
    }
    const encoding = body.encoding ?? "utf-8";
    const bytes = encoding === "base64"
      ? decodeBase64(body.content)
      : encoding === "utf-8"
      ? new TextEncoder().encode(body.content)
      : undefined;
    if (!bytes) {
      return error(
        422,
        `encoding must be "utf-8" or "base64"`,
        "blobs#create-a-blob",
      );
    }
    const sha = objects.blob(bytes);
    return json(201, { url: `${repo}/git/blobs/${sha}`, sha });
  }
  if ((match = /^git\/blobs\/([^/]+)$/.exec(rest)) && method === "GET") {
    const bytes = objects.blobs.get(match[1]!);
    if (!bytes) return error(404, "Not Found", "blobs#get-a-blob");
    return json(200, {
      sha: match[1],
      node_id: `B_${match[1]!.slice(0, 16)}`,
      size: bytes.byteLength,
      url: `${repo}/git/blobs/${match[1]}`,
      content: lineBroken(bytes),
      encoding: "base64",
    });
  }
  if (rest === "git/trees" && method === "POST") {
    return await createTree(state, request, base);
  }
  if ((match = /^git\/trees\/([^/]+)$/.exec(rest)) && method === "GET") {
    const sha = match[1]!;
    if (!objects.trees.has(sha)) {
      return error(404, "Not Found", "trees#get-a-tree");
    }
    const recursive = new URL(request.url).searchParams.has("recursive");
    return json(200, {
      sha,
      url: `${repo}/git/trees/${sha}`,
      tree: treeItems(base, state, sha, recursive),
      truncated: false,
    });
  }
  if (rest === "git/commits" && method === "POST") {
    return await createCommit(state, request, base);
  }
  if ((match = /^git\/commits\/([^/]+)$/.exec(rest)) && method === "GET") {
    const commit = objects.commits.get(match[1]!);
    if (!commit) return error(404, "Not Found", "commits#get-a-commit-object");
    return json(200, commitJson(base, state, commit));
  }
  if ((match = /^git\/ref\/heads\/(.+)$/.exec(rest)) && method === "GET") {
    const branch = decodeURIComponent(match[1]!);
    const sha = branch === state.branch ? state.head() : state.refs.get(branch);
    if (sha === undefined) {
      return error(404, "Not Found", "refs#get-a-reference");
    }
    return json(200, refJson(base, state, branch, sha));
  }
  if (rest === "git/refs" && method === "POST") {
    return await createRef(state, request, base);
  }
  if ((match = /^git\/refs\/heads\/(.+)$/.exec(rest))) {
    const branch = decodeURIComponent(match[1]!);
    if (method === "PATCH") {
      return await updateRef(state, request, base, branch);
    }
    if (method === "DELETE") {
      if (branch === state.branch) {
        return error(
          422,
          "Cannot delete the default branch",
          "refs#delete-a-reference",
        );
      }
      if (!state.refs.delete(branch)) {
        return error(
          422,
          "Reference does not exist",
          "refs#delete-a-reference",
        );
      }
      state.branchDeleted?.(branch);
      return new Response(null, { status: 204 });
    }
  }
  return undefined;
}

async function createTree(
  state: GitState,
  request: Request,
  base: string,
): Promise<Response> {
  const page = "trees#create-a-tree";
  const body = await bodyOf(request);
  if (!body) return error(400, "Problems parsing JSON", page);
  if (!Array.isArray(body.tree)) {
    return error(422, `Invalid request.\n\n"tree" wasn't supplied.`, page);
  }
  let files = new Map<string, Uint8Array>();
  if (body.base_tree !== undefined) {
    const from = typeof body.base_tree === "string"
      ? state.objects.filesOf(body.base_tree)
      : undefined;
    if (!from) return error(422, "Invalid tree info", page);
    files = from;
  }
  for (const entry of body.tree as Record<string, unknown>[]) {
    const { path, mode, type, sha, content } = entry ?? {};
    if (
      typeof path !== "string" || path === "" || path.startsWith("/") ||
      typeof mode !== "string" || !MODES.has(mode) || type !== "blob"
    ) {
      return error(422, "Invalid tree info", page);
    }
    if (sha === null) {
      if (!files.delete(path)) {
        return error(422, `Path ${path} does not exist in base tree`, page);
      }
      continue;
    }
    if (typeof content === "string" && sha === undefined) {
      files.set(path, new TextEncoder().encode(content));
      continue;
    }
    const bytes = typeof sha === "string" && SHA.test(sha)
      ? state.objects.blobs.get(sha)
      : undefined;
    if (!bytes) {
      return error(422, `tree.sha ${String(sha)} is not a valid blob`, page);
    }
    files.set(path, bytes);
  }
  const sha = state.objects.treeOf(files);
  const repo = `${base}/repos/${state.repository}`;
  return json(201, {
    sha,
    url: `${repo}/git/trees/${sha}`,
    tree: treeItems(base, state, sha, false),
    truncated: false,
  });
}

async function createCommit(
  state: GitState,
  request: Request,
  base: string,
): Promise<Response> {
  const page = "commits#create-a-commit";
  const body = await bodyOf(request);
  if (!body) return error(400, "Problems parsing JSON", page);
  const { message, tree, parents, author } = body;
  if (typeof message !== "string") {
    return error(422, `Invalid request.\n\n"message" wasn't supplied.`, page);
  }
  if (typeof tree !== "string" || !state.objects.trees.has(tree)) {
    return error(422, "Tree SHA does not exist", page);
  }
  const list = parents === undefined ? [] : parents;
  if (
    !Array.isArray(list) || list.length > 1 ||
    list.some((parent) =>
      typeof parent !== "string" || !state.objects.commits.has(parent)
    )
  ) {
    return error(
      422,
      "Parent SHA does not exist or is not a commit object",
      page,
    );
  }
  const person = author as Partial<Person> | undefined;
  if (
    person !== undefined &&
    (typeof person?.name !== "string" || typeof person.email !== "string")
  ) {
    return error(
      422,
      `Invalid request.\n\n"name" and "email" are required for 'author'.`,
      page,
    );
  }
  const commit = state.makeCommit(
    message,
    tree,
    (list[0] as string | undefined) ?? null,
    person as { name: string; email: string } | undefined,
  );
  return json(201, commitJson(base, state, commit));
}

async function createRef(
  state: GitState,
  request: Request,
  base: string,
): Promise<Response> {
  const page = "refs#create-a-reference";
  const body = await bodyOf(request);
  if (!body) return error(400, "Problems parsing JSON", page);
  const { ref, sha } = body;
  if (
    typeof ref !== "string" || !ref.startsWith("refs/") ||
    ref.split("/").length < 3
  ) {
    return error(
      422,
      "Reference name must start with 'refs/' and have at least two slashes.",
      page,
    );
  }
  if (typeof sha !== "string" || !state.objects.commits.has(sha)) {
    return error(422, "Object does not exist", page);
  }
  if (!ref.startsWith("refs/heads/")) {
    return error(422, "Only branches are kept by this double", page);
  }
  const branch = ref.slice("refs/heads/".length);
  if (branch === state.branch || state.refs.has(branch)) {
    return error(422, "Reference already exists", page);
  }
  state.refs.set(branch, sha);
  return json(201, refJson(base, state, branch, sha));
}

async function updateRef(
  state: GitState,
  request: Request,
  base: string,
  branch: string,
): Promise<Response> {
  const page = "refs#update-a-reference";
  const body = await bodyOf(request);
  if (!body) return error(400, "Problems parsing JSON", page);
  const { sha, force } = body;
  const current = branch === state.branch
    ? state.head()
    : state.refs.get(branch);
  if (current === undefined) {
    return error(422, "Reference does not exist", page);
  }
  if (typeof sha !== "string" || !state.objects.commits.has(sha)) {
    return error(422, "Object does not exist", page);
  }
  if (force !== true && !state.objects.descends(current, sha)) {
    return error(422, "Update is not a fast forward", page);
  }
  if (branch === state.branch) {
    if (force === true && !state.objects.descends(current, sha)) {
      return error(
        422,
        "The double moves its default branch forward only",
        page,
      );
    }
    state.moveDefault(sha);
  } else state.refs.set(branch, sha);
  return json(200, refJson(base, state, branch, sha));
}
