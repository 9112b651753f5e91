/**
 * One JSON log line per request. Never a key, token, cookie or page content:
 * callers pass only the fields below, and `detail` is written by the package.
 * Every line is one line for every reader: U+2028, U+2029, U+0085 (and DEL,
 * the C1 controls) are written as `\u` escapes, as JSON already writes the
 * C0 controls (a detail may quote text a client chose).
 *
 * @module
 */

import type { Env } from "./env.ts";
import { jsonLine } from "../encoding/text.ts";

/** The fields of a request's log line. */
export interface LogFields {
  /** The route path, or `null` for an unknown path. */
  route: string | null;
  /** The request method. */
  method: string;
  /** The response status. */
  status: number;
  /** Time spent, in milliseconds. */
  ms: number;
  /** The client, hashed (see `clientTag`). */
  client: string;
  /** The editor's id (never the key), once the session or login names one. */
  editor?: string | undefined;
  /** The error code of the answer, when it is an error. */
  code?: string | undefined;
  /** Internal detail, for the log only. */
  detail?: string | undefined;
}

/**
 * Writes one JSON line through `env.EDITOR_LOG`, or `console.log`.
 *
 * @param env the host's bindings
 * @param fields what happened
 */
export function logRequest(env: Env, fields: LogFields): void {
  const line = jsonLine({
    time: new Date().toISOString(),
    ...fields,
    ms: Math.round(fields.ms * 10) / 10,
  });
  (env.EDITOR_LOG ?? console.log)(line);
}

export { logNotice } from "./env.ts";
