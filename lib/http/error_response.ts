/**
 * The one place where failures become responses.
 *
 * @module
 */

import { HttpError } from "./http_error.ts";
import { jsonResponse } from "./json_response.ts";
import { ConflictError, RepositoryError } from "../repository/repository.ts";

/** A failure turned into its response, with what the log line needs. */
export interface MappedError {
  /** The response to send. */
  response: Response;
  /** The error code, for the log. */
  code: string;
  /** The internal detail, for the log only. */
  detail: string;
}

/**
 * Maps a thrown value to its response: typed errors to their documented
 * answer, a repository conflict to 409, a repository failure to 502 with its
 * code, anything else to a generic 500 whose detail stays in the log.
 *
 * @param error what was thrown
 * @returns the response and the log fields
 */
export function errorResponse(error: unknown): MappedError {
  if (error instanceof HttpError) {
    return {
      response: jsonResponse(error.status, error.body, error.headers),
      code: error.code,
      detail: error.message,
    };
  }
  if (error instanceof ConflictError) {
    return {
      response: jsonResponse(409, { error: "conflict" }),
      code: "conflict",
      detail: error.message,
    };
  }
  if (error instanceof RepositoryError) {
    return {
      response: jsonResponse(502, { error: error.code }),
      code: error.code,
      detail: error.message,
    };
  }
  let detail: string;
  try {
    detail = error instanceof Error
      ? (error.stack ?? error.message)
      : String(error);
  } catch {
    detail = "a thrown value that cannot be printed";
  }
  return {
    response: jsonResponse(500, { error: "internal" }),
    code: "internal",
    detail,
  };
}
