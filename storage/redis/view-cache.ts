import { Cluster } from 'ioredis'
import type { CachedCartView, CartViewCache, WriteVersions } from '../contract/index.ts'
import { assertReady, closeRedisClient, createRedisClient, initialConnection, pingRedis, type RedisClient } from './connection.ts'

export interface RedisViewCacheOptions {
  /** One Redis server (`url`) or a Redis Cluster (`clusterNodes`), as the rate counter's. */
  url?: string
  clusterNodes?: readonly string[]
  /** Must not contain `{` or `}`: the cart key inside the braces is the Redis Cluster hash tag. */
  keyPrefix?: string
  /** How long a cart's views live after their last write or fill (default 10 minutes): bounds Redis' memory. */
  cartTtlMs?: number
  /**
   * How long the known catalog and settings versions live (default 5 s). Writes through the app publish theirs at
   * once; a write that bypasses the app (SQL by hand, another program) is seen within this time.
   */
  versionsTtlMs?: number
  commandTimeoutMs?: number
  connectTimeoutMs?: number
  /** The bytes of views this instance keeps copies of (default 32 MiB; 0: none, every read fetches them). */
  localBytes?: number
  onError?: (error: Error) => void
}

/** A copy of a view's bytes, with the versions the last read that answered it saw. */
interface ViewCopy {
  view: CachedCartView
  versions: WriteVersions | null
}

/** Copies of views' bytes, the least recently stored first out once their characters pass `maxBytes`. */
class ViewCopies {
  readonly #entries = new Map<string, ViewCopy>()
  readonly #maxBytes: number
  #bytes = 0

  constructor (maxBytes: number) {
    this.#maxBytes = maxBytes
  }

  get (key: string, view: string): ViewCopy | undefined {
    return this.#entries.get(`${view} ${key}`)
  }

