/**
 * The wire shapes of the routes: what the browser sends and what it gets
 * back, as zod schemas (`zod/mini`, small enough for the browser bundle).
 * The server's shape checks and the browser client's types come from these
 * schemas, so both sides agree on one definition. This folder imports only
 * `zod/mini`: no HTTP plumbing, no host API.
 *
 * @example
 * ```ts
 * import { saveAnswer } from "./mod.ts";
 *
 * const answer = saveAnswer.parse({ version: "8d1e1f0f" });
 * console.assert(answer.version === "8d1e1f0f");
 * ```
 *
 * @module
 */

import * as z from "zod/mini";
import { KEY_MAX, PAGE_PATH_MAX, VERSION_MAX } from "../limits.ts";
import { codePoints } from "../encoding/text.ts";

/** A JSON value, as a page file holds. */
export type JsonValue =
  | string
  | number
  | boolean
  | null
  | JsonValue[]
  | { [key: string]: JsonValue };

/** A page file's top level: a JSON object. */
export type PageObject = { [key: string]: JsonValue };

/**
 * The body of `POST /api/auth`: `{ key }`.
 *
 * @example
 * ```ts
 * import { loginBody } from "./mod.ts";
 *
 * console.assert(loginBody.safeParse({ key: "k" }).success);
 * ```
 */
export const loginBody: z.ZodMiniType<LoginBody> = z.object({
  key: z.string().check(
    z.refine((key) => key !== "" && codePoints(key, KEY_MAX) <= KEY_MAX),
  ),
});
/** The body of `POST /api/auth`. */
export interface LoginBody {
  /** The site key: 1 to 256 characters (code points). */
  key: string;
}

/**
 * The answer of `POST /api/auth` and `DELETE /api/auth`: `{ ok: true }`.
 *
 * @example
 * ```ts
 * import { okAnswer } from "./mod.ts";
 *
 * console.assert(okAnswer.safeParse({ ok: true }).success);
 * ```
 */
export const okAnswer: z.ZodMiniType<OkAnswer> = z.object({
  ok: z.literal(true),
});
/** The answer of `POST /api/auth` and `DELETE /api/auth`. */
export interface OkAnswer {
  /** Always `true`. */
  ok: true;
}

/**
 * The answer of `GET /api/content`: the whole file as text and its version.
 *
 * @example
 * ```ts
 * import { contentAnswer } from "./mod.ts";
 *
 * const { content } = contentAnswer.parse({ content: "{}", version: "abc" });
 * console.assert(content === "{}");
 * ```
 */
export const contentAnswer: z.ZodMiniType<ContentAnswer> = z.object({
  content: z.string(),
  version: z.string(),
});
/** The answer of `GET /api/content`. */
export interface ContentAnswer {
  /** The whole page file as text. */
  content: string;
  /** Its version, to send back with the next publish. */
  version: string;
}

/**
 * The answer of `GET /api/session` (beyond the reference): who is logged in.
 *
 * @example
 * ```ts
 * import { sessionAnswer } from "./mod.ts";
 *
 * const { editor } = sessionAnswer.parse({
 *   editor: { id: "alice", name: "Alice Martin" },
 * });
 * console.assert(editor.name === "Alice Martin");
 * ```
 */
export const sessionAnswer: z.ZodMiniType<SessionAnswer> = z.object({
  editor: z.object({
    id: z.string(),
    name: z.string(),
    role: z.optional(z.enum(["author", "publisher"])),
  }),
});
/** The answer of `GET /api/session`. */
export interface SessionAnswer {
  /** The session's editor: `editor` for the plain site key. */
  editor: {
    /** The editor's id. */
    id: string;
    /** The name their commits carry. */
    name: string;
    /**
     * `author` (sends for review, never publishes) or `publisher`; a server
     * before roles leaves it out (a publisher).
     */
    role?: "author" | "publisher" | undefined;
  };
}

/**
 * The answer of `GET /api/history` (beyond the reference): a page's
 * commits, newest first, at most 30.
 *
 * @example
 * ```ts
 * import { historyAnswer } from "./mod.ts";
 *
 * const { entries } = historyAnswer.parse({ entries: [] });
 * console.assert(entries.length === 0);
 * ```
 */
