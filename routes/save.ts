/**
 * `/api/save`: validates, sanitises and publishes a whole page file, with an
 * optimistic lock on its version. The images this editor staged
 * (`/api/upload?staged=1`) that the page's media objects name are committed
 * with it, in one commit (`lib/publish/publish_page.ts`).
 *
 * @module
 */

import { cleanCommitMessage } from "../lib/repository/commit_message.ts";
import type { Handler } from "../lib/http/env.ts";
import { jsonResponse } from "../lib/http/json_response.ts";
import { checkLocales, type RouterOptions } from "../lib/pages/locales.ts";
import { saveRequest } from "../lib/http/page_request.ts";
import { tooLarge } from "../lib/http/http_error.ts";
import { admit } from "../lib/access/admission.ts";
import { requirePublisher } from "../lib/access/editors.ts";
import {
  bodyIdleMs,
  checkDeclaredSize,
  receiveBody,
} from "../lib/http/read_body.ts";
import { publish } from "../lib/publish/publish_page.ts";
import { dispatch, handler } from "../lib/http/route.ts";
import { ROUTES } from "../lib/wire/names.ts";
import { CONTENT_MAX, ENVELOPE_MAX } from "../lib/limits.ts";
import { loadPageRules } from "../lib/pages/load.ts";

/** The handlers of `/api/save`. */
export interface SaveRoute {
  /** Dispatches on the method; 405 for anything but POST. */
  onRequest: Handler;
  /** Publishes a page: `{ version }`. */
  onRequestPost: Handler;
}

/**
 * Creates the `/api/save` handlers for a site's locales.
 *
 * @param options `{ locales }`, and `templateSyntax: "refuse"` for a site
 *   that renders page strings as templates
 * @returns `onRequest` and `onRequestPost`
 * @throws {TypeError} on an empty or malformed locales list, or a
 *   `templateSyntax` other than `"allow"` and `"refuse"`
 * @example
 * ```ts
 * import { createSaveRoute } from "@inpage/editor";
 * import assert from "node:assert/strict";
 *
 * const save = createSaveRoute({ locales: ["en", "fr"] });
 * const response = await save.onRequest({
 *   request: new Request("https://site.example/api/save"),
 *   env: {},
 * });
 * assert.equal(response.status, 405);
 * assert.deepEqual(await response.json(), { error: "method_not_allowed" });
 * ```
 */
export function createSaveRoute(options: RouterOptions): SaveRoute {
  const locales = checkLocales(options);
  const rules = { templateSyntax: options.templateSyntax };
  const onRequestPost = handler(
    ROUTES.save,
    async (exchange) => {
      const { request, env, client } = exchange;
      const admission = await admit(env, ROUTES.save, client, request);
      checkDeclaredSize(request, ENVELOPE_MAX);
      const { editor } = admission.requireSession();
      exchange.editor = editor.id;
      await admission.spend();
      // The role is part of identity: an author's body is never read.
      requirePublisher(editor);
      const bytes = await receiveBody(
        request,
        ENVELOPE_MAX,
        bodyIdleMs(env),
      );
      const { path, content, version, message } = await saveRequest(
        request,
        bytes,
        locales,
      );
      const { pageRules } = await loadPageRules();
      const page = new TextEncoder().encode(
        pageRules(content, undefined, rules),
      );
      // What is written must be publishable again, unchanged.
      if (page.byteLength > CONTENT_MAX) {
        throw tooLarge(
          `page written as ${page.byteLength} bytes, over ${CONTENT_MAX}`,
        );
      }
      const written = await publish(env, editor.id, {
        path,
        page,
        version,
        message: cleanCommitMessage(message, `Update ${path}`),
        author: { name: editor.name, email: editor.email },
      });
      return jsonResponse(200, { version: written });
    },
  );
  return {
    onRequest: dispatch(ROUTES.save, { POST: onRequestPost }),
    onRequestPost,
  };
}
