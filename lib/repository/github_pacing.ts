/**
 * The pace of GitHub's content-creating requests (every `POST`, `PATCH`,
 * `PUT` and `DELETE`): GitHub's secondary rate limits allow no more than 80
 * a minute, so a process sends at most {@linkcode WRITES_PER_MINUTE} in any
 * 60 seconds, waiting for a slot when the wait fits in the call's time and
 * refusing at once otherwise (502 `unavailable` with `retry-after`).
 *
 * @module
 */

import { RepositoryError } from "./repository_errors.ts";

/** Content-creating requests a process sends in any 60 seconds at most. */
export const WRITES_PER_MINUTE = 75;
const WINDOW_MS = 60_000;

/** What a pacer reads the time with and waits with. */
export interface PacerClock {
  /** The current time, in milliseconds. */
  now: () => number;
  /** Waits `ms`, or rejects once `signal` aborts. */
  sleep: (ms: number, signal: AbortSignal) => Promise<void>;
}

/**
 * The writes of one GitHub account, as this process sends them.
 *
 * @example
 * ```ts
 * import { WritePacer } from "./github_pacing.ts";
 * import assert from "node:assert/strict";
 *
 * let time = 0;
 * const pacer = new WritePacer(2, { now: () => time, sleep: async (ms) => void (time += ms) });
 * const signal = new AbortController().signal;
 * await pacer.admit(signal, 60_000);
 * await pacer.admit(signal, 60_000);
 * await pacer.admit(signal, 60_000); // waits for the first to leave the minute
 * assert.equal(time, 60_000);
 * await pacer.admit(signal, 1_000);
 * await assert.rejects(pacer.admit(signal, 1_000)); // a wait longer than allowed
 * ```
 */
export class WritePacer {
  readonly #limit: number;
  readonly #clock: PacerClock;
  readonly #sent: number[] = [];

  /**
   * Starts with no write sent.
   *
   * @param limit writes allowed in any 60 seconds
   * @param clock the time and the wait (tests pass their own)
   */
  constructor(limit: number = WRITES_PER_MINUTE, clock?: PacerClock) {
    this.#limit = limit;
    this.#clock = clock ?? {
      now: Date.now,
      sleep: (ms, signal) =>
        new Promise<void>((resolve, reject) => {
          const timer = setTimeout(resolve, ms);
          signal.addEventListener("abort", () => {
            clearTimeout(timer);
            reject(signal.reason);
          }, { once: true });
        }),
    };
  }

  /**
   * Takes a slot for one write, waiting for one when the wait is at most
   * `maxWaitMs`.
   *
   * @param signal bounds the wait
   * @param maxWaitMs the longest wait accepted
   * @throws {RepositoryError} `unavailable`, with the seconds to wait, when
   *   no slot comes in time
   */
  async admit(signal: AbortSignal, maxWaitMs: number): Promise<void> {
    for (;;) {
      const now = this.#clock.now();
      while (this.#sent.length > 0 && this.#sent[0]! <= now - WINDOW_MS) {
        this.#sent.shift();
      }
      if (this.#sent.length < this.#limit) {
        this.#sent.push(now);
        return;
      }
      const wait = this.#sent[0]! + WINDOW_MS - now;
      if (wait > maxWaitMs) {
        throw new RepositoryError(
          "unavailable",
          `${this.#limit} GitHub writes were sent in the last minute`,
          Math.ceil(wait / 1000),
        );
      }
      await this.#clock.sleep(wait, signal);
    }
  }
}

const pacers = new Map<string, WritePacer>();

/**
 * The pacer of an API root and repository in this process, shared by every
 * repository object made for them.
 *
 * @param key the API root and `owner/name`
 * @returns the pacer
 */
export function pacerFor(key: string): WritePacer {
  let pacer = pacers.get(key);
  if (!pacer) {
    pacer = new WritePacer();
    pacers.set(key, pacer);
  }
  return pacer;
}
