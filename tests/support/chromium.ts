/**
 * Debian's Chromium as every browser test starts it: headless, with no
 * network of its own (no background requests, updates or sync).
 *
 * @module
 */

/** Debian's Chromium, installed by tests/setup.ts. */
export const CHROMIUM = "/usr/bin/chromium";

/** Chromium's flags for tests. */
export const FLAGS: readonly string[] = [
  "--headless",
  "--no-sandbox",
  "--disable-gpu",
  "--disable-quic",
  "--no-first-run",
  "--disable-background-networking",
  "--disable-component-update",
  "--disable-sync",
];
