/**
 * The GitHub App part of the GitHub double: the app's JSON Web Token
 * checked as GitHub documents it (RS256 signed by the app's key, `iss` the
 * app's ID, `iat` in the past, `exp` in the future and at most 10 minutes
 * ahead), and test keys made as GitHub issues them (PKCS#1 PEM).
 *
 * @module
 */

import { createPrivateKey, generateKeyPairSync } from "node:crypto";

/** A GitHub App registered on the double. */
export interface DoubleApp {
  /** The app's ID, the JWT's `iss`. */
  id: string;
  /** The app's public key. */
  publicKey: CryptoKey;
  /** The one installation's ID. */
  installationId: string;
  /** How long an installation token lasts; default an hour, as GitHub's. */
  tokenLifetimeMs?: number;
}

/** A refusal of a JWT: GitHub's status and message. */
export interface JwtRefusal {
  /** 401. */
  status: number;
  /** GitHub's message. */
  message: string;
}

function fromBase64url(text: string): Uint8Array<ArrayBuffer> | undefined {
  if (!/^[A-Za-z0-9_-]*$/.test(text)) return undefined;
  const base64 = text.replace(/-/g, "+").replace(/_/g, "/");
  const padded = base64 + "=".repeat((4 - base64.length % 4) % 4);
  try {
    return Uint8Array.from(atob(padded), (char) => char.charCodeAt(0));
  } catch {
    return undefined;
  }
}

/**
 * Checks an app's JWT at a time.
 *
 * @param jwt the token sent as `Authorization: Bearer …`
 * @param app the app
 * @param now the time, in milliseconds
 * @returns `undefined` when GitHub would accept it, else its refusal
 */
export async function refuseAppJwt(
  jwt: string,
  app: DoubleApp,
  now: number,
): Promise<JwtRefusal | undefined> {
  const undecodable = {
    status: 401,
    message: "A JSON web token could not be decoded",
  };
  const [head, claims, signature, ...rest] = jwt.split(".");
  if (rest.length > 0 || !head || !claims || !signature) return undecodable;
  const headBytes = fromBase64url(head);
  const claimBytes = fromBase64url(claims);
  const signatureBytes = fromBase64url(signature);
  if (!headBytes || !claimBytes || !signatureBytes) return undecodable;
  let header: { alg?: unknown };
  let payload: { iat?: unknown; exp?: unknown; iss?: unknown };
  try {
    header = JSON.parse(new TextDecoder().decode(headBytes));
    payload = JSON.parse(new TextDecoder().decode(claimBytes));
  } catch {
    return undecodable;
  }
  if (header.alg !== "RS256") return undecodable;
  const valid = await crypto.subtle.verify(
    "RSASSA-PKCS1-v1_5",
    app.publicKey,
    signatureBytes,
    new TextEncoder().encode(`${head}.${claims}`),
  );
  if (!valid) {
    return {
      status: 401,
      message:
        "'Issuer' claim ('iss') must be an Integer or a String that matches the GitHub App's ID or Client ID",
    };
  }
  if (String(payload.iss) !== app.id) {
    return {
      status: 401,
      message: "Integration not found",
    };
  }
  const seconds = now / 1000;
  if (typeof payload.iat !== "number" || payload.iat > seconds + 1) {
    return {
      status: 401,
      message:
        "'Issued at' claim ('iat') must be an Integer representing a time in the past",
    };
  }
  if (typeof payload.exp !== "number" || payload.exp <= seconds) {
    return {
      status: 401,
      message:
        "'Expiration time' claim ('exp') must be a numeric value representing the future time at which the assertion expires",
    };
  }
  if (payload.exp > seconds + 600 || payload.exp - payload.iat > 660) {
    return {
      status: 401,
      message: "'Expiration time' claim ('exp') is too far in the future",
    };
  }
  return undefined;
}

/** A test app's keys: the private key as PEM, the public key for the double. */
export interface AppKeys {
  /** PKCS#1 PEM (`BEGIN RSA PRIVATE KEY`), as GitHub issues an app's key. */
  pkcs1: string;
  /** The same key as PKCS#8 PEM (`BEGIN PRIVATE KEY`). */
  pkcs8: string;
  /** The public key, for the double. */
  publicKey: CryptoKey;
}

/**
 * Makes an RSA key pair as GitHub makes an app's (2048 bits).
 *
 * @returns the private key in both PEM forms and the public key
 */
export async function appKeys(): Promise<AppKeys> {
  const pair = generateKeyPairSync("rsa", {
    modulusLength: 2048,
    publicKeyEncoding: { type: "spki", format: "der" },
    privateKeyEncoding: { type: "pkcs1", format: "pem" },
  });
  const pkcs8 = createPrivateKey(pair.privateKey).export({
    type: "pkcs8",
    format: "pem",
  }).toString();
  const publicKey = await crypto.subtle.importKey(
    "spki",
    new Uint8Array(pair.publicKey),
    { name: "RSASSA-PKCS1-v1_5", hash: "SHA-256" },
    true,
    ["verify"],
  );
  return { pkcs1: pair.privateKey, pkcs8, publicKey };
}
