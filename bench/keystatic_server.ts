/**
 * Keystatic's local-mode API as a peer of `editor serve` in
 * `bench/read_http_bench.ts`: the handler `@keystatic/astro` mounts at
 * `/api/keystatic/[...params]`, served by `Deno.serve` on loopback over the
 * site folder. It prints its URL, as `editor serve` does.
 *
 * What runs, read from Keystatic's source (github:Thinkmill/keystatic, and
 * the same code in the published `dist/` of `@keystatic/core@0.6.9`):
 *
 * - `packages/astro/src/api.tsx` (`makeHandler`, what the Astro route calls):
 *   on every request it builds `makeGenericAPIRouteHandler({ config, … })`,
 *   awaits it on `context.request` and answers
 *   `new Response(body, { status, headers })`. This file does the same, with
 *   `Deno.serve` in place of Astro's router (so Astro's own routing and
 *   middleware are not counted; that favours Keystatic).
 * - `packages/keystatic/src/api/generic.ts`: with `storage: { kind: 'local' }`
 *   the handler strips `/api/keystatic/` and hands the segments to
 *   `localModeApiHandler`; no client id, client secret or `KEYSTATIC_SECRET`
 *   is needed (they are read only for the GitHub mode), `NODE_ENV` is not
 *   read, and neither the host nor the origin is checked.
 * - `packages/keystatic/src/api/api-node.ts` (the `#api-handler` for the
 *   `node` condition, which Deno resolves): `GET tree`, `GET blob/{sha}/{path}`
 *   and `POST update`. Each requires the header `no-cors: 1` (else 400). The
 *   blob route checks the path against the config's collection directories,
 *   reads the file, computes its git blob SHA-1 and answers the raw bytes when
 *   it equals `{sha}` (else 404). The admin UI reads a page that way after the
 *   tree (`fetchBlob` in `packages/keystatic/src/app/useItemData.ts`).
 *
 * The config: one collection of JSON pages, `src/content/pages/en/*`, format
 * `{ data: 'json' }`, local storage, its base directory the site folder.
 *
 * Keystatic is imported from computed specifiers, so that neither
 * `deno check bench/` (in `deno task ok`) nor `deno.lock` pulls in its 193 npm
 * packages: `deno task test` never needs it. Only this process loads it, run
 * with `--no-lock`; the first run downloads it from npm. `@keystatic/core` is
 * pinned exactly below; with no lock, its dependencies resolve within its own
 * ranges, as a fresh `npm install` would. What this file uses of it is
 * declared below, checked once against `@keystatic/core@0.6.9`'s own types.
 *
 * Run: deno run -A --no-lock bench/keystatic_server.ts SITE_FOLDER
 *
 * @module
 */

import { servePeer } from "./peer_server.ts";

/** The exact version run. */
export const KEYSTATIC_CORE = "npm:@keystatic/core@0.6.9";

/** `KeystaticRequest` of `@keystatic/core/api/generic`. */
interface KeystaticRequest {
  headers: { get(name: string): string | null };
  method: string;
  url: string;
  json: () => Promise<unknown>;
}

/** `KeystaticResponse`: `ResponseInit & { body: Uint8Array | string | null }`. */
interface KeystaticResponse {
  status?: number;
  headers?: HeadersInit;
  body: Uint8Array | string | null;
}

/** What this file uses of `@keystatic/core/api/generic`. */
interface KeystaticGeneric {
  makeGenericAPIRouteHandler(
    config: { config: unknown; localBaseDirectory?: string },
    options?: { slugEnvName?: string },
  ): (request: KeystaticRequest) => Promise<KeystaticResponse>;
}

/** What this file uses of `@keystatic/core`. */
interface KeystaticCore {
  config(config: unknown): unknown;
  collection(collection: unknown): unknown;
  fields: {
    slug(options: { name: { label: string } }): unknown;
    text(options: { label: string; multiline?: boolean }): unknown;
    object(fields: Record<string, unknown>): unknown;
    array(field: unknown, options: { label: string }): unknown;
  };
}

const root = Deno.args[0];
if (!root) throw new Error("usage: keystatic_server.ts SITE_FOLDER");

const core = await import(`${KEYSTATIC_CORE}`) as KeystaticCore;
const { makeGenericAPIRouteHandler } = await import(
  `${KEYSTATIC_CORE}/api/generic`
) as KeystaticGeneric;
const { fields } = core;

const config = core.config({
  storage: { kind: "local" },
  collections: {
    pages: core.collection({
      label: "Pages",
      path: "src/content/pages/en/*",
      format: { data: "json" },
      slugField: "title",
      schema: {
        title: fields.slug({ name: { label: "Title" } }),
        sections: fields.array(
          fields.object({
            id: fields.text({ label: "Id" }),
            heading: fields.text({ label: "Heading" }),
            body: fields.text({ label: "Body", multiline: true }),
          }),
          { label: "Sections" },
        ),
      },
    }),
  },
});

servePeer("keystatic", async (request) => {
  // As `makeHandler` of @keystatic/astro: a handler per request.
  const handler = makeGenericAPIRouteHandler(
    { config, localBaseDirectory: root },
    { slugEnvName: "PUBLIC_KEYSTATIC_GITHUB_APP_SLUG" },
  );
  const { body, headers, status } = await handler(request);
  // The body as is, as Astro's handler does (a page read answers the Buffer
  // of fs.readFile; TypeScript's BodyInit wants an ArrayBuffer-backed view).
  return new Response(body as BodyInit | null, {
    status: status ?? 200,
    headers: headers ?? {},
  });
});
