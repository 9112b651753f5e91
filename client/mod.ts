/**
 * The browser client of the editing routes: log in, read a page, publish
 * it, upload an image, log out. It uses only `fetch`, `FormData` and `URL`,
 * so it runs in any browser and in tests; every failure is one
 * {@linkcode EditorError} carrying the route's code and what goes with it.
 * The answers are checked against the same wire schemas the server uses.
 *
 * @example
 * ```ts ignore
 * import { getPointer, login, publish, read, setPointer } from "@inpage/editor/client";
 *
 * await login("the site key");
 * const path = "src/content/pages/en/home.json";
 * const { content, version } = await read(path);
 * const page = setPointer(JSON.parse(content), "/title", "Welcome back");
 * console.log(getPointer(page, "/title"));
 * await publish({ path, content: page, version, message: "New title" });
 * ```
 *
 * @module
 */

import type { JsonValue, PageObject } from "../lib/wire/mod.ts";
import {
  type ContentAnswer,
  contentAnswer,
  type ErrorBody,
  errorBody,
  type HistoryAnswer,
  historyAnswer,
  okAnswer,
  type PageProblemBody,
  type SaveAnswer,
  saveAnswer,
  type SessionAnswer,
  sessionAnswer,
  type UploadAnswer,
  uploadAnswer,
} from "../lib/wire/mod.ts";

export type {
  ContentAnswer,
  ErrorBody,
  HistoryAnswer,
  ImageKind,
  InvalidReason,
  PageProblemBody,
  SaveAnswer,
  SessionAnswer,
  UploadAnswer,
} from "../lib/wire/mod.ts";
export { IMAGE_KINDS, INVALID_REASONS } from "../lib/wire/mod.ts";
export { getPointer, setPointer } from "../lib/wire/pointer.ts";
import { ROUTES, STAGED_PARAMETER } from "../lib/wire/names.ts";

/**
 * The code of a failure: the route's error code, `rate_limited` for a 429,
 * `unavailable` when the server or its repository cannot serve (502, 503),
 * `network` when no answer came, `bad_answer` when the answer is not the
 * documented shape.
 */
export type ErrorCode =
  | "bad_request"
  | "unauthorized"
  | "not_found"
  | "method_not_allowed"
  | "conflict"
  | "too_large"
  | "unsupported_format"
  | "invalid_content"
  | "rate_limited"
  | "unavailable"
  | "internal"
  | "network"
  | "bad_answer";

const STATUS_CODES: Readonly<Record<number, ErrorCode>> = {
  400: "bad_request",
  401: "unauthorized",
  403: "unauthorized",
  404: "not_found",
  405: "method_not_allowed",
  409: "conflict",
  413: "too_large",
  415: "unsupported_format",
  422: "invalid_content",
  429: "rate_limited",
  500: "internal",
  502: "unavailable",
  503: "unavailable",
  504: "unavailable",
};

/** What an {@linkcode EditorError} carries beside its code. */
export interface EditorErrorInit {
  /** HTTP status, 0 when no answer came. */
  status: number;
  /** Seconds to wait before trying again (from `retry-after`). */
  retryAfter?: number | undefined;
  /** JSON Pointer into the submitted page (422). */
  at?: string | undefined;
  /** Stable reason of a 422, such as `markup` or `link`. */
  reason?: string | undefined;
  /** What a 415 recognised in the bytes, such as `gif`. */
  kind?: string | undefined;
  /** Every problem of a 422 (up to 50, in document order), when listed. */
  problems?: readonly PageProblemBody[] | undefined;
  /** On a 502, the repository's own code (`not_found`, `unauthorized`, `unavailable`). */
  repository?: string | undefined;
  /** The underlying failure, for a `network` error. */
  cause?: unknown;
}

/**
 * A failed call: the route's answer as a code with its details.
 *
 * @example
 * ```ts
 * import { EditorError } from "./mod.ts";
 *
 * const error = new EditorError("rate_limited", { status: 429, retryAfter: 90 });
 * console.assert(error.code === "rate_limited" && error.retryAfter === 90);
 * ```
 */
