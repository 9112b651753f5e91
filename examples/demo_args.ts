/**
 * The options both demos take, read the same way: `--port` (0 picks a free
 * port) and `--hostname`, and a port that is taken said in one line before
 * anything is copied or installed.
 *
 * @module
 */

import { parseArgs } from "node:util";

/** What a demo was asked for. */
export interface DemoArgs {
  /** The port; 0 picks a free one. */
  port: number;
  /** The address to listen on. */
  hostname: string;
  /** Whether `--help` was given. */
  help: boolean;
}

/**
 * Reads `--port` (default 8787), `--hostname` (default 127.0.0.1) and
 * `--help`.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { parseDemoArgs } from "./demo_args.ts";
 *
 * assert.deepEqual(parseDemoArgs(["--port", "0"]), {
 *   port: 0,
 *   hostname: "127.0.0.1",
 *   help: false,
 * });
 * assert.equal(parseDemoArgs(["--port", "80a"]), "--port must be a whole number from 0 to 65535");
 * ```
 *
 * @param args the command's arguments
 * @returns the options, or one line saying what is wrong
 */
export function parseDemoArgs(args: string[]): DemoArgs | string {
  let values: { port: string; hostname: string; help?: boolean | undefined };
  try {
    ({ values } = parseArgs({
      args,
      options: {
        port: { type: "string", default: "8787" },
        hostname: { type: "string", default: "127.0.0.1" },
        help: { type: "boolean", short: "h" },
      },
    }));
  } catch (error) {
    return (error as Error).message.split("\n")[0] ?? "bad arguments";
  }
  const port = Number(values.port);
  if (!/^\d{1,5}$/.test(values.port) || port > 65_535) {
    return "--port must be a whole number from 0 to 65535";
  }
  return { port, hostname: values.hostname, help: values.help ?? false };
}

/**
 * Why a demo cannot listen where it was asked, in one line: the port is
 * taken, or the address is not local; `undefined` when it can (and always
 * for port 0).
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { listenProblem } from "./demo_args.ts";
 *
 * const taken = Deno.listen({ hostname: "127.0.0.1", port: 0 });
 * const { port } = taken.addr as Deno.NetAddr;
 * assert.match(listenProblem("127.0.0.1", port) ?? "", /is in use/);
 * taken.close();
 * assert.equal(listenProblem("127.0.0.1", 0), undefined);
 * ```
 *
 * @param hostname the address
 * @param port the port
 * @returns the line, or `undefined`
 */
export function listenProblem(
  hostname: string,
  port: number,
): string | undefined {
  if (port === 0) return undefined;
  try {
    Deno.listen({ hostname, port }).close();
    return undefined;
  } catch (error) {
    if (error instanceof Deno.errors.AddrInUse) {
      return `Port ${port} is in use on ${hostname}: pass --port with another one (0 picks a free port)`;
    }
    if (error instanceof Deno.errors.AddrNotAvailable) {
      return `Cannot listen on ${hostname}: no such local address`;
    }
    return `Cannot listen on ${hostname}:${port}: ${
      (error as Error).message.split("\n")[0]
    }`;
  }
}
