/**
 * GitHub App authentication: the app's JSON Web Token (RS256, signed with
 * WebCrypto: `iat` 60 seconds in the past, `exp` 9 minutes ahead, `iss` the
 * app's ID), exchanged at `POST /app/installations/{id}/access_tokens` for
 * an installation token, kept until five minutes before its `expires_at`
 * and then renewed. Only `fetch` and Web APIs: it runs on every host.
 *
 * @module
 */

import { encodeBase64 } from "../encoding/bytes.ts";
import { RepositoryError } from "./repository_errors.ts";
import { pkcs8FromPem } from "./private_key.ts";

/** A GitHub App installation, as the three `GITHUB_APP_*` variables give it. */
export interface GitHubAppCredentials {
  /** The app's ID (or its client ID): the JWT's `iss`. */
  appId: string;
  /**
   * The app's private key, PEM: PKCS#1 (`BEGIN RSA PRIVATE KEY`, as GitHub
   * issues it) or PKCS#8 (`BEGIN PRIVATE KEY`).
   */
  privateKey: string;
  /** The installation's ID, on the repository's account. */
  installationId: string;
}

/** An app ID (digits) or client ID (`Iv1.…`, `Iv23…`). */
const APP_ID = /^[A-Za-z0-9.]{1,64}$/;
const INSTALLATION_ID = /^[0-9]{1,20}$/;
/** A token is renewed this long before it expires. */
export const RENEW_BEFORE_MS = 5 * 60_000;
/** How far in the past the JWT is issued (clock drift). */
const ISSUED_BEFORE_S = 60;
/** How long the JWT lasts from now (GitHub's limit is 10 minutes). */
const LASTS_S = 9 * 60;

/**
 * Which credential is malformed: `appId`, `privateKey`, `installationId`;
 * none of their values appears.
 *
 * @param app candidate credentials, of any type
 * @returns the malformed fields, in that order
 * @example
 * ```ts
 * import { invalidAppCredentials } from "./github_app.ts";
 * import assert from "node:assert/strict";
 *
 * assert.deepEqual(
 *   invalidAppCredentials({ appId: "12345", privateKey: "x", installationId: "67" }),
 *   ["privateKey"],
 * );
 * ```
 */
export function invalidAppCredentials(
  app: { readonly [K in keyof GitHubAppCredentials]?: unknown },
): (keyof GitHubAppCredentials)[] {
  const invalid: (keyof GitHubAppCredentials)[] = [];
  const appId = app?.appId;
  if (typeof appId !== "string" || !APP_ID.test(appId)) invalid.push("appId");
  try {
    pkcs8FromPem(app?.privateKey as string);
  } catch {
    invalid.push("privateKey");
  }
  const installation = app?.installationId;
  if (
    typeof installation !== "string" || !INSTALLATION_ID.test(installation)
  ) {
    invalid.push("installationId");
  }
  return invalid;
}

function base64url(bytes: Uint8Array): string {
  return encodeBase64(bytes).replace(/\+/g, "-").replace(/\//g, "_").replace(
    /=+$/,
    "",
  );
}

const text = (value: unknown) =>
  base64url(new TextEncoder().encode(JSON.stringify(value)));

/**
 * Signs the app's JSON Web Token: RS256, `iat` 60 seconds before `now`,
 * `exp` 9 minutes after it, `iss` the app's ID.
 *
 * @param key the app's private key, imported for RSASSA-PKCS1-v1_5 SHA-256
 * @param appId the app's ID
 * @param now the time, in milliseconds
 * @returns the token
 * @example
 * ```ts
 * import { appJwt } from "./github_app.ts";
 * import assert from "node:assert/strict";
 *
 * const { privateKey } = await crypto.subtle.generateKey(
 *   {
 *     name: "RSASSA-PKCS1-v1_5",
 *     modulusLength: 2048,
 *     publicExponent: new Uint8Array([1, 0, 1]),
 *     hash: "SHA-256",
 *   },
 *   false,
 *   ["sign", "verify"],
 * );
 * const jwt = await appJwt(privateKey, "12345", 1_700_000_000_000);
 * const claims = JSON.parse(atob(jwt.split(".")[1]!.replace(/-/g, "+").replace(/_/g, "/")));
 * assert.deepEqual(claims, { iat: 1_699_999_940, exp: 1_700_000_540, iss: "12345" });
 * ```
 */
export async function appJwt(
  key: CryptoKey,
  appId: string,
  now: number,
): Promise<string> {
  const seconds = Math.floor(now / 1000);
  const unsigned = `${text({ alg: "RS256", typ: "JWT" })}.${
    text({ iat: seconds - ISSUED_BEFORE_S, exp: seconds + LASTS_S, iss: appId })
  }`;
  const signature = await crypto.subtle.sign(
    "RSASSA-PKCS1-v1_5",
    key,
    new TextEncoder().encode(unsigned),
  );
  return `${unsigned}.${base64url(new Uint8Array(signature))}`;
}

