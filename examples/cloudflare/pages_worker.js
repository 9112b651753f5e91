// What Cloudflare Pages makes of functions/: a route per file (and the
// catch-all functions/_inpage/[[path]].js for every path under /_inpage/),
// the handler named after the method (else onRequest), after
// _middleware.js.
// workerd runs this file in the tests (serve.mjs) exactly as Pages would
// run the same function files; it also exports the Durable Object class,
// so the whole example can be deployed as one Worker instead.

import * as middleware from "./functions/_middleware.js";
import * as auth from "./functions/api/auth.js";
import * as content from "./functions/api/content.js";
import * as save from "./functions/api/save.js";
import * as upload from "./functions/api/upload.js";
import * as session from "./functions/api/session.js";
import * as history from "./functions/api/history.js";
import * as reviews from "./functions/api/reviews.js";
import * as reviewsPublish from "./functions/api/reviews/publish.js";
import * as reviewsSchedule from "./functions/api/reviews/schedule.js";
import * as reviewsLink from "./functions/api/reviews/link.js";
import * as overlay from "./functions/_inpage/[[path]].js";

export { RateLimitObject } from "./rate_limit_object.js";

const routes = {
  "/api/auth": auth,
  "/api/content": content,
  "/api/save": save,
  "/api/upload": upload,
  "/api/session": session,
  "/api/history": history,
  "/api/reviews": reviews,
  "/api/reviews/publish": reviewsPublish,
  "/api/reviews/schedule": reviewsSchedule,
  "/api/reviews/link": reviewsLink,
};

function routeOf(pathname) {
  if (Object.hasOwn(routes, pathname)) return routes[pathname];
  return pathname.startsWith("/_inpage/") ? overlay : undefined;
}

function notFound() {
  return new Response("Not found", { status: 404 });
}

export default {
  fetch(request, env, ctx) {
    const route = routeOf(new URL(request.url).pathname);
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
