/**
 * `@inpage/editor/redis`: the package's `RATE_LIMIT` over Redis, for hosts
 * without Deno KV (Netlify, Vercel, any Node or Bun server that runs more
 * than one process). It implements what the package calls of `Deno.Kv`
 * (`get`, `getMany`, `set` and `delete` with `expireIn`, and
 * `atomic().check().set().delete().commit()` on versionstamps) with two Lua
 * scripts, so every KV user (rate windows, sessions) works unchanged:
 *
 * - a commit's checks and writes run as one script, so a rate window stays
 *   exact across every process and instance sharing the server;
 * - an entry written with `expireIn` is a key with that TTL: a session ends
 *   with its key;
 * - a Redis that is down, unreachable or slower than `timeoutMs` fails the
 *   call, which the routes answer 503 `unavailable` (never a 500, never a
 *   request served without its rate check); the client reconnects by itself
 *   and the next request is served again.
 *
 * The client is node-redis (`@redis/client`), imported when the first call
 * needs it, so a process that serves no API request never loads it. Every
 * key lives under `{prefix}:` (one hash slot, so a Redis Cluster works too).
 *
 * @example
 * ```ts ignore
 * import { createRouter } from "@inpage/editor";
 * import { openRedisKv } from "@inpage/editor/redis";
 *
 * const router = createRouter({ locales: ["en", "fr"] });
 * const env = {
 *   RATE_LIMIT: openRedisKv({ url: process.env.REDIS_URL }),
 *   EDITOR_KEY_HASH: process.env.EDITOR_KEY_HASH,
 * };
 * export default { fetch: (request: Request) => router.handle(request, env) };
 * ```
 *
 * @module
 */

import type { RedisClientType } from "@redis/client";
import type {
  KvAtomic,
  KvCommitResult,
  KvEntry,
  KvKey,
  KvStore,
} from "../http/env.ts";
import { decodeValue, encodeKey, encodeValue } from "./kv_codec.ts";
import { COMMIT_SCRIPT, READ_SCRIPT } from "./redis_scripts.ts";
import { sha1Hex } from "../digest.ts";

export type { KvAtomic, KvCommitResult, KvEntry, KvKey, KvStore };

/** How {@linkcode openRedisKv} reaches the server. */
export interface RedisKvOptions {
  /** `redis://[user:password@]host[:port][/db]`, or `rediss://` for TLS. */
  url: string;
  /** The name every key starts with (`{prefix}:…`); default `inpage`. */
  prefix?: string | undefined;
  /**
   * The longest a call may wait for the server, connecting included, in
   * milliseconds, before it fails (a 503 for the request); default 2,000.
   */
  timeoutMs?: number | undefined;
  /**
   * Told when the connection fails and when it is back, once each time
   * (never the URL); default `console.error`.
   */
  onConnectionChange?: ((message: string) => void) | undefined;
}

/** A KV store over Redis: `RATE_LIMIT` for the routes, and `close()`. */
export interface RedisKv extends KvStore, AsyncDisposable {
  /** Closes the connection (waits for the calls under way). */
  close(): Promise<void>;
}

type Client = RedisClientType;

/** A reply of the scripts, as node-redis gives it. */
type Reply = string | null | Reply[];

const DEFAULT_TIMEOUT_MS = 2_000;
/** The longest pause between two attempts to reconnect. */
const RECONNECT_MAX_MS = 1_000;

/**
 * Opens a KV store over Redis. Nothing connects until the first call, so
 * this can run where a serverless function is loaded.
 *
 * @param options the server's URL, or the options
 * @returns the store, to pass as `RATE_LIMIT`
 * @throws {TypeError} when the URL is missing or not a `redis:`/`rediss:` URL
 * @example
 * ```ts ignore
 * import { openRedisKv } from "@inpage/editor/redis";
 *
 * await using kv = openRedisKv("redis://127.0.0.1:6379");
 * await kv.set(["greeting"], "hello", { expireIn: 60_000 });
 * console.log((await kv.get(["greeting"])).value); // "hello"
 * ```
 */