/** How the token source reaches GitHub. */
export interface AppTokenTransport {
  /** The API root, without a trailing slash. */
  apiUrl: string;
  /** Sends a request (the repository's fetch, bounded by `signal`). */
  send: (url: string, init: RequestInit) => Promise<Response>;
  /** The current time, in milliseconds. */
  now: () => number;
  /** Writes one log line about the exchange (never a token). */
  log: (call: string, response: Response, started: number) => void;
  /** The `User-Agent` and `X-GitHub-Api-Version` every request carries. */
  headers: Record<string, string>;
}

/**
 * The installation tokens of one app installation: one exchange at a time,
 * each token kept until {@linkcode RENEW_BEFORE_MS} before it expires.
 */
export class InstallationTokens {
  readonly #app: GitHubAppCredentials;
  readonly #transport: AppTokenTransport;
  #key: Promise<CryptoKey> | undefined;
  #current: { token: string; renewAt: number } | undefined;
  #pending: Promise<string> | undefined;
  /** How many tokens were obtained (for tests and the log). */
  exchanges = 0;

  /**
   * Keeps the credentials; nothing is sent before the first token is asked.
   *
   * @param app the checked credentials
   * @param transport how to reach GitHub
   */
  constructor(app: GitHubAppCredentials, transport: AppTokenTransport) {
    this.#app = app;
    this.#transport = transport;
  }

  /**
   * A token valid for at least five more minutes.
   *
   * @param signal bounds the exchange
   * @returns the installation token
   * @throws {RepositoryError} `unauthorized` when GitHub refuses the app
   *   (or the key cannot sign), `unavailable` when it does not answer
   */
  token(signal: AbortSignal): Promise<string> {
    const current = this.#current;
    if (current && this.#transport.now() < current.renewAt) {
      return Promise.resolve(current.token);
    }
    this.#pending ??= this.#exchange(signal).finally(() => {
      this.#pending = undefined;
    });
    return this.#pending;
  }

  /**
   * Forgets a token GitHub refused (revoked, or expired early).
   *
   * @param token the refused token
   */
  forget(token: string): void {
    if (this.#current?.token === token) this.#current = undefined;
  }

  async #exchange(signal: AbortSignal): Promise<string> {
    const { apiUrl, send, now, log, headers } = this.#transport;
    const key = await this.#signingKey();
    const jwt = await appJwt(key, this.#app.appId, now());
    const url = `${apiUrl}/app/installations/${
      encodeURIComponent(this.#app.installationId)
    }/access_tokens`;
    const started = performance.now();
    let response: Response;
    try {
      response = await send(url, {
        method: "POST",
        headers: {
          ...headers,
          Accept: "application/vnd.github+json",
          Authorization: `Bearer ${jwt}`,
        },
        signal,
      });
    } catch (error) {
      throw new RepositoryError(
        "unavailable",
        `GitHub could not be reached for an installation token: ${
          error instanceof Error ? error.name : "unknown"
        }`,
      );
    }
    log("POST app/installations/access_tokens", response, started);
    let body: unknown;
    try {
      body = await response.json();
    } catch {
      body = undefined;
    }
    const { status } = response;
    if (status !== 201 && status !== 200) {
      const message = typeof (body as { message?: unknown })?.message ===
          "string"
        ? `: ${(body as { message: string }).message.slice(0, 200)}`
        : "";
      throw new RepositoryError(
        status === 401 || status === 403 || status === 404
          ? "unauthorized"
          : "unavailable",
        `GitHub answered ${status} to the installation token exchange${message}`,
      );
    }
    const token = (body as { token?: unknown })?.token;
    const expires = Date.parse(
      String((body as { expires_at?: unknown })?.expires_at),
    );
    if (
      typeof token !== "string" || !/^[\x21-\x7e]{1,1024}$/.test(token) ||
      !Number.isFinite(expires)
    ) {
      throw new RepositoryError(
        "unavailable",
        "GitHub answered the installation token exchange without a token and its expiry",
      );
    }
    this.exchanges += 1;
    this.#current = { token, renewAt: expires - RENEW_BEFORE_MS };
    return token;
  }

  #signingKey(): Promise<CryptoKey> {
    this.#key ??= crypto.subtle.importKey(
      "pkcs8",
      pkcs8FromPem(this.#app.privateKey) as Uint8Array<ArrayBuffer>,
      { name: "RSASSA-PKCS1-v1_5", hash: "SHA-256" },
      false,
      ["sign"],
    ).catch(() => {
      this.#key = undefined;
      throw new RepositoryError(
        "unauthorized",
        "The GitHub App private key cannot sign (not an RSA key?)",
      );
    });
    return this.#key;
  }
}
