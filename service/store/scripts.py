"""The Lua scripts of the Redis store (``service.store.redis``): each touches the keys of one
game, or one index key, so it runs unchanged on a Redis Cluster (one slot)."""

QUOTA_LUA = """
-- One counter key per window of a quota, from KEYS[first] on; spec: 'amount:ms,amount:ms'.
-- Counts the request in every window; {'limited', '<window index>:<ms left>'} past one.
local function over_quota(first, spec)
  local k, refused = first, nil
  for amount, ms in string.gmatch(spec, '(%d+):(%d+)') do
    local count = redis.call('INCR', KEYS[k])
    if count == 1 then redis.call('PEXPIRE', KEYS[k], ms) end
    if count > tonumber(amount) and not refused then
      refused = {'limited', string.format('%d:%d', k - first, redis.call('PTTL', KEYS[k]))}
    end
    k = k + 1
  end
  return refused
end
"""

SEATS_LUA = """
-- A seat's holder is the token hash in its meta field join:<seat> (JSON).
local function holder(meta, seat)
  local joined = redis.call('HGET', meta, 'join:' .. seat)
  return joined and cjson.decode(joined)['token_hash']
end
-- A person left the seat: its join goes, its token hash is kept as left:<hash>.
local function vacate(meta, seat)
  local digest = holder(meta, seat)
  if digest then redis.call('HSET', meta, 'left:' .. digest, digest) end
  return redis.call('HDEL', meta, 'join:' .. seat)
end
"""

APPEND_LUA = QUOTA_LUA + SEATS_LUA + """
-- KEYS: stream, meta, idem (the hash the key's record is kept in), snapshot, idem (the game's
-- main idempotency hash, looked in too), then the quota's counters, then (once over) every
-- idempotency hash of the game, to expire.  ARGV: expected version, prev hash, idempotency
-- key (or ''), idempotency record, status (or ''), meta JSON (create only, or ''), entry
-- count, idempotency TTL in ms once over (0: none), snapshot (or ''), quota spec (or ''),
-- index in KEYS of the first hash to expire (0: none), the seat the appending token must hold
-- (or ''), that token's hash, the seats the batch's people leave ('1,3' or ''), then per
-- entry: field count, field, value, ...
local unpack = table.unpack or unpack
if ARGV[10] ~= '' then
  local refused = over_quota(6, ARGV[10])
  if refused then return refused end
end
if ARGV[12] ~= '' and holder(KEYS[2], ARGV[12]) ~= ARGV[13] then
  -- the token does not hold the seat now: 'left' when its holder left a seat of the game
  return {'holder', redis.call('HEXISTS', KEYS[2], 'left:' .. ARGV[13]) == 1 and 'left' or ''}
end
local key = ARGV[3]
if key ~= '' then
  local earlier = redis.call('HGET', KEYS[3], key)
  if not earlier and KEYS[5] ~= KEYS[3] then earlier = redis.call('HGET', KEYS[5], key) end
  if earlier then return {'replayed', earlier} end
end
local exists = redis.call('EXISTS', KEYS[2])
if ARGV[6] ~= '' then
  if exists == 1 then return {'exists', ''} end
elseif exists == 0 then
  return {'unknown', ''}
end
local current, head = 0, string.rep('0', 64)
local last = redis.call('XREVRANGE', KEYS[1], '+', '-', 'COUNT', 1)
if #last > 0 then
  current = tonumber(string.match(last[1][1], '^(%d+)'))
  local fields = last[1][2]
  for i = 1, #fields, 2 do
    if fields[i] == 'hash' then head = fields[i + 1] end
  end
end
if current ~= tonumber(ARGV[1]) then
  -- the events after the expected version: a caller's stale cache catches up in this trip
  local newer = {}
  if current > tonumber(ARGV[1]) then
    newer = redis.call('XRANGE', KEYS[1], string.format('%d-0', tonumber(ARGV[1]) + 1), '+')
  end
  return {'conflict', tostring(current), newer}
end
if head ~= ARGV[2] then return {'chain', head} end
if ARGV[6] ~= '' then redis.call('HSET', KEYS[2], 'meta', ARGV[6], 'due', '1') end
local i = 15
local n = tonumber(ARGV[7])
for v = current + 1, current + n do
  local count = tonumber(ARGV[i])
  local args = {}
  for j = 1, count * 2 do args[j] = ARGV[i + j] end
  i = i + count * 2 + 1
  redis.call('XADD', KEYS[1], string.format('%d-0', v), unpack(args))
end
for seat in string.gmatch(ARGV[14], '%d+') do vacate(KEYS[2], seat) end
if key ~= '' then redis.call('HSET', KEYS[3], key, ARGV[4]) end
if ARGV[5] == 'over' then redis.call('DEL', KEYS[4])  -- a finished game keeps no snapshot
elseif ARGV[9] ~= '' then redis.call('SET', KEYS[4], ARGV[9]) end
if ARGV[5] ~= '' then redis.call('HSET', KEYS[2], 'status', ARGV[5]) end
if ARGV[5] == 'over' and tonumber(ARGV[8]) > 0 and tonumber(ARGV[11]) > 0 then
  for k = tonumber(ARGV[11]), #KEYS do redis.call('PEXPIRE', KEYS[k], ARGV[8]) end
end
return {'ok', tostring(current + n)}
"""

