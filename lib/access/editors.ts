/**
 * Named editors: `EDITOR_KEYS`, a JSON object of editors (id → `hash`,
 * `name`, `email`, and an optional `role`: `publisher`, the default, or
 * `author`, who sends changes for review and never publishes), beside the plain site key of `EDITOR_KEY_HASH` (the
 * editor named `editor`). A named key is `<id>.<secret>`: the part before
 * its first `.` picks the one hash to verify, so a login costs one argon2
 * verification however many editors there are (plus one decoy hash for each
 * other cost among the configured hashes, when they differ: every login then
 * costs the same, see `keyTarget`). A session remembers its
 * editor and a fingerprint of that editor's hash, so that removing an
 * editor, or changing their hash, ends their sessions and nobody else's.
 *
 * Names and emails hold no control or line-breaking character (C0, DEL,
 * C1, U+2028, U+2029: `CONTROL_OR_BREAK`): they become commit authors and
 * log text. This is the one reader of `EDITOR_KEYS`: `editor serve` and
 * `editor hash-key --name` check entries with it too.
 *
 * A malformed `EDITOR_KEYS` fails closed, as a missing key configuration
 * does: every login is refused (after the same work) and no session is
 * valid, and each refused login's log line says why.
 *
 * @module
 */

import { sha256Hex } from "../digest.ts";
import { CONTROL_OR_BREAK, jsonLine } from "../encoding/text.ts";
import type { Env } from "../http/env.ts";
import {
  DEFAULT_KEY_PARAMS,
  type KeyHashParams,
  parseKeyHash,
} from "./key_hash_format.ts";
import { AccessError } from "./access_error.ts";

/**
 * What an editor may do: a `publisher` publishes (`/api/save`, a review's
 * publish and schedule); an `author` sends changes for review only.
 */
export type EditorRole = "author" | "publisher";

/** The roles an `EDITOR_KEYS` entry may name, the default first. */
export const EDITOR_ROLES: readonly EditorRole[] = Object.freeze([
  "publisher",
  "author",
]);

/**
 * Who is editing: the id, the name and email their commits carry, and what
 * they may do.
 */
export interface EditorIdentity {
  /** `[a-z0-9-]{1,32}`, or `editor` for the plain site key. */
  readonly id: string;
  /** The name commits are authored with. */
  readonly name: string;
  /** The email commits are authored with. */
  readonly email: string;
  /** What they may do: `publisher` unless their entry says `author`. */
  readonly role: EditorRole;
}

/** The id of the editor who logs in with the plain site key. */
export const PLAIN_EDITOR_ID = "editor";

/**
 * The editor who logs in with the plain site key (`EDITOR_KEY_HASH`): commits
 * are authored as `editor <editor@inpage.invalid>` (`.invalid` is reserved,
 * RFC 2606: the address can never belong to anyone).
 */
export const PLAIN_EDITOR: EditorIdentity = Object.freeze({
  id: PLAIN_EDITOR_ID,
  name: "editor",
  email: "editor@inpage.invalid",
  role: "publisher",
});

