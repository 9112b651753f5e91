/**
 * How the GitHub repository talks to GitHub: every call carries the API
 * version, the user agent and the token (a fixed token, or an installation
 * token of a GitHub App, renewed before it expires); reads are conditional
 * (`If-None-Match` with the `ETag` kept, a 304 served from what was kept);
 * writes are paced under GitHub's content-creation limit; every call writes
 * one log line with GitHub's remaining budget (`x-ratelimit-remaining`),
 * never the token; failed answers become repository errors through the
 * table of `github_status.ts`.
 *
 * @module
 */

import { ConflictError, RepositoryError } from "./repository_errors.ts";
import { retryAfterOf } from "./github_history.ts";
import { failureOf } from "./github_status.ts";
import { type AnswerKv, KeptAnswers } from "./github_etags.ts";
import { type GitHubAppCredentials, InstallationTokens } from "./github_app.ts";
import { pacerFor, type WritePacer } from "./github_pacing.ts";
import { VERSION } from "../version.ts";

const API_VERSION = "2022-11-28";
const USER_AGENT = `inpage-editor/${VERSION}`;
/** Seconds to wait after a secondary rate limit that gave no time (GitHub: "at least one minute"). */
const SECONDARY_WAIT_S = 60;

/** Whether a value is a plain object. */
export function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

/**
 * Settles with `work`, or rejects with the signal's reason once it aborts,
 * even when `work` itself ignores the signal.
 *
 * @param signal the bound
 * @param work the promise
 * @returns what `work` settles with
 */
export function within<T>(signal: AbortSignal, work: Promise<T>): Promise<T> {
  work.catch(() => {});
  if (signal.aborted) return Promise.reject(signal.reason);
  return new Promise<T>((resolve, reject) => {
    const stop = () => reject(signal.reason);
    signal.addEventListener("abort", stop, { once: true });
    work.then(resolve, reject).finally(() =>
      signal.removeEventListener("abort", stop)
    );
  });
}

/** What a transport is made of. */
export interface TransportOptions {
  /** A fixed token, or `undefined` with `app`. */
  token: string | undefined;
  /** A GitHub App installation, used instead of `token`. */
  app: GitHubAppCredentials | undefined;
  /** The API root, without a trailing slash. */
  apiUrl: string;
  /** `owner/name`, for the pacer shared by the process. */
  repository: string;
  /** The bound on each call, in milliseconds. */
  timeoutMs: number;
  /** The `fetch` to use. */
  fetch: typeof fetch;
  /** Where answers are kept besides this process. */
  kv: AnswerKv | undefined;
  /** Receives one JSON line per call; none when absent. */
  log: ((line: string) => void) | undefined;
  /** The clock of app tokens. */
  now: () => number;
  /** The pacer of writes; default the process's for this repository. */
  pacer?: WritePacer | undefined;
}

/** One call: what it is, for the log and errors, and how to send it. */
export interface Call {
  /** What the call is, e.g. `the read of src/…` (no secret). */
  what: string;
  /** The HTTP method. */
  method: string;
  /** The URL. */
  url: string;
  /** The media type asked; default `application/vnd.github+json`. */
  accept?: string | undefined;
  /** A JSON body. */
  json?: unknown;
  /** Bounds the call. */
  signal: AbortSignal;
  /** Whether the answer is kept and the next read made conditional (GETs). */
  conditional?: boolean | undefined;
}

/** The calls of one GitHub repository. */
export class GitHubTransport {
  readonly #token: string | undefined;
  readonly #tokens: InstallationTokens | undefined;
  readonly #send: typeof fetch;
  readonly #log: ((line: string) => void) | undefined;
  readonly #kept: KeptAnswers;
  readonly #pacer: WritePacer;
  /** The bound on each call, in milliseconds. */
  readonly timeoutMs: number;
  /** Secrets that must never appear in an error. */
  readonly #secrets: string[] = [];

  /**
   * Makes the transport; nothing is sent yet.
   *
   * @param options its token or app, API root, bounds and sinks
   */
  constructor(options: TransportOptions) {
    this.#token = options.token;
    this.#send = options.fetch;
    this.#log = options.log;
    this.timeoutMs = options.timeoutMs;
    this.#kept = new KeptAnswers(options.kv);
    this.#pacer = options.pacer ??
      pacerFor(`${options.apiUrl} ${options.repository}`);
    if (options.token !== undefined) this.#secrets.push(options.token);
    this.#tokens = options.app === undefined
      ? undefined
      : new InstallationTokens(options.app, {
        apiUrl: options.apiUrl,
        send: (url, init) => this.#send(url, init),
        now: options.now,
        log: (call, response, started) =>
          this.#logCall(call, response, started),
        headers: {
          "User-Agent": USER_AGENT,
          "X-GitHub-Api-Version": API_VERSION,
        },
      });
  }

