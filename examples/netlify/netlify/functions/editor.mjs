// The editor on Netlify: one Netlify Function (v2: a Web Request in, a
// Response out) for the routes under /api/ and the overlay's files under
// /_inpage/, with the rate windows and sessions in Redis (REDIS_URL: any
// Redis 6 or later that runs Lua scripts, such as Redis Cloud or Upstash).
//
//   npx jsr add @inpage/editor
//
// Set the site's variables: REDIS_URL, EDITOR_KEY_HASH (or EDITOR_KEYS),
// GITHUB_TOKEN, GITHUB_REPOSITORY, and when needed GITHUB_BRANCH and
// GITHUB_API_URL. The client's address is Netlify's own (context.ip).

import { argon2Hash, createRouter, warnMissingVariables } from "@inpage/editor";
import { serveOverlayAsset } from "@inpage/editor/overlay";
import { openRedisKv } from "@inpage/editor/redis";

// The only site decision: the languages of src/content/pages/{language}/.
const router = createRouter({ locales: ["en", "fr"] });

const redisUrl = Netlify.env.get("REDIS_URL");
const env = {
  // Nothing connects before the first request that needs it.
  RATE_LIMIT: redisUrl ? openRedisKv({ url: redisUrl }) : undefined,
  EDITOR_KEY_HASH: Netlify.env.get("EDITOR_KEY_HASH"),
  EDITOR_KEYS: Netlify.env.get("EDITOR_KEYS"),
  // An instance serves one request at a time: the key check runs in it.
  EDITOR_ARGON2: argon2Hash,
  GITHUB_TOKEN: Netlify.env.get("GITHUB_TOKEN"),
  GITHUB_REPOSITORY: Netlify.env.get("GITHUB_REPOSITORY"),
  GITHUB_BRANCH: Netlify.env.get("GITHUB_BRANCH"),
  GITHUB_API_URL: Netlify.env.get("GITHUB_API_URL"),
};

// Once per instance: the names of missing variables (never their values).
warnMissingVariables(env);

export default async (request, context) =>
  await serveOverlayAsset(request) ??
    router.handle(request, env, { remoteAddr: { hostname: context.ip } });

export const config = { path: ["/api/*", "/_inpage/*"] };