/** An editor's id: lowercase letters, digits and `-`, 1 to 32. */
export const EDITOR_ID = /^[a-z0-9-]{1,32}$/;
/** Longest editor name, in characters. */
export const EDITOR_NAME_MAX = 100;
/** Longest editor email, in characters. */
export const EDITOR_EMAIL_MAX = 254;
const EMAIL = /^[^\s<>@,;"'\\]+@[^\s<>@,;"'\\]+$/;
/** What would break a git ident line, beside {@linkcode CONTROL_OR_BREAK}. */
const IDENT_REFUSED = /[<>]/;

/** A named editor as configured: identity, hash and session fingerprint. */
interface NamedEditor extends EditorIdentity {
  readonly hash: string;
  readonly fingerprint: string;
  readonly params: KeyHashParams;
}

/** `EDITOR_KEYS` read: its editors, or why it is refused. */
export type EditorKeys =
  | { readonly ok: true; readonly editors: ReadonlyMap<string, NamedEditor> }
  | { readonly ok: false; readonly problem: string };

const NONE: EditorKeys = Object.freeze({
  ok: true as const,
  editors: new Map<string, NamedEditor>(),
});
let lastRaw: unknown;
let lastRead: EditorKeys = NONE;

/**
 * Reads `EDITOR_KEYS`: absent or empty means no named editor; otherwise a
 * JSON object whose every entry must be well formed, or the whole variable
 * is refused (fail closed). The last value read is kept, so a request does
 * not parse it again.
 *
 * @param raw the variable's value
 * @returns the editors by id, or the problem (never a hash in it)
 * @example
 * ```ts
 * import { readEditorKeys } from "./editors.ts";
 * import assert from "node:assert/strict";
 *
 * assert.deepEqual(readEditorKeys("{}"), { ok: true, editors: new Map() });
 * assert.equal(readEditorKeys("[]").ok, false);
 * ```
 */
export function readEditorKeys(raw: unknown): EditorKeys {
  if (raw === undefined || raw === null || raw === "") return NONE;
  if (raw === lastRaw) return lastRead;
  const read = parse(raw);
  lastRaw = raw;
  lastRead = read;
  return read;
}

function parse(raw: unknown): EditorKeys {
  const refuse = (problem: string): EditorKeys => ({ ok: false, problem });
  if (typeof raw !== "string") return refuse("EDITOR_KEYS is not a string");
  let value: unknown;
  try {
    value = JSON.parse(raw);
  } catch {
    return refuse("EDITOR_KEYS is not JSON");
  }
  if (typeof value !== "object" || value === null || Array.isArray(value)) {
    return refuse("EDITOR_KEYS is not a JSON object");
  }
  const editors = new Map<string, NamedEditor>();
  for (const [id, entry] of Object.entries(value)) {
    // On one line whatever the id holds: the problem is printed at start.
    const shown = jsonLine(id.slice(0, 40));
    if (!EDITOR_ID.test(id)) {
      return refuse(`EDITOR_KEYS: the id ${shown} is not [a-z0-9-]{1,32}`);
    }
    if (id === PLAIN_EDITOR_ID) {
      return refuse(
        `EDITOR_KEYS: the id "${PLAIN_EDITOR_ID}" is the plain site key's (EDITOR_KEY_HASH)`,
      );
    }
    if (typeof entry !== "object" || entry === null || Array.isArray(entry)) {
      return refuse(`EDITOR_KEYS: ${shown} is not an object`);
    }
    const { hash, name, email, role } = entry as Record<string, unknown>;
    const params = typeof hash === "string" ? parseKeyHash(hash) : undefined;
    if (typeof hash !== "string" || !params) {
      return refuse(
        `EDITOR_KEYS: the hash of ${shown} is not an argon2id hash from editor hash-key`,
      );
    }
    if (
      typeof name !== "string" || name.trim() === "" ||
      name.length > EDITOR_NAME_MAX || CONTROL_OR_BREAK.test(name) ||
      IDENT_REFUSED.test(name) ||
      !/[\p{L}\p{N}]/u.test(name)
    ) {
      return refuse(
        `EDITOR_KEYS: the name of ${shown} must be 1 to ${EDITOR_NAME_MAX} characters with a letter or digit, without control or line-breaking characters, < or >`,
      );
    }
    if (
      typeof email !== "string" || email.length > EDITOR_EMAIL_MAX ||
      !EMAIL.test(email) || CONTROL_OR_BREAK.test(email)
    ) {
      return refuse(
        `EDITOR_KEYS: the email of ${shown} is not an address (one line, without control characters)`,
      );
    }
    if (
      role !== undefined && !EDITOR_ROLES.includes(role as EditorRole)
    ) {
      return refuse(
        `EDITOR_KEYS: the role of ${shown} must be "publisher" or "author"`,
      );
    }
    const trimmed = hash.trim();
    editors.set(id, {
      id,
      name: name.trim(),
      email,
      role: (role as EditorRole | undefined) ?? "publisher",
      hash: trimmed,
      fingerprint: fingerprintOf(id, trimmed),
      params: {
        memory: params.memory,
        iterations: params.iterations,
        parallelism: params.parallelism,
      },
    });
  }
  return { ok: true, editors };
}

/**
 * The fingerprint a session keeps of its editor's hash: the plain site key's
 * is the one sessions have always kept, so they outlive an upgrade.
 */
function fingerprintOf(id: string, hash: string | undefined): string {
  return id === PLAIN_EDITOR_ID
    ? sha256Hex(`inpage-editor key ${hash ?? ""}`)
    : sha256Hex(`inpage-editor key ${id} ${hash ?? ""}`);
}

/** What a login verifies a key against. */
export interface KeyTarget {
  /** The editor the key would log in, when it matches. */
  editor: EditorIdentity;
  /** The PHC string to verify against, or `undefined` (a decoy then). */
  hash: string | undefined;
  /**
   * The cost of the decoy when `hash` is missing: that of the first named
   * editor, so an unknown id costs what a known one does.
   */
  decoy: KeyHashParams | undefined;
  /** Why every login is refused, for the log, when it is. */
  refused: string | undefined;
  /**
   * The other costs to pay as decoys after the verification: one per cost
   * among the configured hashes (`EDITOR_KEY_HASH` and every named editor's)
   * other than the verified hash's own. Every login then computes one hash
   * of each cost, whichever hash its key names, so no id can be told from
   * an unknown one by timing, whatever the costs; with one cost (every hash
   * made with the same parameters), none.
   */
  also: KeyHashParams[];
}

/**
 * The one hash a key is verified against: the named editor whose id is the
 * part of the key before its first `.`, else the plain site key's
 * (`EDITOR_KEY_HASH`). With a malformed `EDITOR_KEYS`, none.
 *
 * @param key the submitted key
 * @param env the host's variables (`EDITOR_KEYS`, `EDITOR_KEY_HASH`)
 * @returns the target of the one verification
 * @example
 * ```ts
 * import { keyTarget } from "./editors.ts";
 * import assert from "node:assert/strict";
 *
 * const target = keyTarget("alice.secret", { EDITOR_KEY_HASH: undefined });
 * assert.equal(target.editor.id, "editor");
 * assert.equal(target.hash, undefined);
 * ```
 */
export function keyTarget(key: string, env: Env): KeyTarget {
  const keys = readEditorKeys(env.EDITOR_KEYS);
  if (!keys.ok) {
    return {
      editor: PLAIN_EDITOR,
      hash: undefined,
      decoy: undefined,
      refused: `${keys.problem}: every login is refused`,
      also: [],
    };
  }
  const plain = env.EDITOR_KEY_HASH || undefined;
  const plainParams = parseKeyHash(plain);
  const costs = distinctCosts([
    ...(plainParams ? [plainParams] : []),
    ...[...keys.editors.values()].map((editor) => editor.params),
  ]);
  const dot = key.indexOf(".");
  const named = dot > 0 ? keys.editors.get(key.slice(0, dot)) : undefined;
  if (named) {
    return {
      editor: identityOf(named),
      hash: named.hash,
      decoy: undefined,
      refused: undefined,
      also: othersThan(costs, named.params),
    };
  }
  const first = keys.editors.values().next().value;
  return {
    editor: PLAIN_EDITOR,
    hash: plain,
    decoy: first?.params,
    refused: plain || first ? undefined : (
      "EDITOR_KEY_HASH is not set: every login is refused"
    ),
    also: othersThan(
      costs,
      plainParams ?? first?.params ?? DEFAULT_KEY_PARAMS,
    ),
  };
}

/** The same cost: memory, iterations and lanes. */
function sameCost(a: KeyHashParams, b: KeyHashParams): boolean {
  return a.memory === b.memory && a.iterations === b.iterations &&
    a.parallelism === b.parallelism;
}

/** Each cost once, in the order first met. */
function distinctCosts(all: readonly KeyHashParams[]): KeyHashParams[] {
  const costs: KeyHashParams[] = [];
  for (const params of all) {
    if (!costs.some((cost) => sameCost(cost, params))) {
      costs.push({
        memory: params.memory,
        iterations: params.iterations,
        parallelism: params.parallelism,
      });
    }
  }
  return costs;
}

/** The costs but the verified hash's own. */
function othersThan(
  costs: readonly KeyHashParams[],
  own: KeyHashParams,
): KeyHashParams[] {
  return costs.filter((cost) => !sameCost(cost, own));
}

/**
 * Whether the host has any key configured: `EDITOR_KEY_HASH`, or a
 * well-formed `EDITOR_KEYS` naming at least one editor. Without, no session
 * is valid.
 *
 * @param env the host's variables
 * @returns true when some key can log in
 */
export function hasKeyConfig(env: Env): boolean {
  const keys = readEditorKeys(env.EDITOR_KEYS);
  if (!keys.ok) return false;
  return Boolean(env.EDITOR_KEY_HASH) || keys.editors.size > 0;
}

/**
 * The fingerprint a session opened for an editor keeps.
 *
 * @param editor the editor's id
 * @param env the host's variables
 * @returns the fingerprint, or `undefined` when that editor cannot log in
 */
export function sessionFingerprint(
  editor: string,
  env: Env,
): string | undefined {
  const keys = readEditorKeys(env.EDITOR_KEYS);
  if (!keys.ok) return undefined;
  if (editor === PLAIN_EDITOR_ID) {
    return env.EDITOR_KEY_HASH
      ? fingerprintOf(PLAIN_EDITOR_ID, env.EDITOR_KEY_HASH)
      : undefined;
  }
  return keys.editors.get(editor)?.fingerprint;
}

/**
 * The editor of a session record, when it is still one: its editor is still
 * configured with the same hash.
 *
 * @param editor the session's editor id (absent in sessions opened before
 *   named editors: the plain site key's)
 * @param fingerprint the session's fingerprint
 * @param env the host's variables
 * @returns the editor, or `undefined`
 */
export function editorOfSession(
  editor: unknown,
  fingerprint: unknown,
  env: Env,
): EditorIdentity | undefined {
  const id = editor === undefined ? PLAIN_EDITOR_ID : editor;
  if (typeof id !== "string" || typeof fingerprint !== "string") {
    return undefined;
  }
  if (sessionFingerprint(id, env) !== fingerprint) return undefined;
  if (id === PLAIN_EDITOR_ID) return PLAIN_EDITOR;
  const keys = readEditorKeys(env.EDITOR_KEYS);
  const named = keys.ok ? keys.editors.get(id) : undefined;
  return named ? identityOf(named) : undefined;
}

/**
 * An editor as configured now: the plain site key's while `EDITOR_KEY_HASH`
 * is set, or a named editor of a well-formed `EDITOR_KEYS`.
 *
 * @example
 * ```ts
 * import { configuredEditor } from "./editors.ts";
 * import assert from "node:assert/strict";
 *
 * assert.equal(configuredEditor("editor", {})?.id, undefined);
 * ```
 *
 * @param id the editor's id
 * @param env the host's variables
 * @returns the editor, or `undefined` when no key of that id can log in
 */
export function configuredEditor(
  id: string,
  env: Env,
): EditorIdentity | undefined {
  const keys = readEditorKeys(env.EDITOR_KEYS);
  if (!keys.ok) return undefined;
  if (id === PLAIN_EDITOR_ID) {
    return env.EDITOR_KEY_HASH ? PLAIN_EDITOR : undefined;
  }
  const named = keys.editors.get(id);
  return named ? identityOf(named) : undefined;
}

function identityOf(editor: NamedEditor): EditorIdentity {
  return {
    id: editor.id,
    name: editor.name,
    email: editor.email,
    role: editor.role,
  };
}

/**
 * Refuses an editor who may not publish: an author sends changes for
 * review instead.
 *
 * @example
 * ```ts
 * import { PLAIN_EDITOR, requirePublisher } from "./editors.ts";
 * import assert from "node:assert/strict";
 *
 * requirePublisher(PLAIN_EDITOR);
 * assert.throws(() => requirePublisher({ ...PLAIN_EDITOR, role: "author" }));
 * ```
 *
 * @param editor the session's editor
 * @throws {AccessError} `forbidden` for an author
 */
export function requirePublisher(editor: EditorIdentity): void {
  if (editor.role !== "publisher") {
    throw new AccessError(
      "forbidden",
      `${editor.id} is an ${editor.role}: only a publisher may publish`,
    );
  }
}
