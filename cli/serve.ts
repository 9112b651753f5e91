/**
 * `editor serve`: the four routes, locally, against a checked-out
 * repository, with an embedded KV in a SQLite file.
 *
 * @module
 */

import { join, resolve } from "node:path";
import { createRouter } from "../router.ts";
import { type Env, logNotice } from "../lib/http/env.ts";
import { runSchedule } from "../lib/review/schedule.ts";
import { PREVIEW_SECRET_MIN, SCHEDULE_EVERY_MS } from "../lib/limits.ts";
import { checkLocales, type TemplateSyntax } from "../lib/pages/locales.ts";
import { hashKey, parseKeyHash } from "../lib/access/site_key.ts";
import { readEditorKeys } from "../lib/access/editors.ts";
import { randomToken } from "../lib/access/random_token.ts";
import { openLocalCheckout } from "../lib/repository/local/mod.ts";
import {
  serveOverlayAsset,
  withOverlayPreload,
} from "../lib/overlay_assets/serve.ts";
import { createDemoSite } from "./demo_site.ts";
import { createProxy, proxyTarget } from "./proxy.ts";
import { notFoundResponse, serveStaticFile } from "./static_site.ts";
import { oneLine } from "../lib/encoding/text.ts";
import { PAGES_FOLDER as PAGES } from "../lib/wire/names.ts";
import { folderNames, localeFolders, ServeError } from "./site_checkout.ts";
import { checkAllowedHost, servedHost } from "./served_host.ts";

/** The options of `editor serve`. */
export interface ServeOptions {
  /** The site's checkout; default the current folder. */
  repo: string;
  /** The port; 0 picks a free one. Default 8787. */
  port: number;
  /** The address to listen on. Default 127.0.0.1. */
  hostname: string;
  /**
   * More names the server answers to, with any port (`--allowed-host`,
   * repeatable, as Vite's `server.allowedHosts`): a tunnel's name, a
   * laptop's name on the LAN; `.example.com` for a domain and its
   * subdomains. Checked with `checkAllowedHost`.
   */
  allowedHost?: string[] | undefined;
  /** The locales; default the folder names under `src/content/pages`. */
  locales?: string[] | undefined;
  /**
   * `refuse` when the site renders page strings as templates: `{{`, `{%`
   * and `{#` are refused in every string and key. Default `allow`.
   */
  templateSyntax?: TemplateSyntax | undefined;
  /** The KV file; default a file in the user's cache folder. */
  kv?: string | undefined;
  /** Whether to commit each publish (when the folder is a git repository). */
  commit: boolean;
  /** Serve a demo site made in a temporary folder instead of `repo`. */
  demo?: boolean | undefined;
  /** A built site's folder, whose static files are served beside the routes. */
  site?: string | undefined;
  /**
   * A dev server's URL: every path that is neither a route nor under
   * `/_inpage/` goes there, WebSocket upgrades included.
   */
  proxy?: string | undefined;
  /**
   * Answers the site's own requests (its pages), for a program that renders
   * them itself; `undefined` goes on to `site`, then 404.
   */
  render?: ((request: Request) => Promise<Response | undefined>) | undefined;
}

/** Where `editor serve` writes and what it reads from its environment. */
export interface ServeIo {
  /** Standard output: the ready line, then one JSON log line per request. */
  out: (text: string) => void;
  /** Standard error: notices. */
  err: (text: string) => void;
  /** An environment variable. */
  getEnv: (name: string) => string | undefined;
}

/** A running `editor serve`. */
export interface RunningServe {
  /** The URL it listens on. */
  url: string;
  /** Resolves when the server has stopped and its resources are closed. */
  finished: Promise<void>;
  /** Stops the server. */
  shutdown: () => Promise<void>;
}

/**
 * Starts the server; resolves once it listens.
 *
 * @param options the command's options
 * @param io outputs and environment
 * @returns the URL and a way to stop
 * @throws {ServeError} on a folder that does not exist or has no
 *   `src/content/pages`, no locales,
 *   a bad `EDITOR_KEY_HASH` or `EDITOR_KEYS`, or a port in use
 */