  set (key: string, view: string, copy: CachedCartView, versions: WriteVersions | null): void {
    if (copy.body.length > this.#maxBytes) return
    const name = `${view} ${key}`
    this.#drop(name)
    this.#entries.set(name, { view: copy, versions })
    this.#bytes += copy.body.length
    for (const [oldest, entry] of this.#entries) {
      if (this.#bytes <= this.#maxBytes) break
      this.#entries.delete(oldest)
      this.#bytes -= entry.view.body.length
    }
  }

  #drop (name: string): void {
    const entry = this.#entries.get(name)
    if (entry === undefined) return
    this.#entries.delete(name)
    this.#bytes -= entry.view.body.length
  }
}

// A view is stored only for a version no write has begun beyond, and never over a newer one.
const fillFunction = `
local function fill (key)
  local state = redis.call('HMGET', key, 'm', 'p')
  local min = tonumber(state[1] or '0')
  local version = tonumber(ARGV[2])
  if version < min or tonumber(state[2] or '0') > 0 then return 0 end
  local current = tonumber(redis.call('HGET', key, 'v:' .. ARGV[1]) or '-1')
  if current > version then return 0 end
  redis.call('HSET', key, 'v:' .. ARGV[1], ARGV[2], 't:' .. ARGV[1], ARGV[3], 'b:' .. ARGV[1], ARGV[4])
  redis.call('PEXPIRE', key, ARGV[5])
  return 1
end
`

const fillScript = `${fillFunction}
return fill(KEYS[1])
`

// The views go and the least version rises: a read that fetched the row before the write cannot store its view.
// Pending writes (`p`) are kept.
const beginCartScript = `
local state = redis.call('HMGET', KEYS[1], 'm', 'p')
local min = tonumber(state[1] or '0')
local next = tonumber(ARGV[1])
if next < min then next = min end
redis.call('DEL', KEYS[1])
redis.call('HSET', KEYS[1], 'm', string.format('%.0f', next), 'p', state[2] or '0')
redis.call('PEXPIRE', KEYS[1], ARGV[2])
return 1
`

// A write whose version is known only after it commits: the views go, and none is answered or stored while `p` > 0.
const beginPendingScript = `
local state = redis.call('HMGET', KEYS[1], 'm', 'p')
redis.call('DEL', KEYS[1])
redis.call('HSET', KEYS[1], 'm', state[1] or '0', 'p', tonumber(state[2] or '0') + 1)
redis.call('PEXPIRE', KEYS[1], ARGV[1])
return 1
`

// Its end: one pending write less, and no view below the written version (ARGV[1]; 0 when nothing was written).
const endPendingScript = `
local state = redis.call('HMGET', KEYS[1], 'm', 'p')
local min = tonumber(state[1] or '0')
local written = tonumber(ARGV[1])
if written > min then min = written end
local pending = tonumber(state[2] or '0') - 1
if pending < 0 then pending = 0 end
redis.call('HSET', KEYS[1], 'm', string.format('%.0f', min), 'p', pending)
redis.call('PEXPIRE', KEYS[1], ARGV[2])
return 1
`

// Versions only grow: whoever publishes older ones (a slow reader, a write that ended late) changes nothing.
const mergeVersions = `
local function raise (key, field, value)
  local current = tonumber(redis.call('HGET', key, field) or '-1')
  if tonumber(value) > current then redis.call('HSET', key, field, value) end
end
`

// Makes the versions known when the cache knows none (a fresh hash has no write under way).
const seedFunction = `${mergeVersions}
local function seed (key, catalog, settings, ttl)
  local fresh = redis.call('EXISTS', key) == 0
  raise(key, 'c', catalog)
  raise(key, 's', settings)
  if fresh then
    redis.call('HSET', key, 'd', 0)
    redis.call('PEXPIRE', key, ttl)
  end
end
`

const seedScript = `${seedFunction}
seed(KEYS[1], ARGV[1], ARGV[2], ARGV[3])
return 1
`

// One round trip and one command for a read on one server (on a cluster the two keys are in different slots, so
// two HMGETs go out side by side instead).
// The bytes are sent only when the instance does not hold them already (ARGV[2], ARGV[3]: the version and stamp of
// its copy); the fourth answer says whether they were (1) or the copy is current (0). When the copy is current, the
// view answerable and the versions the ones the instance last saw with it (ARGV[4], ARGV[5]; empty when it saw none),
// the answer is the integer 0 alone: the read's most common answer, with nothing to send or decode.
const readScript = `
local cart = redis.call('HMGET', KEYS[1], 'm', 'v:' .. ARGV[1], 't:' .. ARGV[1], 'p')
local versions = redis.call('HMGET', KEYS[2], 'c', 's', 'd')
local body = ''
local sent = 1
if cart[4] and tonumber(cart[4]) > 0 then
  sent = 1
elseif cart[2] and cart[2] == ARGV[2] and cart[3] == ARGV[3] then
  if ARGV[4] ~= '' and tonumber(cart[2]) >= tonumber(cart[1] or '0') and versions[1] and versions[2]
    and tonumber(versions[1]) == tonumber(ARGV[4]) and tonumber(versions[2]) == tonumber(ARGV[5])
    and tonumber(versions[3] or '0') <= 0 then
    return 0
  end
  sent = 0
else
  body = redis.call('HGET', KEYS[1], 'b:' .. ARGV[1]) or ''
end
return { cart, versions, body, sent }
`

// A fill and the versions' seed in one call on one server (KEYS[1]: the cart, as fillScript; KEYS[2]: the versions,
// ARGV[6] and ARGV[7] the catalog's and settings', ARGV[8] their time to live, as seedScript).
const fillAndSeedScript = `${fillFunction}${seedFunction}
local filled = fill(KEYS[1])
seed(KEYS[2], ARGV[6], ARGV[7], ARGV[8])
return filled
`

const beginVersionsScript = `
redis.call('HINCRBY', KEYS[1], 'd', 1)
redis.call('PEXPIRE', KEYS[1], ARGV[1])
return 1
`

const endVersionsScript = `${mergeVersions}
raise(KEYS[1], 'c', ARGV[1])
raise(KEYS[1], 's', ARGV[2])
if redis.call('HINCRBY', KEYS[1], 'd', -1) < 0 then redis.call('HSET', KEYS[1], 'd', 0) end
redis.call('PEXPIRE', KEYS[1], ARGV[3])
return 1
`

type ViewRedis = RedisClient & {
  svcViewRead: (cartKey: string, versionsKey: string, view: string, version: string, stamp: string, catalog: string,
    settings: string) => Promise<[Array<string | null>, Array<string | null>, string, number] | 0>
  svcViewFill: (key: string, view: string, version: number, stamp: string, body: string, ttl: number) => Promise<unknown>
  svcViewFillAndSeed: (key: string, versionsKey: string, view: string, version: number, stamp: string, body: string, ttl: number,
    catalog: number, settings: number, versionsTtl: number) => Promise<unknown>
  svcViewBeginCart: (key: string, next: number, ttl: number) => Promise<unknown>
  svcViewBeginPending: (key: string, ttl: number) => Promise<unknown>
  svcViewEndPending: (key: string, written: number, ttl: number) => Promise<unknown>
  svcViewSeed: (key: string, catalog: number, settings: number, ttl: number) => Promise<unknown>
  svcViewBeginVersions: (key: string, ttl: number) => Promise<unknown>
  svcViewEndVersions: (key: string, catalog: number, settings: number, ttl: number) => Promise<unknown>
}

/**
 * Cart views in Redis, shared by every instance. A cart's views are one hash (`m`, the least version a view may have;
 * `v:`, `t:` and `b:` per view: its version, stamp and bytes), the versions another (`c`, `s`, and `d`, the catalog
 * or settings writes under way). A read is one script reading both hashes (two HMGETs side by side on a cluster).
 */
export function createRedisViewCache (options: RedisViewCacheOptions): CartViewCache {
  const {
    keyPrefix = 'svc:view:',
    cartTtlMs = 10 * 60_000,
    versionsTtlMs = 5000,
    commandTimeoutMs = 250,
    connectTimeoutMs = 1000,
    localBytes = 32 * 1024 * 1024
  } = options
  const client = createRedisClient({
    ...(options.url === undefined ? {} : { url: options.url }),
    ...(options.clusterNodes === undefined ? {} : { clusterNodes: options.clusterNodes }),
    commandTimeoutMs,
    connectTimeoutMs,
    connectionName: 'view-cache',
    ...(options.onError === undefined ? {} : { onError: options.onError })
  }) as ViewRedis
  client.defineCommand('svcViewRead', { numberOfKeys: 2, lua: readScript })
  client.defineCommand('svcViewFill', { numberOfKeys: 1, lua: fillScript })
  client.defineCommand('svcViewFillAndSeed', { numberOfKeys: 2, lua: fillAndSeedScript })
  client.defineCommand('svcViewBeginCart', { numberOfKeys: 1, lua: beginCartScript })
  client.defineCommand('svcViewBeginPending', { numberOfKeys: 1, lua: beginPendingScript })
  client.defineCommand('svcViewEndPending', { numberOfKeys: 1, lua: endPendingScript })
  client.defineCommand('svcViewSeed', { numberOfKeys: 1, lua: seedScript })
  client.defineCommand('svcViewBeginVersions', { numberOfKeys: 1, lua: beginVersionsScript })
  client.defineCommand('svcViewEndVersions', { numberOfKeys: 1, lua: endVersionsScript })
  const cluster = client instanceof Cluster
  // This instance's copies of views' bytes: Redis still answers every read's version and stamp, and sends the bytes
  // only when the copy is not theirs. Bounded by their size.
  const copies = new ViewCopies(localBytes)
  const cartKey = (key: string) => `${keyPrefix}{${key}}`
  const versionsKey = `${keyPrefix}versions`
  const waitForFirstConnection = initialConnection(client)
  // A write may begin only once the cache is reachable: waiting for the first connection keeps a starting instance
  // from refusing its first writes.
  let settled = false
  const ready = async (): Promise<void> => {
    await waitForFirstConnection(connectTimeoutMs)
    settled = true
    assertReady(client)
  }

  return {
    name: 'redis',

    async read (key, view) {
      // Once the first connection has settled, no promise is made for it on the hot path.
      if (settled) assertReady(client)
      else await ready()
      if (cluster) {
        const [cart, versions] = await Promise.all([
          client.hmget(cartKey(key), 'm', `v:${view}`, `t:${view}`, `b:${view}`, 'p'),
          client.hmget(versionsKey, 'c', 's', 'd')
        ])
        return { view: cachedView(cart), versions: knownVersions(versions) }
      }
      const held = copies.get(key, view)
      const seen = held?.versions ?? null
      const answer = await client.svcViewRead(cartKey(key), versionsKey, view, held === undefined ? '' : String(held.view.version),
        held?.view.stamp ?? '', seen === null ? '' : String(seen.catalogVersion), seen === null ? '' : String(seen.settingsVersion))
      // The copy is current and the versions are the ones it was last answered with: Redis said so with one integer.
      if (answer === 0 && held !== undefined) return { view: held.view, versions: held.versions }
      if (answer === 0) throw new Error('the view cache answered a copy this instance does not hold')
      const [[min, version, stamp, pending], versionsRead, body, sent] = answer
      const bytes = sent === 1 ? (body === '' ? null : body) : held?.view.body ?? null
      const found = cachedView([min ?? null, version ?? null, stamp ?? null, bytes, pending ?? null])
      const versions = knownVersions(versionsRead)
      if (found !== null) copies.set(key, view, sent === 1 ? found : held!.view, versions)
      return { view: found, versions }
    },

    async fill (key, view, cached, versions) {
      await ready()
      // On one server the versions are seeded by the same script; on a cluster their key is in another slot.
      const filled = versions === undefined || cluster
        ? (await Promise.all([
            client.svcViewFill(cartKey(key), view, cached.version, cached.stamp, cached.body, cartTtlMs),
            versions === undefined ? undefined : client.svcViewSeed(versionsKey, versions.catalogVersion, versions.settingsVersion, versionsTtlMs)
          ]))[0]
        : await client.svcViewFillAndSeed(cartKey(key), versionsKey, view, cached.version, cached.stamp, cached.body, cartTtlMs,
          versions.catalogVersion, versions.settingsVersion, versionsTtlMs)
      if (filled === 1) copies.set(key, view, cached, versions ?? null)
    },

    async seedVersions (versions) {
      await ready()
      await client.svcViewSeed(versionsKey, versions.catalogVersion, versions.settingsVersion, versionsTtlMs)
    },

    async beginCartWrite (key, nextVersion) {
      await ready()
      await client.svcViewBeginCart(cartKey(key), nextVersion, cartTtlMs)
    },

    async beginPendingCartWrite (key) {
      await ready()
      await client.svcViewBeginPending(cartKey(key), cartTtlMs)
    },

    async endPendingCartWrite (key, writtenVersion) {
      await ready()
      await client.svcViewEndPending(cartKey(key), writtenVersion, cartTtlMs)
    },

    async beginVersionsWrite () {
      await ready()
      await client.svcViewBeginVersions(versionsKey, versionsTtlMs)
    },

    async endVersionsWrite (versions) {
      await ready()
      await client.svcViewEndVersions(versionsKey, versions.catalogVersion, versions.settingsVersion, versionsTtlMs)
    },

    async ping () {
      await ready()
      await pingRedis(client)
    },

    async close () {
      await closeRedisClient(client)
    }
  }
}

function cachedView ([min, version, stamp, body, pending]: Array<string | null>): CachedCartView | null {
  if (version == null || stamp == null || body == null || Number(pending ?? 0) > 0) return null
  const at = Number(version)
  return at >= Number(min ?? 0) ? { body, stamp, version: at } : null
}

function knownVersions ([catalog, settings, writing]: Array<string | null>): WriteVersions | null {
  if (catalog == null || settings == null || Number(writing ?? 0) > 0) return null
  return { catalogVersion: Number(catalog), settingsVersion: Number(settings) }
}
