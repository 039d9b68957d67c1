import { Cluster, ReplyError } from 'ioredis'
import { StorageUnavailableError } from '../contract/index.ts'
import type { RateCounter, RateHit } from '../contract/index.ts'
import { assertReady, closeRedisClient, createRedisClient, initialConnection, pingRedis, refreshClusterSlots } from './connection.ts'
import type { RedisClient } from './connection.ts'

/** Give `url` (one Redis server) or `clusterNodes` (a Redis Cluster), not both. */
export interface RedisRateCounterOptions {
  /** One Redis server, e.g. `redis://host:6379`. */
  url?: string
  /** A Redis Cluster: some or all of its nodes, e.g. `['10.0.0.1:7001', '10.0.0.2:7001']` (the rest are discovered). */
  clusterNodes?: readonly string[]
  /** Must not contain `{` or `}`: the counter key inside the braces is the Redis Cluster hash tag. */
  keyPrefix?: string
  commandTimeoutMs?: number
  connectTimeoutMs?: number
  /** Shown by CLIENT LIST. */
  connectionName?: string
  /** Connection errors (the client keeps reconnecting in the background). */
  onError?: (error: Error) => void
}

// `ttl < 0` repairs a key left without expiry (a manual PERSIST, or a writer other than this script); such a key
// would otherwise keep counting forever and block the client for good.
const hitScript = `
local count = redis.call('INCR', KEYS[1])
local ttl = redis.call('PTTL', KEYS[1])
if count == 1 or ttl < 0 then
  redis.call('PEXPIRE', KEYS[1], ARGV[1])
  ttl = tonumber(ARGV[1])
end
return { count, ttl }
`

// hitScript for each of KEYS, in one call (one server only: a cluster's keys are on different nodes).
const hitEachScript = `
local hits = {}
for i, key in ipairs(KEYS) do
  local count = redis.call('INCR', key)
  local ttl = redis.call('PTTL', key)
  if count == 1 or ttl < 0 then
    redis.call('PEXPIRE', key, ARGV[1])
    ttl = tonumber(ARGV[1])
  end
  hits[i] = { count, ttl }
end
return hits
`

// The count and time left of a window, in one round trip; a key without expiry reports a whole window (the next hit
// repairs it).
const peekScript = `
local count = redis.call('GET', KEYS[1])
if not count then return { 0, 0 } end
local ttl = redis.call('PTTL', KEYS[1])
if ttl < 0 then ttl = tonumber(ARGV[1]) end
return { tonumber(count), ttl }
`

type RateRedis = RedisClient & {
  rateCounterHit: (key: string, windowMs: number) => Promise<unknown>
  rateCounterHitEach: (keyCount: number, ...keysAndWindow: Array<string | number>) => Promise<unknown>
  rateCounterPeek: (key: string, windowMs: number) => Promise<unknown>
}

export function createRedisRateCounter (options: RedisRateCounterOptions): RateCounter {
  const {
    keyPrefix = 'svc:rl:',
    commandTimeoutMs = 250,
    connectTimeoutMs = 1000,
    connectionName = 'rate-counter'
  } = options
  const client = createRedisClient({ ...options, commandTimeoutMs, connectTimeoutMs, connectionName }) as RateRedis
  client.defineCommand('rateCounterHit', { numberOfKeys: 1, lua: hitScript })
  client.defineCommand('rateCounterPeek', { numberOfKeys: 1, lua: peekScript })
  // The number of keys is the call's first argument.
  client.defineCommand('rateCounterHitEach', { lua: hitEachScript })
  // Each counter's key has its name in braces: one hash slot per counter, so a cluster runs the script on one node.
  const redisKey = (key: string, windowMs: number) => `${keyPrefix}{${key}}:${windowMs}`
  const waitForFirstConnection = initialConnection(client)
  const unavailableOnFailure = <T>(command: () => Promise<T>): Promise<T> => failFast(client, command)

  const counter: RateCounter = {
    name: 'redis',

    async hit (key: string, windowMs: number): Promise<RateHit> {
      assertWindow(windowMs)
      await waitForFirstConnection(commandTimeoutMs)
      return rateHit(await unavailableOnFailure(() => client.rateCounterHit(redisKey(key, windowMs), windowMs)))
    },

    async peek (key: string, windowMs: number): Promise<RateHit> {
      assertWindow(windowMs)
      await waitForFirstConnection(commandTimeoutMs)
      return rateHit(await unavailableOnFailure(() => client.rateCounterPeek(redisKey(key, windowMs), windowMs)))
    },

    async reset (key: string, windowMs: number): Promise<void> {
      assertWindow(windowMs)
      await waitForFirstConnection(commandTimeoutMs)
      await unavailableOnFailure(() => client.del(redisKey(key, windowMs)))
    },

    async ping (): Promise<void> {
      await waitForFirstConnection(connectTimeoutMs)
      await unavailableOnFailure(() => pingRedis(client))
    },

    async close (): Promise<void> {
      await closeRedisClient(client)
    }
  }
  if (client instanceof Cluster) return counter
  return {
    ...counter,
    async hitEach (keys: readonly string[], windowMs: number): Promise<RateHit[]> {
      assertWindow(windowMs)
      await waitForFirstConnection(commandTimeoutMs)
      const reply = await unavailableOnFailure(() => client.rateCounterHitEach(keys.length, ...keys.map((key) => redisKey(key, windowMs)), windowMs))
      if (!Array.isArray(reply) || reply.length !== keys.length) throw new Error(`unexpected rate counter reply: ${JSON.stringify(reply)}`)
      return reply.map(rateHit)
    }
  }
}

function rateHit (reply: unknown): RateHit {
  if (!Array.isArray(reply) || typeof reply[0] !== 'number' || typeof reply[1] !== 'number') {
    throw new Error(`unexpected rate counter reply: ${JSON.stringify(reply)}`)
  }
  return { count: reply[0], resetInMs: reply[1] }
}

function assertWindow (windowMs: number): void {
  if (!Number.isSafeInteger(windowMs) || windowMs <= 0) {
    throw new RangeError(`windowMs must be a positive integer, got ${windowMs}`)
  }
}

// Replies that mean "not now" rather than a fault of the command: a cluster without a master for the slot (CLUSTERDOWN),
// a slot in migration (TRYAGAIN), a replica that lost its master (MASTERDOWN), a node still loading (LOADING).
const unavailableReply = /^(CLUSTERDOWN|TRYAGAIN|MASTERDOWN|LOADING)\b/

/**
 * Connection-level failures and the unavailable replies above become StorageUnavailableError; other errors Redis
 * replied with are left as they are. On a cluster an unavailable reply also asks for a fresh slot map.
 */
async function failFast<T> (client: RedisClient, command: () => Promise<T>): Promise<T> {
  try {
    assertReady(client)
    return await command()
  } catch (error) {
    if (error instanceof ReplyError) {
      if (!unavailableReply.test((error as Error).message)) throw error
      refreshClusterSlots(client)
    }
    throw new StorageUnavailableError('redis rate counter unavailable', { cause: error })
  }
}