  /** How many installation tokens were obtained (GitHub App only). */
  get tokenExchanges(): number {
    return this.#tokens?.exchanges ?? 0;
  }

  /**
   * Removes the secrets from text bound for an error, and caps its length.
   *
   * @param text the text
   * @returns the text, safe for a log
   */
  clean(text: string): string {
    let safe = text;
    for (const secret of this.#secrets) {
      safe = safe.split(secret).join("[redacted]");
    }
    // Control characters would break a log line.
    // deno-lint-ignore no-control-regex
    return safe.replace(/[\x00-\x1f\x7f]+/g, " ").slice(0, 300);
  }

  /**
   * A repository error `unavailable`, its detail cleaned.
   *
   * @param detail what happened
   * @returns the error
   */
  unavailable(detail: string): RepositoryError {
    return new RepositoryError("unavailable", this.clean(detail));
  }

  /**
   * The error of a call that timed out.
   *
   * @param what the call
   * @returns the error
   */
  timedOut(what: string): RepositoryError {
    return this.unavailable(
      `GitHub did not answer ${what} within ${this.timeoutMs} ms`,
    );
  }

  /**
   * Sends a call: paced when it writes, conditional when asked (a 304 is
   * answered as the 200 kept, with `x-inpage-not-modified: 1`), logged.
   * An installation token GitHub refuses (401) is renewed once.
   *
   * @param call the call
   * @returns GitHub's answer (or the one kept)
   * @throws {RepositoryError} when GitHub cannot be reached in time
   */
  async request(call: Call): Promise<Response> {
    const { what, method, url, signal } = call;
    const accept = call.accept ?? "application/vnd.github+json";
    const writing = method !== "GET" && method !== "HEAD";
    if (writing) {
      await this.#pacer.admit(signal, this.timeoutMs / 2).catch((error) => {
        if (signal.aborted) throw this.timedOut(what);
        throw error;
      });
    }
    const key = call.conditional ? KeptAnswers.keyOf(url, accept) : undefined;
    const kept = key === undefined ? undefined : await this.#kept.get(key);
    for (let attempt = 0;; attempt++) {
      const token = await this.#currentToken(signal, what);
      const headers = new Headers({
        "Accept": accept,
        "Authorization": `Bearer ${token}`,
        "User-Agent": USER_AGENT,
        "X-GitHub-Api-Version": API_VERSION,
      });
      if (call.json !== undefined) {
        headers.set("Content-Type", "application/json");
      }
      if (kept) headers.set("If-None-Match", kept.etag);
      const started = performance.now();
      let response: Response;
      try {
        response = await within(
          signal,
          this.#send(url, {
            method,
            headers,
            signal,
            ...(call.json === undefined
              ? {}
              : { body: JSON.stringify(call.json) }),
          }),
        );
      } catch (error) {
        if (signal.aborted) throw this.timedOut(what);
        throw this.unavailable(
          `GitHub could not be reached for ${what}: ${
            error instanceof Error
              ? `${error.name}: ${error.message}`
              : "unknown"
          }`,
        );
      }
      this.#logCall(
        `${method} ${url.replace(/^https?:\/\/[^/]+/, "").split("?")[0]}`,
        response,
        started,
      );
      if (response.status === 401 && this.#tokens && attempt === 0) {
        await this.discard(response);
        this.#tokens.forget(token);
        continue;
      }
      if (response.status === 304 && kept) {
        await this.discard(response);
        return new Response(kept.body.slice(), {
          status: 200,
          headers: {
            "content-type": "application/json; charset=utf-8",
            "etag": kept.etag,
            "x-inpage-not-modified": "1",
            ...(kept.link === undefined ? {} : { link: kept.link }),
          },
        });
      }
      const etag = response.headers.get("etag");
      if (key !== undefined && response.status === 200 && etag) {
        return await this.#keep(key, etag, response, signal, what);
      }
      return response;
    }
  }

  /** Reads a 200's body, keeps it with its `ETag`, and answers it again. */
  async #keep(
    key: string,
    etag: string,
    response: Response,
    signal: AbortSignal,
    what: string,
  ): Promise<Response> {
    let body: Uint8Array;
    try {
      body = new Uint8Array(await within(signal, response.arrayBuffer()));
    } catch {
      if (signal.aborted) throw this.timedOut(what);
      throw this.unavailable(`GitHub's answer to ${what} broke off`);
    }
    const link = response.headers.get("link") ?? undefined;
    await this.#kept.set(key, { etag, body, link });
    return new Response(body.slice(), {
      status: 200,
      headers: response.headers,
    });
  }

  async #currentToken(signal: AbortSignal, what: string): Promise<string> {
    if (!this.#tokens) return this.#token ?? "";
    try {
      const token = await this.#tokens.token(signal);
      if (!this.#secrets.includes(token)) this.#secrets.push(token);
      if (this.#secrets.length > 8) this.#secrets.splice(0, 1);
      return token;
    } catch (error) {
      if (signal.aborted) throw this.timedOut(what);
      throw error;
    }
  }

  /** One JSON line about a call: its status, time and GitHub's remaining budget. */
  #logCall(call: string, response: Response, started: number): void {
    if (!this.#log) return;
    const remaining = response.headers.get("x-ratelimit-remaining");
    try {
      this.#log(JSON.stringify({
        time: new Date().toISOString(),
        github: this.clean(call).slice(0, 160),
        status: response.status,
        ms: Math.round((performance.now() - started) * 10) / 10,
        remaining: remaining !== null && /^\d{1,9}$/.test(remaining)
          ? Number(remaining)
          : null,
      }));
    } catch {
      // A failing log sink must not change an answer.
    }
  }

  /**
   * An answer's body as text, bounded by the call's signal.
   *
   * @param signal the call's bound
   * @param what the call
   * @param response the answer
   * @returns the text
   */
  async bodyText(
    signal: AbortSignal,
    what: string,
    response: Response,
  ): Promise<string> {
    try {
      return await within(signal, response.text());
    } catch {
      if (signal.aborted) throw this.timedOut(what);
      throw this.unavailable(`GitHub's answer to ${what} broke off`);
    }
  }

  /**
   * An answer's body as JSON.
   *
   * @param signal the call's bound
   * @param what the call
   * @param response the answer
   * @returns the parsed body
   */
  async bodyJson(
    signal: AbortSignal,
    what: string,
    response: Response,
  ): Promise<unknown> {
    const text = await this.bodyText(signal, what, response);
    try {
      return JSON.parse(text);
    } catch {
      throw this.unavailable(`GitHub answered ${what} with malformed JSON`);
    }
  }

  /**
   * Releases an answer's body unread.
   *
   * @param response the answer
   */
  async discard(response: Response): Promise<void> {
    try {
      await response.body?.cancel();
    } catch {
      // Nothing more to release.
    }
  }

  /**
   * The error for an answer that is not a success, its body consumed. A
   * rate limit carries the seconds GitHub asked to wait (a minute for a
   * secondary rate limit that gave no time, as GitHub documents).
   *
   * @param signal the call's bound
   * @param what the call
   * @param response the answer
   * @param writing whether the call writes
   * @param path the file a conflict is about, when one is
   * @returns the error to throw
   */
  async failure(
    signal: AbortSignal,
    what: string,
    response: Response,
    writing: boolean,
    path?: string,
  ): Promise<Error> {
    const { status } = response;
    let message = "";
    try {
      const body: unknown = JSON.parse(
        await this.bodyText(signal, what, response),
      );
      if (isRecord(body) && typeof body.message === "string") {
        message = body.message;
      }
    } catch {
      if (signal.aborted) return this.timedOut(what);
      // A body that is not GitHub's JSON: the status decides alone.
    }
    const detail = `GitHub answered ${status} to ${what}${
      message ? `: ${message}` : ""
    }`;
    const rateLimited = response.headers.get("x-ratelimit-remaining") === "0" ||
      response.headers.has("retry-after") || /rate limit/i.test(message);
    const kind = failureOf({ status, message, rateLimited, writing });
    if (kind === "conflict") return new ConflictError(this.clean(detail), path);
    let wait = kind === "unavailable" && (status === 403 || status === 429)
      ? retryAfterOf(response.headers, Date.now())
      : undefined;
    if (kind === "unavailable" && /secondary rate limit/i.test(message)) {
      // GitHub's documented answer without a time: wait at least a minute.
      wait ??= SECONDARY_WAIT_S;
    }
    return new RepositoryError(kind, this.clean(detail), wait);
  }
}
