/**
 * The two Lua scripts that give a Redis server Deno KV's semantics. Redis
 * runs a script whole, with no other command in between: a commit's checks
 * and writes are one step, however many clients share the server.
 *
 * An entry is a hash at its key: field `v` holds the value, field `s` its
 * versionstamp. Versionstamps come from one counter (`INCR`), written as 20
 * hex digits as Deno KV's are, so each commit's is greater than every
 * earlier one. An entry that expires goes with its key (`PEXPIRE`): Redis
 * never answers an expired key.
 *
 * @module
 */

/**
 * Reads entries. KEYS: the entries. Answers, for each, its value and its
 * versionstamp (both nil when absent), in one flat array.
 *
 * @example
 * ```ts
 * import { READ_SCRIPT } from "./redis_scripts.ts";
 *
 * console.assert(READ_SCRIPT.includes("HMGET"));
 * ```
 */
export const READ_SCRIPT = `
local found = {}
for i = 1, #KEYS do
  local entry = redis.call('HMGET', KEYS[i], 'v', 's')
  found[#found + 1] = entry[1]
  found[#found + 1] = entry[2]
end
return found
`;

/**
 * Checks versionstamps, then writes; all or nothing. KEYS: the counter, the
 * checked entries, then the written ones. ARGV: the number of checks, each
 * checked entry's expected versionstamp (empty for "absent"), then per
 * write its kind (`set` or `delete`), its value and its expiry in
 * milliseconds (empty for none). Answers the new versionstamp, or nil when
 * a check fails (nothing is written then).
 *
 * @example
 * ```ts
 * import { COMMIT_SCRIPT } from "./redis_scripts.ts";
 *
 * console.assert(COMMIT_SCRIPT.includes("PEXPIRE"));
 * ```
 */
export const COMMIT_SCRIPT = `
local checks = tonumber(ARGV[1])
for i = 1, checks do
  local current = redis.call('HGET', KEYS[1 + i], 's')
  if not current then current = '' end
  if current ~= ARGV[1 + i] then return false end
end
local stamp = string.format('%020x', redis.call('INCR', KEYS[1]))
local at = 2 + checks
for k = 2 + checks, #KEYS do
  if ARGV[at] == 'delete' then
    redis.call('DEL', KEYS[k])
  else
    redis.call('HSET', KEYS[k], 'v', ARGV[at + 1], 's', stamp)
    if ARGV[at + 2] == '' then
      redis.call('PERSIST', KEYS[k])
    else
      redis.call('PEXPIRE', KEYS[k], ARGV[at + 2])
    end
  end
  at = at + 3
end
return stamp
`;