export async function startServe(
  options: ServeOptions,
  io: ServeIo,
): Promise<RunningServe> {
  const demo = options.demo ? await createDemoSite() : undefined;
  const root = resolve(demo ?? options.repo);
  const cleanups: (() => Promise<void> | void)[] = [];
  if (demo) {
    cleanups.push(() => Deno.remove(demo, { recursive: true }));
    io.err(
      `Demo site: ${demo} (a git repository, removed when the server stops)\n`,
    );
  }
  try {
    await requireSite(root);
    await requireSiteOptions(options);
    const allowedHost = allowedHostsOf(options);
    const locales = options.locales ?? await localeFolders(root);
    try {
      checkLocales({ locales, templateSyntax: options.templateSyntax });
    } catch (error) {
      throw new ServeError((error as Error).message);
    }
    const warnings = options.locales
      ? await localeWarnings(root, options.locales)
      : [];
    const { keyHash, randomKey, editorKeys, editors } = await keyHashFor(io);
    const kvPath = options.kv ??
      (demo ? join(demo, ".git", "editor-kv.sqlite3") : defaultKvPath(io));
    const kv = await openKvFile(kvPath);
    cleanups.unshift(() => kv.close());
    const repository = await openLocalCheckout({
      root,
      commit: options.commit,
    }).catch((error) => {
      throw new ServeError(`Cannot open ${root}: ${messageOf(error)}`);
    });
    if (options.commit && !repository.commits) {
      warnings.push(await noCommitWarning(root));
    }
    const bodyIdleMs = idleFrom(io.getEnv("EDITOR_BODY_IDLE_MS"));
    const env: Env = {
      RATE_LIMIT: kv,
      EDITOR_KEY_HASH: keyHash,
      ...(editorKeys === undefined ? {} : { EDITOR_KEYS: editorKeys }),
      REPOSITORY: repository,
      EDITOR_LOG: (line) => io.out(line + "\n"),
      EDITOR_PREVIEW_SECRET: previewSecretFor(io),
      ...(bodyIdleMs === undefined ? {} : { EDITOR_BODY_IDLE_MS: bodyIdleMs }),
    };
    cleanups.unshift(runSchedules(env, io, options.templateSyntax));
    const router = createRouter({
      locales,
      templateSyntax: options.templateSyntax,
    });
    const listening = { port: options.port };
    const handle = siteHandler(
      router,
      env,
      { ...options, allowedHost },
      listening,
    );
    const controller = new AbortController();
    let server: Deno.HttpServer<Deno.NetAddr>;
    try {
      server = Deno.serve({
        hostname: options.hostname,
        port: options.port,
        signal: controller.signal,
        onListen: (address) => void (listening.port = address.port),
      }, handle);
      listening.port = server.addr.port;
    } catch (error) {
      if (error instanceof Deno.errors.AddrInUse) {
        throw new ServeError(
          `Port ${options.port} is in use on ${options.hostname}: pass --port with another one (0 picks a free port)`,
        );
      }
      if (error instanceof Deno.errors.AddrNotAvailable) {
        throw new ServeError(
          `Cannot listen on ${options.hostname}: no such local address`,
        );
      }
      throw error;
    }
    const address = server.addr;
    const host = address.hostname.includes(":")
      ? `[${address.hostname}]`
      : address.hostname;
    const url = `http://${host}:${address.port}/`;
    const finished = server.finished.then(async () => {
      for (const cleanup of cleanups) {
        try {
          await cleanup();
        } catch {
          // Best effort: the server has stopped either way.
        }
      }
    });
    for (const warning of warnings) io.err(`Warning: ${warning}\n`);
    if (randomKey) {
      io.err(
        `No EDITOR_KEY_HASH: the site key for this run is ${randomKey}\n(it is shown once; set EDITOR_KEY_HASH from editor hash-key to keep one)\n`,
      );
    }
    if (editors.length > 0) {
      io.err(`Named editors (EDITOR_KEYS): ${editors.join(", ")}\n`);
    }
    if (allowedHost.length > 0) {
      io.err(
        `Also answering to (--allowed-host): ${
          allowedHost.join(", ")
        } (the session cookies are Secure: a browser keeps them over https, as a tunnel gives, or on localhost)\n`,
      );
    }
    const site = options.proxy !== undefined
      ? `, other paths from the dev server at ${proxyTarget(options.proxy)}`
      : options.site !== undefined
      ? `, other paths from the files of ${resolve(options.site)}`
      : "";
    io.out(
      `editor serve: listening on ${url} (repository ${root}, locales ${
        locales.join(", ")
      }, ${
        repository.commits ? "one commit per publish" : "no commits"
      }${site})\n`,
    );
    if (!["127.0.0.1", "localhost", "::1"].includes(options.hostname)) {
      io.err(
        "Note: the session cookies are Secure: browsers send them over plain http only to localhost\n",
      );
    }
    return {
      url,
      finished,
      shutdown: async () => {
        controller.abort();
        await finished;
      },
    };
  } catch (error) {
    for (const cleanup of cleanups) {
      await Promise.resolve(cleanup()).catch(() => {});
    }
    throw error;
  }
}

