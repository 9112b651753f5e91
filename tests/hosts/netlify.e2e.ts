/**
 * The Netlify recipe (examples/netlify: one Netlify Function, v2, over
 * Redis) run by Netlify's own local emulation (@netlify/dev: netlify.toml,
 * config.path, the Netlify global and context.ip) as a real process on
 * loopback, over the neutral build, the GitHub double and a real
 * redis-server. What only Netlify's servers do (its CDN, AWS Lambda) is
 * not run here.
 */
import { type Recipe, walkRecipe } from "../support/hosts.ts";

const NETLIFY: Recipe = {
  example: "netlify",
  program: () => "node",
  args: ["serve.mjs"],
  store: "redis",
};

Deno.test("netlify: log in, read, publish, 409, upload, 429, log out, 401, then the overlay's loader and entry, over Redis", async () => {
  await walkRecipe(NETLIFY);
});