COUNT_LUA = QUOTA_LUA + """
-- KEYS: the quota's counters.  ARGV: quota spec.
return over_quota(1, ARGV[1]) or {'ok', ''}
"""

FETCH_LATEST_LUA = """
-- KEYS: meta, snapshot, stream, then the hashes an idempotency key may be kept in.  ARGV: the
-- key (or '').  {meta fields, snapshot (or ''), the events from the snapshot's version (all of
-- them without one), the key's record (or '')}; {} for no game.
local meta = redis.call('HGETALL', KEYS[1])
if #meta == 0 then return {} end
local snap = redis.call('GET', KEYS[2]) or ''
local from = string.match(snap, '^(%d+):')
local events = redis.call('XRANGE', KEYS[3], from and (from .. '-0') or '-', '+')
local record = ''
if ARGV[1] ~= '' then
  for k = 4, #KEYS do
    record = redis.call('HGET', KEYS[k], ARGV[1]) or ''
    if record ~= '' then break end
  end
end
return {meta, snap, events, record}
"""

JOIN_LUA = """
-- KEYS: meta.  ARGV: join field, joined seat JSON, number of seats open at creation.  The
-- same join again (a retry: the same name and token hash) is no conflict.
if redis.call('EXISTS', KEYS[1]) == 0 then return {'unknown', ''} end
if redis.call('HSETNX', KEYS[1], ARGV[1], ARGV[2]) == 0
    and redis.call('HGET', KEYS[1], ARGV[1]) ~= ARGV[2] then
  return {'taken', ''}
end
local status = redis.call('HGET', KEYS[1], 'status')
local joined = 0
for _, name in ipairs(redis.call('HKEYS', KEYS[1])) do
  if string.sub(name, 1, 5) == 'join:' then joined = joined + 1 end
end
if status == 'waiting' and joined >= tonumber(ARGV[3]) then
  status = 'playing'
  redis.call('HSET', KEYS[1], 'status', status)
end
return {'ok', status}
"""

VACATE_LUA = SEATS_LUA + """
-- KEYS: meta.  ARGV: seat.  (An append whose batch leaves the seat does the same itself.)
return vacate(KEYS[1], ARGV[1])
"""

RESET_CLOCK_LUA = """
-- KEYS: the clock index.  ARGV: game id, the noted time seen, the new time ('' drops it).
local noted = redis.call('ZSCORE', KEYS[1], ARGV[1])
if not noted or (ARGV[2] ~= '' and tonumber(noted) ~= tonumber(ARGV[2])) then return 0 end
if ARGV[3] == '' then redis.call('ZREM', KEYS[1], ARGV[1])
else redis.call('ZADD', KEYS[1], ARGV[3], ARGV[1]) end
return 1
"""

WATCH_LUA = """
-- KEYS: a game's watchers (sorted set: watcher -> expiry, Unix ms).
-- ARGV: now (ms), the watcher, its expiry.  Drops the expired, sets the watcher's expiry and
-- keeps the key until the latest expiry in it (a game nobody watches leaves no key behind).
redis.call('ZREMRANGEBYSCORE', KEYS[1], '-inf', ARGV[1])
redis.call('ZADD', KEYS[1], ARGV[3], ARGV[2])
local last = redis.call('ZRANGE', KEYS[1], -1, -1, 'WITHSCORES')
redis.call('PEXPIRE', KEYS[1], math.max(1, tonumber(last[2]) - tonumber(ARGV[1])))
return 1
"""

HOLD_FORK_LUA = """
-- KEYS: a game's meta, its held forks' files (hash: fork id -> replay file, compressed).
-- ARGV: the fork's id, its file.  Kept only while the game is stored (else no key is left).
if redis.call('EXISTS', KEYS[1]) == 0 then return 0 end
redis.call('HSET', KEYS[2], ARGV[1], ARGV[2])
return 1
"""