/**
 * The one origin: a request addressed to another host gets 421, then the
 * routes, the overlay's files under `/_inpage/`, then the site (a dev
 * server, a renderer or a built folder), else 404 JSON.
 */
function siteHandler(
  router: ReturnType<typeof createRouter>,
  env: Env,
  options: ServeOptions,
  listening: { port: number },
): Deno.ServeHandler<Deno.NetAddr> {
  const proxy = options.proxy === undefined
    ? undefined
    : createProxy(options.proxy, { bodyIdleMs: env.EDITOR_BODY_IDLE_MS });
  const site = options.site === undefined ? undefined : resolve(options.site);
  const render = options.render;
  const allowed = options.allowedHost ?? [];
  return async (request, info) => {
    let url: URL | undefined;
    try {
      url = new URL(request.url);
    } catch {
      url = undefined;
    }
    if (
      !url ||
      !servedHost(url.host, options.hostname, listening.port, allowed) ||
      !servedHost(
        request.headers.get("host"),
        options.hostname,
        listening.port,
        allowed,
      )
    ) {
      return misdirected();
    }
    const pathname = url.pathname;
    if (router.find(pathname)) return await router.handle(request, env, info);
    if (pathname.startsWith("/_inpage/")) {
      return await serveOverlayAsset(request) ?? notFoundResponse();
    }
    // A page for an editor names the overlay's entry to fetch beside it.
    if (proxy) return await withOverlayPreload(request, await proxy(request));
    const rendered = await render?.(request);
    if (rendered) return await withOverlayPreload(request, rendered);
    if (site) {
      const file = await serveStaticFile(request, site);
      if (file) return await withOverlayPreload(request, file);
      return notFoundResponse();
    }
    return await router.handle(request, env, info);
  };
}

/** 421 `{ "error": "misdirected_request" }`: a `Host` that is not ours. */
function misdirected(): Response {
  return new Response(JSON.stringify({ error: "misdirected_request" }), {
    status: 421,
    headers: {
      "content-type": "application/json; charset=utf-8",
      "cache-control": "no-store",
      "x-content-type-options": "nosniff",
    },
  });
}

/** The `--allowed-host` names, checked; a bad one is a one-line failure. */
function allowedHostsOf(options: ServeOptions): string[] {
  try {
    return (options.allowedHost ?? []).map(checkAllowedHost);
  } catch (error) {
    throw new ServeError((error as Error).message);
  }
}