export const historyAnswer: z.ZodMiniType<HistoryAnswer> = z.object({
  entries: z.array(z.object({
    commit: z.string(),
    version: z.string(),
    date: z.string(),
    author: z.string(),
    message: z.string(),
  })),
});
/** The answer of `GET /api/history`. */
export interface HistoryAnswer {
  /** The commits that changed the page, newest first. */
  entries: {
    /** The commit's id (40 hex digits): `before` and `commit` take it. */
    commit: string;
    /** The page's version at that commit; `""` if it was removed then. */
    version: string;
    /** The author's date, ISO 8601. */
    date: string;
    /** The author's name. */
    author: string;
    /** The commit message's first line. */
    message: string;
  }[];
}

/**
 * The body of `POST /api/save`. The path's whitelist and the content's
 * byte cap are checked by the server beside this shape.
 *
 * @example
 * ```ts
 * import { saveBody } from "./mod.ts";
 *
 * const body = {
 *   path: "src/content/pages/en/home.json",
 *   content: "{}",
 *   version: "",
 * };
 * console.assert(saveBody.safeParse(body).success);
 * ```
 */
export const saveBody: z.ZodMiniType<SaveBody> = z.object({
  path: z.string().check(z.maxLength(PAGE_PATH_MAX)),
  content: z.string(),
  version: z.string().check(z.maxLength(VERSION_MAX)),
  message: z.optional(z.string()),
});
/** The body of `POST /api/save`. */
export interface SaveBody {
  /** The page path, `src/content/pages/{lang}/{page}.json`. */
  path: string;
  /** The whole page file as text. */
  content: string;
  /** The version read, or `""` for a new file. */
  version: string;
  /** The commit message. */
  message?: string | undefined;
}

/**
 * The answer of `POST /api/save`: the new version.
 *
 * @example
 * ```ts
 * import { saveAnswer } from "./mod.ts";
 *
 * console.assert(saveAnswer.safeParse({ version: "abc" }).success);
 * ```
 */
export const saveAnswer: z.ZodMiniType<SaveAnswer> = z.object({
  version: z.string(),
});
/** The answer of `POST /api/save`. */
export interface SaveAnswer {
  /** The new version. */
  version: string;
}

/**
 * The answer of `POST /api/upload`: the stored name and the image's size,
 * and `staged: true` when the image was kept aside for the next publish
 * (`?staged=1`).
 *
 * @example
 * ```ts
 * import { uploadAnswer } from "./mod.ts";
 *
 * const image = { src: "team-3f2a9c1b7d4e.webp", width: 1200, height: 630 };
 * console.assert(uploadAnswer.safeParse(image).success);
 * console.assert(uploadAnswer.safeParse({ ...image, staged: true }).success);
 * ```
 */
export const uploadAnswer: z.ZodMiniType<UploadAnswer> = z.object({
  src: z.string(),
  width: z.int().check(z.positive()),
  height: z.int().check(z.positive()),
  staged: z.optional(z.literal(true)),
});
/** The answer of `POST /api/upload`. */
export interface UploadAnswer {
  /** The stored file name, to copy as is into the page. */
  src: string;
  /** Width in pixels, read from the image header. */
  width: number;
  /** Height in pixels, read from the image header. */
  height: number;
  /**
   * `true` when the image was kept aside (`?staged=1`): it reaches the
   * repository with the editor's next publish of a page that names it,
   * within one hour, and never otherwise. Absent when it is stored.
   */
  staged?: true | undefined;
}

/**
 * The stable reasons of a 422 `invalid_content`, beside `at`.
 *
 * @example
 * ```ts
 * import { INVALID_REASONS } from "./mod.ts";
 *
 * console.assert(INVALID_REASONS.includes("markup"));
 * ```
 */
