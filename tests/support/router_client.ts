/**
 * The browser client (`client/mod.ts`) sending to a router in this process,
 * with a session cookie: what the overlay's edit session talks to in its
 * unit tests.
 *
 * @module
 */

import { type Client, createClient } from "../../client/mod.ts";
import type { createRouter } from "../../mod.ts";
import { ORIGIN } from "./helpers.ts";

type Router = ReturnType<typeof createRouter>;

/**
 * A client whose requests go to `handle` with `cookie`, from one address.
 *
 * @param handle the router's `handle`
 * @param env the host's variables and bindings
 * @param cookie the `cookie` header every request carries
 * @param calls when given, each request is noted there as `METHOD /path`
 * @returns the client
 */
export function routerClient(
  handle: Router["handle"],
  env: Parameters<Router["handle"]>[1],
  cookie: string,
  calls?: string[],
): Client {
  return createClient({
    origin: ORIGIN,
    fetch: async (request) => {
      calls?.push(`${request.method} ${new URL(request.url).pathname}`);
      const body = request.body ? await request.arrayBuffer() : null;
      const headers = new Headers(request.headers);
      headers.set("cookie", cookie);
      if (body) headers.set("content-length", String(body.byteLength));
      return await handle(
        new Request(request.url, { method: request.method, headers, body }),
        env,
        { remoteAddr: { hostname: "192.0.2.9" } },
      );
    },
  });
}
