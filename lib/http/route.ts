/**
 * `lib/http/`, the HTTP concern: requests in, responses out. Route work
 * throws; the one mapping (`error_response.ts`) answers; bodies are read
 * under caps (`read_body.ts`, `multipart.ts`).
 *
 * This file turns a route's work into handlers: one JSON log line per
 * request, typed errors mapped to responses in one place, and method
 * dispatch with 405 and `allow` for the methods a route does not serve.
 *
 * @module
 */

import { clientTag } from "./client_address.ts";
import type { Env, Handler, RouteContext } from "./env.ts";
import { errorResponse } from "./error_response.ts";
import { HttpError } from "./http_error.ts";
import { logRequest } from "./log.ts";
import type { RouteEntry, RoutePath } from "../wire/names.ts";

export type { RouteEntry, RoutePath };

/** A request as the route's work sees it: the context and the client tag. */
export interface Exchange extends RouteContext {
  /** The client's tag (hashed bucket), for rate keys and logs. */
  client: string;
  /** The editor's id once the session (or login) names one, for the log. */
  editor?: string | undefined;
}

/** A route's work for one method; it throws typed errors on failure. */
export type Work = (exchange: Exchange) => Promise<Response>;

/**
 * Wraps a route's work for one method: computes the client tag, maps what
 * it throws, and writes the log line.
 *
 * @param entry the route, from `ROUTES` (`lib/wire/names.ts`)
 * @param work the checks and the answer
 * @returns a plain Web handler
 */
export function handler(entry: RouteEntry, work: Work): Handler {
  const route = entry.path;
  return async (context) => {
    const started = performance.now();
    let client = "unknown";
    let exchange: Exchange | undefined;
    let response: Response;
    try {
      client = clientTag(context.request, context.env, context.info);
      exchange = { ...context, client };
      response = await work(exchange);
    } catch (error) {
      return answerFailure(
        context,
        route,
        error,
        started,
        client,
        exchange?.editor,
      );
    }
    logAnswer(context.env, route, context.request.method, response, started, {
      client,
      code: undefined,
      detail: undefined,
      ...(exchange.editor === undefined ? {} : { editor: exchange.editor }),
    });
    return response;
  };
}

/**
 * The `onRequest` of a route: dispatches on the method, answers 405 with
 * `allow` for any other.
 *
 * @param entry the route, from `ROUTES` (`lib/wire/names.ts`)
 * @param methods the handlers by method, one for each of the entry's
 * @returns the dispatching handler
 * @throws {TypeError} when the handlers are not those of the entry's methods
 */
export function dispatch(
  entry: RouteEntry,
  methods: Readonly<Record<string, Handler>>,
): Handler {
  const route: RoutePath = entry.path;
  const allow = entry.methods.join(", ");
  if (Object.keys(methods).join(", ") !== allow) {
    throw new TypeError(`${route} serves ${allow}`);
  }
  return async (context) => {
    // Methods are case-sensitive (RFC 9110): `post` is not POST.
    const method = context.request.method;
    const serve = Object.hasOwn(methods, method) ? methods[method] : undefined;
    if (serve) return await serve(context);
    const started = performance.now();
    return answerFailure(
      context,
      route,
      new HttpError(405, { error: "method_not_allowed" }, {
        detail: `method ${method.slice(0, 16)} not served`,
        headers: { allow },
      }),
      started,
    );
  };
}

/**
 * Answers a failure: maps what was thrown to its response and writes the
 * log line. The one path of the 404, the 405 and a thrown error.
 *
 * @param context the request's context
 * @param route the route path, or `null` for an unknown path
 * @param error what was thrown
 * @param started `performance.now()` when the request arrived
 * @param client the client tag, when already known
 * @param editor the editor's id, when the session named one
 * @returns the response
 */
export function answerFailure(
  context: RouteContext,
  route: string | null,
  error: unknown,
  started: number,
  client?: string,
  editor?: string,
): Response {
  const { response, code, detail } = errorResponse(error);
  logAnswer(context.env, route, context.request.method, response, started, {
    client: client ??
      clientTag(context.request, context.env, context.info),
    code,
    detail,
    ...(editor === undefined ? {} : { editor }),
  });
  return response;
}

/**
 * Writes the log line of an answer; a failing log sink never changes it.
 *
 * @param env the host's bindings (`EDITOR_LOG`)
 * @param route the route path, or `null` for an unknown path
 * @param method the request method
 * @param response the answer
 * @param started `performance.now()` when the request arrived
 * @param fields the client tag, the error code and detail when failed, and
 *   the editor's id when the session named one
 */
export function logAnswer(
  env: Env,
  route: string | null,
  method: string,
  response: Response,
  started: number,
  fields: {
    client: string;
    code: string | undefined;
    detail: string | undefined;
    editor?: string | undefined;
  },
): void {
  try {
    logRequest(env, {
      route,
      method: method.slice(0, 16),
      status: response.status,
      ms: performance.now() - started,
      ...fields,
    });
  } catch {
    // A failing log sink must not change the answer.
  }
}
