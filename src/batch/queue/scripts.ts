/**
 * The batch's own records in Redis, beside BullMQ's jobs, each changed by one script so that several
 * Node-REDs can act at once: an item's ending is counted once, one list starts at a time, one Node-RED
 * announces a batch's end.
 */

/**
 * KEYS ended, counts, workersDone, workersFailed, failures, interruptions; ARGV index, state, worker, the
 * failure's or the interruption's JSON ("" for none). Returns 1 when this ending counted, 0 when the item
 * had already ended (a second report of it).
 */
export const RECORD_ENDING = `
if redis.call('HSETNX', KEYS[1], ARGV[1], ARGV[2]) == 0 then return 0 end
redis.call('HINCRBY', KEYS[2], ARGV[2], 1)
if ARGV[2] == 'done' then
  redis.call('HINCRBY', KEYS[3], ARGV[3], 1)
elseif ARGV[2] == 'failed' or ARGV[2] == 'timedOut' then
  redis.call('HINCRBY', KEYS[4], ARGV[3], 1)
end
if ARGV[4] ~= '' then
  if ARGV[2] == 'interrupted' then redis.call('RPUSH', KEYS[6], ARGV[4]) else redis.call('RPUSH', KEYS[5], ARGV[4]) end
end
return 1
`;

/**
 * KEYS current, waiting; ARGV key prefix, the header's field for the list's meta, then the header's other
 * fields and their values (src/batch/queue/redis-records.ts, startedHeaderArgs). The running batch's ID: the
 * one running (`running:<id>`), else the first waiting list, which becomes the running batch, its header
 * written (`started:<id>`). Nil when nothing waits.
 */
export const START_NEXT = `
local current = redis.call('GET', KEYS[1])
if current then return 'running:' .. current end
local id = redis.call('LPOP', KEYS[2])
if not id then return false end
local meta = redis.call('GET', ARGV[1] .. 'meta:' .. id)
if not meta then return false end
redis.call('SET', KEYS[1], id)
redis.call('HSET', ARGV[1] .. 'header:' .. id, ARGV[2], meta, unpack(ARGV, 3))
return 'started:' .. id
`;

/**
 * KEYS current, announced, last; ARGV batch ID, worker, summary JSON, seconds to keep the batch's records.
 * 1 when this Node-RED announces the end (the first to ask), 0 otherwise. The batch stops being current.
 */
export const FINISH = `
if redis.call('SET', KEYS[2], ARGV[2], 'NX', 'EX', ARGV[4]) == false then return 0 end
redis.call('SET', KEYS[3], ARGV[3])
if redis.call('GET', KEYS[1]) == ARGV[1] then redis.call('DEL', KEYS[1]) end
return 1
`;

/** KEYS waiting; ARGV the IDs to take out of it. Returns those that were there. */
export const DROP_WAITING = `
local dropped = {}
for _, id in ipairs(ARGV) do
  if redis.call('LREM', KEYS[1], 0, id) > 0 then table.insert(dropped, id) end
end
return dropped
`;
