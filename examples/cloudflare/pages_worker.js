// What Cloudflare Pages makes of functions/: a route per file, the
// handler named after the method (else onRequest), after _middleware.js.
// workerd runs this file in the tests (serve.mjs) exactly as Pages would
// run the same function files; it also exports the Durable Object class,
// so the whole example can be deployed as one Worker instead.

import * as middleware from "./functions/_middleware.js";
import * as auth from "./functions/api/auth.js";
import * as content from "./functions/api/content.js";
import * as save from "./functions/api/save.js";
import * as upload from "./functions/api/upload.js";

export { RateLimitObject } from "./rate_limit_object.js";

const routes = {
  "/api/auth": auth,
  "/api/content": content,
  "/api/save": save,
  "/api/upload": upload,
};

function notFound() {
  return new Response("Not found", { status: 404 });
}

export default {
  fetch(request, env, ctx) {
    const route = routes[new URL(request.url).pathname];
    const method = request.method.charAt(0) +
      request.method.slice(1).toLowerCase();
    const chain = [
      middleware.onRequest,
      route?.[`onRequest${method}`] ?? route?.onRequest ?? notFound,
    ];
    const data = {};
    const context = (step) => ({
      request,
      env,
      params: {},
      data,
      functionPath: new URL(request.url).pathname,
      waitUntil: (promise) => ctx.waitUntil(promise),
      passThroughOnException: () => ctx.passThroughOnException(),
      next: () => chain[step + 1](context(step + 1)),
    });
    return chain[0](context(0));
  },
};