export class EditorError extends Error {
  /** The failure's code. */
  readonly code: ErrorCode;
  /** HTTP status, 0 when no answer came. */
  readonly status: number;
  /** Seconds to wait before trying again, on a 429. */
  readonly retryAfter: number | undefined;
  /** JSON Pointer to the refused field, on a 422 that has a place. */
  readonly at: string | undefined;
  /** Stable reason of a 422 (`markup`, `link`, `media`, …). */
  readonly reason: string | undefined;
  /** What a 415 recognised (`gif`, `svg`, …). */
  readonly kind: string | undefined;
  /**
   * Every problem of a 422, in document order: the body's `problems`, or
   * its `at` and `reason` alone when it lists none.
   */
  readonly problems: readonly PageProblemBody[];
  /** On a 502, the repository's own code. */
  readonly repository: string | undefined;

  /**
   * Creates the error.
   *
   * @param code the failure's code
   * @param init its status and details
   */
  constructor(code: ErrorCode, init: EditorErrorInit) {
    super(
      init.status === 0
        ? `No answer from the server (${code})`
        : `The server answered ${init.status} (${code})`,
      init.cause === undefined ? undefined : { cause: init.cause },
    );
    this.name = "EditorError";
    this.code = code;
    this.status = init.status;
    this.retryAfter = init.retryAfter;
    this.at = init.at;
    this.reason = init.reason;
    this.kind = init.kind;
    this.problems = init.problems ??
      (init.at !== undefined && init.reason !== undefined
        ? [{ at: init.at, reason: init.reason }]
        : []);
    this.repository = init.repository;
  }
}

export type { JsonValue, PageObject };

/** What {@linkcode publish} sends. */
export interface PublishRequest {
  /** The page path, `src/content/pages/{lang}/{page}.json`. */
  path: string;
  /** The whole page: its text, or an object written as indented JSON. */
  content: string | PageObject;
  /** The version read, or `""` for a new file. */
  version: string;
  /** The commit message (one line, at most 120 characters once cleaned). */
  message?: string | undefined;
}

/** How {@linkcode upload} stores an image. */
export interface UploadOptions {
  /**
   * Keep the image aside for this editor's next publish (`?staged=1`)
   * instead of storing it at once: it reaches the repository in the same
   * commit as the first page published within one hour that names it, and
   * never otherwise. The answer then carries `staged: true`.
   */
  staged?: boolean | undefined;
}

/** Where a client sends its requests. */
export interface ClientOptions {
  /** Origin of the routes; default: the page's own (relative URLs). */
  origin?: string;
  /** The fetch to use; default: the global one. */
  fetch?: (request: Request) => Promise<Response>;
}

/** The calls of the routes, bound to one origin. */
export interface Client {
  /** Opens a session with the site key. */
  login(key: string): Promise<void>;
  /** Closes the session; always succeeds on a reachable server. */
  logout(): Promise<void>;
  /** Reads a page file as text with its version. */
  read(path: string): Promise<ContentAnswer>;
  /** Publishes a whole page; answers the new version. */
  publish(request: PublishRequest): Promise<SaveAnswer>;
  /**
   * Uploads an image already cropped and converted; with `staged`, keeps it
   * aside for the next publish that names it.
   */
  upload(
    file: Blob,
    name?: string,
    options?: UploadOptions,
  ): Promise<UploadAnswer>;
  /** Who is logged in (`/api/session`). */
  session(): Promise<SessionAnswer>;
  /** A page's commits, newest first, 30 at most; `before` pages back. */
  history(path: string, before?: string): Promise<HistoryAnswer>;
  /** A page as it was at a commit, with its version then. */
  readAt(path: string, commit: string): Promise<ContentAnswer>;
}

/**
 * Makes a client for the routes at an origin, with its own fetch.
 *
 * @param options the origin and the fetch
 * @returns the client
 * @example
 * ```ts
 * import { createClient, EditorError } from "./mod.ts";
 *
 * const client = createClient({
 *   origin: "https://site.example",
 *   fetch: () =>
 *     Promise.resolve(Response.json({ error: "unauthorized" }, { status: 401 })),
 * });
 * const error = await client.read("src/content/pages/en/home.json").catch((e) => e);
 * console.assert(error instanceof EditorError && error.code === "unauthorized");
 * ```
 */