async function requireSiteOptions(options: ServeOptions): Promise<void> {
  if (options.site !== undefined && options.proxy !== undefined) {
    throw new ServeError(
      "--site and --proxy both name the site: pass one of them",
    );
  }
  if (options.proxy !== undefined) {
    try {
      proxyTarget(options.proxy);
    } catch (error) {
      throw new ServeError(`--proxy: ${(error as Error).message}`);
    }
  }
  if (options.site !== undefined) {
    const info = await Deno.stat(options.site).catch(() => undefined);
    if (!info?.isDirectory) {
      throw new ServeError(
        `--site ${options.site} is not a folder: pass the built site's folder (e.g. dist)`,
      );
    }
  }
}

async function requireSite(root: string): Promise<void> {
  const folder = await Deno.stat(root).catch(() => undefined);
  if (!folder?.isDirectory) {
    throw new ServeError(
      `${root} ${
        folder ? "is not a folder" : "does not exist"
      }: pass --repo with the site's checkout (or --demo to try a demo site)`,
    );
  }
  const pages = join(root, PAGES);
  const info = await Deno.stat(pages).catch(() => undefined);
  if (!info?.isDirectory) {
    throw new ServeError(
      `${root} has no ${PAGES} folder: pass --repo with the site's checkout (or --demo to try a demo site)`,
    );
  }
}

/**
 * What is wrong between `--locales` and the folders: a declared locale
 * without a folder (its pages answer 404 until a publish creates one), a
 * folder whose locale is not declared (its pages answer 400).
 */
async function localeWarnings(
  root: string,
  locales: string[],
): Promise<string[]> {
  const folders = await folderNames(root);
  return [
    ...locales.filter((locale) => !folders.includes(locale)).map((locale) =>
      `--locales names ${locale}, but there is no folder ${PAGES}/${locale}: its pages answer 404 until a publish creates one`
    ),
    ...folders.filter((folder) => !locales.includes(folder)).map((folder) =>
      `${PAGES}/${folder} is not in --locales (${
        locales.join(",")
      }): its pages answer 400 bad_request (add ${folder} to --locales, or leave --locales out to use the folders)`
    ),
  ];
}

/** Why publishes will not be committed: no git repository, or no git. */
async function noCommitWarning(root: string): Promise<string> {
  let git = true;
  try {
    await new Deno.Command("git", {
      args: ["--version"],
      stdout: "null",
      stderr: "null",
    }).output();
  } catch {
    git = false; // not on the PATH (or not allowed to run)
  }
  return git
    ? `${root} is not in a git repository, so publishes and uploads write files without committing them (run git init there to commit each publish, or pass --no-commit to say so)`
    : "git is not installed, so publishes and uploads write files without committing them (install git to commit each publish, or pass --no-commit to say so)";
}

/**
 * The keys: `EDITOR_KEYS` (named editors) when set, and the key hash from
 * `EDITOR_KEY_HASH`; with neither, the hash of a random key made for this
 * run (printed only once the server listens).
 */
async function keyHashFor(
  io: ServeIo,
): Promise<{
  keyHash: string | undefined;
  randomKey?: string;
  editorKeys: string | undefined;
  editors: string[];
}> {
  const editorKeys = io.getEnv("EDITOR_KEYS") || undefined;
  const read = readEditorKeys(editorKeys);
  if (!read.ok) {
    throw new ServeError(
      `${read.problem}: make each entry with deno task editor hash-key --name <id>`,
    );
  }
  const editors = [...read.editors.keys()];
  const given = io.getEnv("EDITOR_KEY_HASH");
  if (given) {
    if (!parseKeyHash(given)) {
      throw new ServeError(
        "EDITOR_KEY_HASH is not an argon2id hash from editor hash-key: make one with deno task editor hash-key",
      );
    }
    return { keyHash: given.trim(), editorKeys, editors };
  }
  if (editors.length > 0) return { keyHash: undefined, editorKeys, editors };
  const randomKey = randomToken(18);
  return {
    keyHash: await hashKey(randomKey),
    randomKey,
    editorKeys,
    editors,
  };
}

