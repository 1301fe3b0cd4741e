/**
 * The Lua scripts of the Redis store. Each runs atomically on the server: no other command runs
 * between its reads and writes, so any number of chatads instances count exactly. ioredis loads
 * them with `defineCommand` (EVALSHA, EVAL when the server does not know the script yet).
 *
 * Numbers cross the Lua boundary as strings formatted with %.17g: a Lua number returned to the
 * client is truncated to an integer, and `tostring` keeps only 14 digits.
 */

/**
 * `consume`: token bucket → daily quota → monthly quota; only when all three admit, takes one
 * token and adds one to both counters. A refusal writes nothing.
 *
 * KEYS: bucket (hash t = tokens, at = refilled at, ms), daily counter, monthly counter.
 * ARGV: now ms, per_second, burst, daily limit, monthly limit, daily EXPIREAT s,
 * monthly EXPIREAT s, bucket PEXPIRE ms.
 * Returns { 1, 'ok', daily, monthly } or { 0, reason, daily, monthly, retryAfterMs? }.
 */
export const CONSUME_LUA = `
local now = tonumber(ARGV[1])
local rate = tonumber(ARGV[2])
local burst = tonumber(ARGV[3])
local dailyLimit = tonumber(ARGV[4])
local monthlyLimit = tonumber(ARGV[5])

local bucket = redis.call('HMGET', KEYS[1], 't', 'at')
local tokens = burst
local at = now
if bucket[1] and bucket[2] then
  tokens = tonumber(bucket[1])
  at = tonumber(bucket[2])
end
local elapsed = math.max(0, now - at) / 1000
tokens = math.min(burst, tokens + elapsed * rate)

local daily = tonumber(redis.call('GET', KEYS[2]) or '0')
local monthly = tonumber(redis.call('GET', KEYS[3]) or '0')

if tokens < 1 then
  return { 0, 'rate', daily, monthly, string.format('%.17g', ((1 - tokens) / rate) * 1000) }
end
if daily >= dailyLimit then
  return { 0, 'daily', daily, monthly }
end
if monthly >= monthlyLimit then
  return { 0, 'monthly', daily, monthly }
end

redis.call('HSET', KEYS[1], 't', string.format('%.17g', tokens - 1), 'at', string.format('%.17g', math.max(now, at)))
redis.call('PEXPIRE', KEYS[1], ARGV[8])
daily = redis.call('INCR', KEYS[2])
monthly = redis.call('INCR', KEYS[3])
redis.call('EXPIREAT', KEYS[2], ARGV[6])
redis.call('EXPIREAT', KEYS[3], ARGV[7])
return { 1, 'ok', daily, monthly }
`;

/** `release`: one less on the daily and monthly counters, never below 0. KEYS: daily, monthly. */
export const RELEASE_LUA = `
for i = 1, 2 do
  local v = tonumber(redis.call('GET', KEYS[i]) or '0')
  if v and v > 0 then
    redis.call('DECR', KEYS[i])
  end
end
return 1
`;

/**
 * `findKey`: the key's owner and the owner's team JSON in one call.
 * KEYS: key:{hash}. ARGV: key prefix. Returns { teamId, keyId, teamJson } or nil.
 */
export const FIND_KEY_LUA = `
local ref = redis.call('HMGET', KEYS[1], 'team', 'key')
if not ref[1] or not ref[2] then
  return false
end
local team = redis.call('GET', ARGV[1] .. 'team:' .. ref[1])
if not team then
  return false
end
return { ref[1], ref[2], team }
`;

/**
 * `saveTeam`: refuses when a key hash belongs to another team; otherwise drops the old keys'
 * entries, writes the team JSON, its keys' entries and its id in the set of teams.
 * KEYS: team:{id}, the set of team ids. ARGV: key prefix, team id, team JSON, then hash, key id
 * pairs. Returns { 1 } or { 0, keyId of the conflicting key }.
 */
export const SAVE_TEAM_LUA = `
local prefix = ARGV[1]
local id = ARGV[2]
for i = 4, #ARGV, 2 do
  local owner = redis.call('HGET', prefix .. 'key:' .. ARGV[i], 'team')
  if owner and owner ~= id then
    return { 0, ARGV[i + 1] }
  end
end
local old = redis.call('GET', KEYS[1])
if old then
  local ok, decoded = pcall(cjson.decode, old)
  if ok and type(decoded) == 'table' and type(decoded.keys) == 'table' then
    for _, k in ipairs(decoded.keys) do
      if type(k) == 'table' and type(k.hash) == 'string' then
        local entry = prefix .. 'key:' .. k.hash
        if redis.call('HGET', entry, 'team') == id then
          redis.call('DEL', entry)
        end
      end
    end
  end
end
redis.call('SET', KEYS[1], ARGV[3])
redis.call('SADD', KEYS[2], id)
for i = 4, #ARGV, 2 do
  redis.call('HSET', prefix .. 'key:' .. ARGV[i], 'team', id, 'key', ARGV[i + 1])
end
return { 1 }
`;

/**
 * Compare-and-set of a team's JSON (used by \`revokeKey\`: read, change in JS, write back only if
 * nobody wrote in between). KEYS: team:{id}. ARGV: expected JSON, new JSON. Returns 1 or 0.
 */
export const REPLACE_TEAM_LUA = `
if redis.call('GET', KEYS[1]) == ARGV[1] then
  redis.call('SET', KEYS[1], ARGV[2])
  return 1
end
return 0
`;