export function createClient(options: ClientOptions = {}): Client {
  const base = options.origin ?? "";
  const send = options.fetch ?? ((request: Request) => fetch(request));
  const url = (path: string) =>
    base === ""
      ? new URL(path, globalThis.location?.href ?? "http://localhost/").href
      : new URL(path, base).href;
  async function call<T>(
    request: Request,
    schema: { safeParse(value: unknown): { success: boolean; data?: T } },
  ): Promise<T> {
    let response: Response;
    try {
      response = await send(request);
    } catch (cause) {
      throw new EditorError("network", { status: 0, cause });
    }
    const body: unknown = await response.json().catch(() => undefined);
    if (!response.ok) throw failure(response, body);
    const checked = schema.safeParse(body);
    if (!checked.success || checked.data === undefined) {
      throw new EditorError("bad_answer", { status: response.status });
    }
    return checked.data;
  }
  const json = (method: string, path: string, body: unknown) =>
    new Request(url(path), {
      method,
      headers: { "content-type": "application/json" },
      body: JSON.stringify(body),
    });
  return {
    async login(key) {
      await call(json("POST", ROUTES.auth.path, { key }), okAnswer);
    },
    async logout() {
      await call(
        new Request(url(ROUTES.auth.path), { method: "DELETE" }),
        okAnswer,
      );
    },
    read(path) {
      const target = `${ROUTES.content.path}?${new URLSearchParams({ path })}`;
      return call(new Request(url(target)), contentAnswer);
    },
    publish({ path, content, version, message }) {
      const text = typeof content === "string"
        ? content
        : JSON.stringify(content, null, 2) + "\n";
      const body = message === undefined
        ? { path, content: text, version }
        : { path, content: text, version, message };
      return call(json("POST", ROUTES.save.path, body), saveAnswer);
    },
    session() {
      return call(new Request(url(ROUTES.session.path)), sessionAnswer);
    },
    history(path, before) {
      const query = new URLSearchParams(
        before === undefined ? { path } : { path, before },
      );
      return call(
        new Request(url(`${ROUTES.history.path}?${query}`)),
        historyAnswer,
      );
    },
    readAt(path, commit) {
      const query = new URLSearchParams({ path, commit });
      const target = `${ROUTES.content.path}?${query}`;
      return call(new Request(url(target)), contentAnswer);
    },
    upload(file, name, options) {
      const form = new FormData();
      const fileName = "name" in file && typeof file.name === "string" &&
          file.name !== ""
        ? file.name
        : "image";
      form.append("file", file, fileName);
      if (name !== undefined) form.append("name", name);
      const target = options?.staged
        ? `${ROUTES.upload.path}?${STAGED_PARAMETER}=1`
        : ROUTES.upload.path;
      return call(
        new Request(url(target), { method: "POST", body: form }),
        uploadAnswer,
      );
    },
  };
}

/**
 * Turns a failed answer into its {@linkcode EditorError}.
 *
 * @param response the answer, not ok
 * @param body its JSON body, or `undefined` when it had none
 * @returns the error
 * @example
 * ```ts
 * import { failure } from "./mod.ts";
 *
 * const response = new Response(null, {
 *   status: 429,
 *   headers: { "retry-after": "120" },
 * });
 * const error = failure(response, { error: "Trop de requêtes." });
 * console.assert(error.code === "rate_limited" && error.retryAfter === 120);
 * ```
 */
export function failure(response: Response, body: unknown): EditorError {
  const status = response.status;
  const parsed = errorBody.safeParse(body);
  const fields: ErrorBody | undefined = parsed.success
    ? parsed.data
    : undefined;
  const code = STATUS_CODES[status] ??
    (status >= 500 ? "unavailable" : "bad_answer");
  const header = response.headers.get("retry-after");
  const seconds = header !== null && /^\d+$/.test(header.trim())
    ? Number(header.trim())
    : undefined;
  return new EditorError(code, {
    status,
    retryAfter: seconds,
    at: fields?.at,
    reason: fields?.reason,
    kind: fields?.kind,
    problems: fields?.problems,
    repository: status === 502 ? fields?.error : undefined,
  });
}

let defaultClient: Client | undefined;
function client(): Client {
  return defaultClient ??= createClient();
}

/**
 * Opens an editing session on the page's own origin with the site key.
 *
 * @param key the site key
 * @returns when the session cookies are set
 * @throws {EditorError} `unauthorized` for a wrong key, `rate_limited`
 *   after too many attempts
 * @example
 * ```ts ignore
 * import { login } from "@inpage/editor/client";
 *
 * await login(prompt("Site key") ?? "");
 * ```
 */
export function login(key: string): Promise<void> {
  return client().login(key);
}

/**
 * Closes the editing session on the page's own origin.
 *
 * @returns when both cookies are cleared
 * @example
 * ```ts ignore
 * import { logout } from "@inpage/editor/client";
 *
 * await logout();
 * ```
 */
export function logout(): Promise<void> {
  return client().logout();
}

