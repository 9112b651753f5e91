import assert from "node:assert/strict";
import {
  failureOf,
  type GitHubFailure,
} from "../../lib/repository/github_status.ts";

Deno.test("the status table: every failed GitHub answer and what it becomes", () => {
  // [status, message, rate limited, writing, expected]
  const table: [number, string, boolean, boolean, GitHubFailure][] = [
    [401, "Bad credentials", false, false, "unauthorized"],
    [401, "Bad credentials", false, true, "unauthorized"],
    [403, "Resource not accessible", false, false, "unauthorized"],
    [403, "Resource not accessible", false, true, "unauthorized"],
    [403, "API rate limit exceeded", true, false, "unavailable"],
    [403, "", true, true, "unavailable"],
    [429, "", false, false, "unavailable"],
    [429, "", true, true, "unavailable"],
    [409, "is at abc but expected def", false, true, "conflict"],
    [409, "", false, false, "unavailable"],
    [422, "sha wasn't supplied", false, true, "conflict"],
    [422, "Invalid request: SHA does not match", false, true, "conflict"],
    [422, "Invalid request", false, true, "unavailable"],
    [422, "sha wasn't supplied", false, false, "unavailable"],
    [404, "Not Found", false, true, "not_found"],
    [404, "Not Found", false, false, "unavailable"],
    [400, "Problems parsing JSON", false, true, "unavailable"],
    [302, "", false, false, "unavailable"],
    [500, "", false, false, "unavailable"],
    [502, "", false, true, "unavailable"],
    [503, "", true, true, "unavailable"],
  ];
  for (const [status, message, rateLimited, writing, expected] of table) {
    assert.equal(
      failureOf({ status, message, rateLimited, writing }),
      expected,
      `${status} ${message} rateLimited=${rateLimited} writing=${writing}`,
    );
  }
});