export const INVALID_REASONS = [
  "json",
  "shape",
  "depth",
  "size",
  "key",
  "duplicate_key",
  "id",
  "duplicate_id",
  "media",
  "link",
  "markup",
  "number",
  "template",
] as const;
/** A stable reason of a 422 `invalid_content`. */
export type InvalidReason = typeof INVALID_REASONS[number];

/**
 * What `kind` of a 415 `unsupported_format` may say was recognised.
 *
 * @example
 * ```ts
 * import { IMAGE_KINDS } from "./mod.ts";
 *
 * console.assert(IMAGE_KINDS.includes("gif"));
 * ```
 */
export const IMAGE_KINDS = [
  "jpeg",
  "png",
  "webp",
  "gif",
  "bmp",
  "tiff",
  "avif",
  "heic",
  "svg",
  "ico",
  "pdf",
  "unknown",
] as const;
/** What a 415 `unsupported_format` says was recognised. */
export type ImageKind = typeof IMAGE_KINDS[number];

/**
 * One problem of a page in a 422 `invalid_content`: where and why.
 *
 * @example
 * ```ts
 * import { pageProblem } from "./mod.ts";
 *
 * const problem = pageProblem.parse({ at: "/title", reason: "link" });
 * console.assert(problem.reason === "link");
 * ```
 */
export const pageProblem: z.ZodMiniType<PageProblemBody> = z.object({
  at: z.string(),
  reason: z.string(),
});
/** One problem of a page in a 422: a JSON Pointer and a stable reason. */
export interface PageProblemBody {
  /** JSON Pointer into the submitted page, `""` for all of it. */
  at: string;
  /** Stable reason (one of {@linkcode INVALID_REASONS}). */
  reason: string;
}

/**
 * An error body: `{ error }`, where `error` is a code (or, on 429 and the
 * auth route's 401, a sentence), with `at` and `reason` (the first problem)
 * and `problems` (up to 50 `{ at, reason }` in document order) on 422, and
 * `kind` on 415; on the review routes `fields` (a 409 at publish), `pages`
 * (a 422 of a review's pages) and `path` (a 409 of a stale page). Unknown
 * fields are ignored.
 *
 * @example
 * ```ts
 * import { errorBody } from "./mod.ts";
 *
 * const body = errorBody.parse({
 *   error: "invalid_content",
 *   at: "/sections/0/body",
 *   reason: "markup",
 * });
 * console.assert(body.at === "/sections/0/body");
 * ```
 */
export const errorBody: z.ZodMiniType<ErrorBody> = z.object({
  error: z.string(),
  at: z.optional(z.string()),
  reason: z.optional(z.string()),
  problems: z.optional(z.array(pageProblem)),
  kind: z.optional(z.string()),
  fields: z.optional(
    z.array(z.object({ path: z.string(), pointer: z.string() })),
  ),
  pages: z.optional(z.array(z.object({
    path: z.string(),
    at: z.string(),
    reason: z.string(),
    problems: z.array(pageProblem),
  }))),
  path: z.optional(z.string()),
});
/** An error body. */
export interface ErrorBody {
  /** The code, or a sentence on 429 and the auth route's 401. */
  error: string;
  /** JSON Pointer to the refused field (422). */
  at?: string | undefined;
  /** Stable reason of a 422 (of its first problem). */
  reason?: string | undefined;
  /** Every problem of a 422, up to 50, in document order. */
  problems?: PageProblemBody[] | undefined;
  /** What a 415 recognised. */
  kind?: string | undefined;
  /** The fields changed on both sides, in a 409 of a review's publish. */
  fields?: { path: string; pointer: string }[] | undefined;
  /** Each page refused by the page rules, in a 422 of `/api/reviews`. */
  pages?: PageProblems[] | undefined;
  /** The page whose version is stale, in a 409 of `/api/reviews`. */
  path?: string | undefined;
}

/** One page refused by the page rules, in a review's 422. */
export interface PageProblems {
  /** The page's path. */
  path: string;
  /** Its first problem's JSON Pointer. */
  at: string;
  /** Its first problem's reason. */
  reason: string;
  /** Every problem of that page, up to 50, in document order. */
  problems: PageProblemBody[];
}