/**
 * Reads a page file and its version.
 *
 * @param path the page path
 * @returns the file as text and its version
 * @throws {EditorError} `unauthorized`, `not_found`, `bad_request`, …
 * @example
 * ```ts ignore
 * import { read } from "@inpage/editor/client";
 *
 * const { content, version } = await read("src/content/pages/en/home.json");
 * console.log(JSON.parse(content).title, version);
 * ```
 */
export function read(path: string): Promise<ContentAnswer> {
  return client().read(path);
}

/**
 * Publishes a whole page file.
 *
 * @param request the path, the content, the version read and a message
 * @returns the new version
 * @throws {EditorError} `conflict` when someone published meanwhile,
 *   `invalid_content` with `at` and `reason`, `too_large`, …
 * @example
 * ```ts ignore
 * import { publish } from "@inpage/editor/client";
 *
 * const { version } = await publish({
 *   path: "src/content/pages/en/home.json",
 *   content: { title: "Welcome" },
 *   version: "8d1e1f0f6b0c9e5b3a3c0e0f0a7d6e5c4b3a2f10",
 *   message: "New title",
 * });
 * ```
 */
export function publish(request: PublishRequest): Promise<SaveAnswer> {
  return client().publish(request);
}

/**
 * Uploads an image (JPEG, PNG or WebP) already cropped and converted. With
 * `{ staged: true }` it is kept aside and committed with the first page
 * published within one hour that names it (one commit for both), never
 * otherwise.
 *
 * @param file the image
 * @param name a name to derive the stored name from
 * @param options `staged`: keep it for the next publish
 * @returns the stored name and the image's size (`staged: true` when kept aside)
 * @throws {EditorError} `unsupported_format` with `kind`, `too_large`, …
 * @example
 * ```ts ignore
 * import { publish, upload } from "@inpage/editor/client";
 *
 * const blob = await (await fetch("/photo.webp")).blob();
 * const image = await upload(blob, "Team photo", { staged: true });
 * await publish({
 *   path: "src/content/pages/en/home.json",
 *   content: { hero: { src: image.src, width: image.width, height: image.height } },
 *   version: "8d1e1f0f6b0c9e5b3a3c0e0f0a7d6e5c4b3a2f10",
 * }); // one commit: the page and the photo
 * ```
 */
export function upload(
  file: Blob,
  name?: string,
  options?: UploadOptions,
): Promise<UploadAnswer> {
  return client().upload(file, name, options);
}

/**
 * Who is logged in on the page's own origin (beyond the reference). Call it
 * only when the `editor_edit` cookie is set: without a session it fails with
 * `unauthorized`.
 *
 * @returns the session's editor: `{ editor: { id, name } }`
 * @throws {EditorError} `unauthorized` without a session
 * @example
 * ```ts ignore
 * import { session } from "@inpage/editor/client";
 *
 * const { editor } = await session();
 * console.log(`Logged in as ${editor.name}`);
 * ```
 */
export function session(): Promise<SessionAnswer> {
  return client().session();
}

/**
 * A page's commits, newest first, at most 30 (beyond the reference).
 *
 * @param path the page path
 * @param before a commit id: only older commits (the next page)
 * @returns `{ entries: [{ commit, version, date, author, message }] }`
 * @throws {EditorError} `not_found` for an unknown `before`, `bad_request`,
 *   `unavailable` when the repository keeps no history
 * @example
 * ```ts ignore
 * import { history } from "@inpage/editor/client";
 *
 * const { entries } = await history("src/content/pages/en/home.json");
 * const older = await history(
 *   "src/content/pages/en/home.json",
 *   entries.at(-1)?.commit,
 * );
 * ```
 */
export function history(
  path: string,
  before?: string,
): Promise<HistoryAnswer> {
  return client().history(path, before);
}

/**
 * A page as it was at a commit (beyond the reference): its text and its
 * version then. To restore it, publish that text with the current version.
 *
 * @param path the page path
 * @param commit a commit id from {@linkcode history}
 * @returns the file as text and its version at that commit
 * @throws {EditorError} `not_found` for an unknown commit or a page absent
 *   then, `bad_request` for a malformed commit
 * @example
 * ```ts ignore
 * import { history, readAt } from "@inpage/editor/client";
 *
 * const path = "src/content/pages/en/home.json";
 * const { entries } = await history(path);
 * const { content } = await readAt(path, entries[1]!.commit);
 * ```
 */
export function readAt(path: string, commit: string): Promise<ContentAnswer> {
  return client().readAt(path, commit);
}