export function openRedisKv(options: RedisKvOptions | string): RedisKv {
  const {
    url,
    prefix = "inpage",
    timeoutMs = DEFAULT_TIMEOUT_MS,
    onConnectionChange = console.error,
  } = typeof options === "string" ? { url: options } : options;
  if (typeof url !== "string" || !/^rediss?:\/\//.test(url)) {
    throw new TypeError("openRedisKv needs a redis:// or rediss:// URL");
  }
  if (!/^[\w.-]{1,64}$/.test(prefix)) {
    throw new TypeError("the prefix is 1 to 64 letters, digits, _, . or -");
  }
  const connection = new Connection(url, timeoutMs, onConnectionChange);
  const keyOf = (key: KvKey) => `{${prefix}}:k:${encodeKey(key)}`;
  const counter = `{${prefix}}:versionstamp`;

  const getMany = async (
    keys: readonly KvKey[],
  ): Promise<KvEntry<unknown>[]> => {
    if (keys.length === 0) return [];
    const reply = await connection.run(READ_SCRIPT, keys.map(keyOf), []);
    if (!Array.isArray(reply) || reply.length !== keys.length * 2) {
      throw new Error("Redis answered an unexpected read");
    }
    return keys.map((_, index) => {
      const value = reply[index * 2];
      const versionstamp = reply[index * 2 + 1];
      return typeof value === "string" && typeof versionstamp === "string"
        ? { value: decodeValue(value), versionstamp }
        : { value: null, versionstamp: null };
    });
  };

  const commit = async (
    checks: readonly { key: KvKey; versionstamp: string | null }[],
    writes: readonly Write[],
  ): Promise<KvCommitResult> => {
    const keys = [
      counter,
      ...checks.map(({ key }) => keyOf(key)),
      ...writes.map(({ key }) => keyOf(key)),
    ];
    const args = [
      String(checks.length),
      ...checks.map(({ versionstamp }) => versionstamp ?? ""),
      ...writes.flatMap((write) =>
        write.kind === "delete"
          ? ["delete", "", ""]
          : ["set", write.value, write.expireIn]
      ),
    ];
    const reply = await connection.run(COMMIT_SCRIPT, keys, args);
    if (reply === null) return { ok: false };
    if (typeof reply !== "string") {
      throw new Error("Redis answered an unexpected commit");
    }
    return { ok: true, versionstamp: reply };
  };

  const atomic = (): KvAtomic => {
    const checks: { key: KvKey; versionstamp: string | null }[] = [];
    const writes: Write[] = [];
    const operation: KvAtomic = {
      check(...more) {
        checks.push(...more);
        return this;
      },
      set(key, value, options = {}) {
        writes.push(setOf(key, value, options.expireIn));
        return this;
      },
      commit: () => commit(checks, writes),
    };
    return Object.assign(operation, {
      delete(key: KvKey) {
        writes.push({ kind: "delete", key });
        return operation;
      },
    });
  };

  return {
    async get<T = unknown>(key: KvKey): Promise<KvEntry<T>> {
      const [entry] = await getMany([key]);
      return entry as KvEntry<T>;
    },
    getMany,
    set: (key, value, options = {}) =>
      commit([], [setOf(key, value, options.expireIn)]),
    async delete(key) {
      await commit([], [{ kind: "delete", key }]);
    },
    atomic,
    close: () => connection.close(),
    [Symbol.asyncDispose]: () => connection.close(),
  };
}

const shas = new Map<string, string>();

/** A script's SHA-1, as Redis names it. */
function shaOf(script: string): string {
  let sha = shas.get(script);
  if (sha === undefined) {
    sha = sha1Hex(new TextEncoder().encode(script));
    shas.set(script, sha);
  }
  return sha;
}

type Write =
  | { kind: "set"; key: KvKey; value: string; expireIn: string }
  | { kind: "delete"; key: KvKey };

function setOf(key: KvKey, value: unknown, expireIn?: number): Write {
  if (
    expireIn !== undefined && (!Number.isFinite(expireIn) || expireIn <= 0)
  ) {
    throw new TypeError("expireIn must be a positive number of milliseconds");
  }
  encodeKey(key);
  return {
    kind: "set",
    key,
    value: encodeValue(value),
    expireIn: expireIn === undefined ? "" : String(Math.ceil(expireIn)),
  };
}