/**
 * The preview secret: `EDITOR_PREVIEW_SECRET`, or one made for this run
 * (preview links made in a run stop working when it stops).
 */
function previewSecretFor(io: ServeIo): string {
  const given = io.getEnv("EDITOR_PREVIEW_SECRET");
  if (!given) return randomToken(32);
  if (given.length < PREVIEW_SECRET_MIN) {
    throw new ServeError(
      `EDITOR_PREVIEW_SECRET is shorter than ${PREVIEW_SECRET_MIN} characters: make one with openssl rand -base64 32, or leave it unset for one per run`,
    );
  }
  return given;
}

/**
 * Publishes the scheduled reviews whose time has come, every
 * `EDITOR_SCHEDULE_EVERY_MS` (default 30 seconds; for tests), one run at a
 * time; a line in the log for each review published or not.
 *
 * @returns the step that stops it, once a run under way has ended
 */
function runSchedules(
  env: Env,
  io: ServeIo,
  templateSyntax: TemplateSyntax | undefined,
): () => Promise<void> {
  const every = scheduleEveryFrom(io.getEnv("EDITOR_SCHEDULE_EVERY_MS"));
  let running: Promise<void> | undefined;
  const run = async () => {
    try {
      const done = await runSchedule(env, { templateSyntax });
      for (const { id, commit } of done.published) {
        logNotice(env, `review ${id} published as scheduled in ${commit}`);
      }
      for (const { id, reason } of done.failed) {
        logNotice(env, `review ${id} not published as scheduled: ${reason}`);
      }
    } catch (error) {
      logNotice(env, `scheduled reviews did not run: ${messageOf(error)}`);
    }
  };
  const timer = setInterval(() => {
    running ??= run().finally(() => running = undefined);
  }, every);
  return async () => {
    clearInterval(timer);
    await running;
  };
}

/** `EDITOR_SCHEDULE_EVERY_MS`: 10 to 3,600,000 milliseconds, else the default. */
function scheduleEveryFrom(value: string | undefined): number {
  if (value === undefined || !/^[0-9]{2,7}$/.test(value.trim())) {
    return SCHEDULE_EVERY_MS;
  }
  const ms = Number(value.trim());
  return ms >= 10 && ms <= 3_600_000 ? ms : SCHEDULE_EVERY_MS;
}

/** Opens the KV file, creating its folder; a failure is one clear line. */
async function openKvFile(path: string): Promise<Deno.Kv> {
  try {
    await Deno.mkdir(join(path, ".."), { recursive: true });
    return await Deno.openKv(path);
  } catch (error) {
    throw new ServeError(
      `Cannot open the KV file ${path}: ${
        messageOf(error)
      } (pass --kv with a writable file)`,
    );
  }
}

/**
 * `EDITOR_BODY_IDLE_MS` from the environment: a whole number of
 * milliseconds from 1 to 3,600,000, else the default (`undefined`).
 */
function idleFrom(value: string | undefined): number | undefined {
  if (value === undefined || !/^[0-9]{1,7}$/.test(value.trim())) {
    return undefined;
  }
  const ms = Number(value.trim());
  return ms >= 1 && ms <= 3_600_000 ? ms : undefined;
}

function messageOf(error: unknown): string {
  return oneLine(error instanceof Error ? error.message : String(error));
}

function defaultKvPath(io: ServeIo): string {
  const home = io.getEnv("HOME") ?? io.getEnv("USERPROFILE");
  const cache = io.getEnv("XDG_CACHE_HOME") ??
    (Deno.build.os === "darwin" && home
      ? join(home, "Library", "Caches")
      : Deno.build.os === "windows"
      ? io.getEnv("LOCALAPPDATA")
      : home && join(home, ".cache"));
  if (!cache) {
    throw new ServeError(
      "No cache folder (HOME is not set): pass --kv with a file for the KV",
    );
  }
  return join(cache, "inpage-editor", "kv.sqlite3");
}
