// Runs before every function: gives the package what Cloudflare cannot bind
// directly. RATE_LIMIT is the Durable Object adapter over RATE_LIMIT_OBJECT;
// the argon2 WebAssembly is the one compiled at deploy time (workerd refuses
// to compile WebAssembly at run time, so a login would answer 500 without).
// Set EDITOR_KEY_HASH, GITHUB_TOKEN, GITHUB_REPOSITORY and
// EDITOR_CLIENT_IP_HEADER=CF-Connecting-IP as the project's variables.

import argon2 from "../argon2.wasm";
import blake2b from "../blake2b.wasm";
import { durableObjectKv } from "../rate_limit_object.js";

export const onRequest = (context) => {
  const { env } = context;
  env.RATE_LIMIT ??= durableObjectKv(env.RATE_LIMIT_OBJECT);
  env.EDITOR_ARGON2_WASM ??= argon2;
  env.EDITOR_BLAKE2B_WASM ??= blake2b;
  return context.next();
};