/** A promise settled from outside: the next time the client is ready. */
interface Signal {
  promise: Promise<void>;
  resolve: () => void;
  reject: (error: unknown) => void;
  settled: boolean;
}

function signal(): Signal {
  const made = { settled: false } as Signal;
  made.promise = new Promise<void>((resolve, reject) => {
    made.resolve = () => (made.settled = true, resolve());
    made.reject = (error) => (made.settled = true, reject(error));
  });
  made.promise.catch(() => {});
  return made;
}

/**
 * One node-redis client, made and connected at the first call, with every
 * call bounded by the timeout.
 */
class Connection {
  #client: Promise<Client> | undefined;
  #ready = signal();
  #down = false;

  constructor(
    readonly url: string,
    readonly timeoutMs: number,
    readonly tell: (message: string) => void,
  ) {}

  /**
   * Runs a script by its SHA-1 (`EVALSHA`: one round trip), sending its text
   * (`EVAL`, which keeps it on the server) only when the server does not
   * know it yet: first use, or a server restarted or flushed.
   */
  async run(script: string, keys: string[], args: string[]): Promise<Reply> {
    // Loading the client's module is not waiting for the server: it is
    // outside the timeout (a cold instance on a busy machine may take long).
    this.#client ??= this.#create();
    this.#client.catch(() => this.#client = undefined);
    const client = await this.#client;
    const tail = [String(keys.length), ...keys, ...args];
    return await this.#bounded(async () => {
      await this.#connected(client);
      try {
        return await client.sendCommand([
          "EVALSHA",
          shaOf(script),
          ...tail,
        ]) as Reply;
      } catch (error) {
        if (!String(error).includes("NOSCRIPT")) throw error;
        return await client.sendCommand(["EVAL", script, ...tail]) as Reply;
      }
    });
  }

  async close(): Promise<void> {
    const client = await this.#client?.catch(() => undefined);
    this.#client = undefined;
    if (client?.isOpen) await client.close();
  }

  /**
   * The client once it is ready: connected at the first call, and after a
   * lost connection once node-redis has reconnected (it retries by itself,
   * every second at most). The caller's timeout bounds the wait.
   */
  async #connected(client: Client): Promise<Client> {
    if (client.isReady) return client;
    if (!client.isOpen) {
      if (this.#ready.settled) this.#ready = signal();
      const waiting = this.#ready;
      client.connect().catch((error: unknown) => waiting.reject(error));
    }
    await this.#ready.promise;
    return client;
  }

  async #create(): Promise<Client> {
    const { createClient } = await import("@redis/client");
    const client = createClient({
      url: this.url,
      // While reconnecting, calls fail at once rather than wait in a queue.
      disableOfflineQueue: true,
      socket: {
        connectTimeout: this.timeoutMs,
        reconnectStrategy: (retries: number) =>
          Math.min(50 * 2 ** retries, RECONNECT_MAX_MS),
      },
    }) as unknown as Client;
    client.on("error", (error: Error) => {
      if (this.#ready.settled) this.#ready = signal();
      if (this.#down) return;
      this.#down = true;
      this.tell(`@inpage/editor: Redis unavailable: ${error.message}`);
    });
    client.on("ready", () => {
      this.#ready.resolve();
      if (!this.#down) return;
      this.#down = false;
      this.tell("@inpage/editor: Redis connected again");
    });
    return client;
  }

  /** Runs `call`, failing it after the timeout (its reply is then ignored). */
  async #bounded<T>(call: () => Promise<T>): Promise<T> {
    let timer: ReturnType<typeof setTimeout> | undefined;
    try {
      return await Promise.race([
        call(),
        new Promise<never>((_, reject) => {
          timer = setTimeout(
            () =>
              reject(
                new Error(`Redis did not answer within ${this.timeoutMs} ms`),
              ),
            this.timeoutMs,
          );
        }),
      ]);
    } finally {
      clearTimeout(timer);
    }
  }
}
