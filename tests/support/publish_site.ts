/**
 * A signed-in test site whose publishes are not committed, for the tests
 * that send many pages through the router: a real KV, a real folder, a new
 * client address for each request.
 *
 * @module
 */

import type { Router } from "../../mod.ts";
import { answer, from, login, postJson, readRequest } from "./helpers.ts";
import { HOME, siteEnv, type TempSite } from "./site.ts";

/** An answer read as status and JSON body. */
export interface Answer {
  /** The status. */
  status: number;
  /** The parsed body. */
  body: Record<string, unknown>;
}

/** A site to publish pages to through a router. */
export interface PublishSite extends AsyncDisposable {
  /** The site's checkout. */
  site: TempSite;
  /** The KV. */
  kv: Deno.Kv;
  /** The session cookie header. */
  cookie: string;
  /** Publishes a page's text at a path (`HOME` by default) with a version. */
  save: (content: string, version: string, path?: string) => Promise<Answer>;
  /** Reads a page: its text and version. */
  read: (path?: string) => Promise<Answer>;
}

let clients = 0;

/**
 * Makes a site, a KV and a session; nothing is committed.
 *
 * @param router the router under test
 * @param key the site key
 * @returns the site, removed when disposed
 */
export async function publishSite(
  router: Router,
  key: string,
): Promise<PublishSite> {
  const base = await siteEnv(key, { commit: false });
  const { site, kv, env } = base;
  const cookie = await login(router.handle, env, key);
  const client = () => {
    const n = clients++;
    return from(`10.${200 + ((n >> 16) & 31)}.${(n >> 8) & 255}.${n & 255}`);
  };
  return {
    site,
    kv,
    cookie,
    save: async (content, version, path = HOME) => {
      const { status, body } = await answer(
        await router.handle(
          postJson("/api/save", { path, content, version }, { cookie }),
          env,
          client(),
        ),
      );
      return { status, body: body as Record<string, unknown> };
    },
    read: async (path = HOME) => {
      const { status, body } = await answer(
        await router.handle(
          readRequest(path, cookie),
          env,
          client(),
        ),
      );
      return { status, body: body as Record<string, unknown> };
    },
    [Symbol.asyncDispose]: () => base[Symbol.asyncDispose](),
  };
}
