/**
 * `/api/content`: reads a page file and its version; with `commit`, as it
 * was at that commit (beyond the reference: see `routes/history.ts`).
 *
 * @module
 */

import type { Env, Handler } from "../lib/http/env.ts";
import type { RepositoryFile } from "../lib/repository/repository.ts";
import { notFound } from "../lib/http/http_error.ts";
import { commitParameter } from "../lib/http/history_request.ts";
import { RepositoryError } from "../lib/repository/repository.ts";
import { jsonResponse } from "../lib/http/json_response.ts";
import { pathParameter } from "../lib/http/page_request.ts";
import { admit } from "../lib/access/admission.ts";
import { requireRepository } from "../lib/repository/from_env.ts";
import { dispatch, handler } from "../lib/http/route.ts";
import { ROUTES } from "../lib/wire/names.ts";
import { checkLocales, type RouterOptions } from "../lib/pages/locales.ts";

/** The handlers of `/api/content`. */
export interface ContentRoute {
  /** Dispatches on the method; 405 for anything but GET. */
  onRequest: Handler;
  /** Reads a page file: `{ content, version }`. */
  onRequestGet: Handler;
}

/**
 * Creates the `/api/content` handlers for a site's locales.
 *
 * @param options `{ locales }`
 * @returns `onRequest` and `onRequestGet`
 * @throws {TypeError} on an empty or malformed locales list
 * @example
 * ```ts
 * import { createContentRoute } from "@inpage/editor";
 * import assert from "node:assert/strict";
 *
 * const content = createContentRoute({ locales: ["en"] });
 * const response = await content.onRequest({
 *   request: new Request("https://site.example/api/content", { method: "POST" }),
 *   env: {},
 * });
 * assert.equal(response.status, 405);
 * assert.equal(response.headers.get("allow"), "GET");
 * ```
 */
export function createContentRoute(options: RouterOptions): ContentRoute {
  const locales = checkLocales(options);
  const onRequestGet = handler(
    ROUTES.content,
    async (exchange) => {
      const { request, env, client } = exchange;
      const admission = await admit(env, ROUTES.content, client, request);
      exchange.editor = admission.requireSession().editor.id;
      // The file is read while the slot is committed (reading changes
      // nothing); the slot's refusal still answers first.
      const reading = readPage(env, request, locales);
      await Promise.all([admission.spend(), reading.catch(() => {})]);
      const file = await reading;
      return jsonResponse(200, {
        // The whole file, a byte order mark included.
        content: new TextDecoder("utf-8", { ignoreBOM: true }).decode(
          file.content,
        ),
        version: file.version,
      });
    },
  );
  return {
    onRequest: dispatch(ROUTES.content, { GET: onRequestGet }),
    onRequestGet,
  };
}

/**
 * The page a read names, now or at a commit: 400 for a path off the
 * whitelist or a malformed commit, 404 if absent (or no such commit).
 */
async function readPage(
  env: Env,
  request: Request,
  locales: readonly string[],
): Promise<RepositoryFile> {
  const path = pathParameter(request, locales);
  const commit = commitParameter(request);
  const repository = requireRepository(env);
  if (commit === undefined) {
    const file = await repository.read(path);
    if (!file) throw notFound("no such file in the repository");
    return file;
  }
  if (typeof repository.readAt !== "function") {
    throw new RepositoryError(
      "unavailable",
      "this repository cannot read past versions (no readAt)",
    );
  }
  const file = await repository.readAt(path, commit);
  if (!file) throw notFound(`no such file at commit ${commit}`);
  return file;
}
