/**
 * How the read bench's peers listen: `Deno.serve` on a free loopback port,
 * printing `NAME: listening on URL` as `editor serve` does, so that
 * `bench/read_http_bench.ts` starts them all alike.
 *
 * @module
 */

/**
 * Serves the handler on 127.0.0.1, on a port the system picks.
 *
 * @example
 * ```ts ignore
 * import { servePeer } from "./peer_server.ts";
 *
 * servePeer("baseline", () => new Response("{}"));
 * ```
 *
 * @param name the peer's name, printed before its URL
 * @param handler what answers
 * @returns the server
 */
export function servePeer(
  name: string,
  handler: (request: Request) => Response | Promise<Response>,
): Deno.HttpServer<Deno.NetAddr> {
  return Deno.serve({
    hostname: "127.0.0.1",
    port: 0,
    onListen: ({ port }) =>
      console.log(`${name}: listening on http://127.0.0.1:${port}/`),
  }, handler);
}
