import { Cluster, Redis } from 'ioredis'
import { parseClusterNodes } from './cluster-nodes.ts'

/** One Redis server or a Redis Cluster: both take the same commands (keys of one command in one hash slot). */
export type RedisClient = Redis | Cluster

export interface RedisConnectionOptions {
  url: string
  commandTimeoutMs: number
  connectTimeoutMs: number
  connectionName?: string
  onError?: (error: Error) => void
}

export interface RedisClusterConnectionOptions extends Omit<RedisConnectionOptions, 'url'> {
  /** Some or all of the cluster's nodes (`host:port`, or redis:// and rediss:// URLs); the rest are discovered. */
  clusterNodes: readonly string[]
}

/** Where a Redis-backed component connects: exactly one of `url` (one server) and `clusterNodes` (a cluster). */
export interface RedisClientOptions extends Omit<RedisConnectionOptions, 'url'> {
  /** One Redis server, e.g. `redis://host:6379`. */
  url?: string
  /** A Redis Cluster: some or all of its nodes (`host:port`, or redis:// and rediss:// URLs). */
  clusterNodes?: readonly string[]
}

// Short enough that limits count again well within a second of Redis returning.
const maxReconnectDelayMs = 500
// A cluster's slot map is also read on this period, in case no command has met the change yet.
const slotsRefreshIntervalMs = 1000
// At most one CLUSTER SLOTS per this many milliseconds when node failures ask for one: each opens a connection.
const slotsRefreshThrottleMs = 100

/**
 * The fail-fast client for any Redis-backed component: one server for `url`, a Redis Cluster for `clusterNodes`.
 * Either way commands reject at once while their server is out of reach and are never resent.
 */
export function createRedisClient (options: RedisClientOptions): RedisClient {
  const { url, clusterNodes, ...connection } = options
  if (clusterNodes !== undefined && url !== undefined) throw new TypeError('give either a Redis url or Redis Cluster nodes, not both')
  if (clusterNodes !== undefined) return createFailFastCluster({ ...connection, clusterNodes })
  if (url === undefined) throw new TypeError('give a Redis url or Redis Cluster nodes')
  return createFailFastClient({ ...connection, url })
}

/**
 * A client that fails fast instead of queueing: commands reject at once while disconnected, in-flight commands
 * reject when the connection drops (never resent), and reconnection keeps going in the background.
 */
export function createFailFastClient (options: RedisConnectionOptions): Redis {
  const client = new Redis(options.url, {
    enableOfflineQueue: false,
    maxRetriesPerRequest: 0,
    autoResendUnfulfilledCommands: false,
    connectTimeout: options.connectTimeoutMs,
    commandTimeout: options.commandTimeoutMs,
    // A half-open connection (peer gone without a FIN) would otherwise time out every command forever.
    socketTimeout: socketTimeoutMs(options),
    retryStrategy: (times) => Math.min(times * 100, maxReconnectDelayMs),
    connectionName: options.connectionName,
    // Commands issued in the same tick (a limited request's per-IP and per-visitor hits) go out in one write.
    enableAutoPipelining: true
  })
  client.on('error', (error: Error) => options.onError?.(error))
  return client
}

/**
 * The same contract on a Redis Cluster. A command for a slot whose master is gone rejects at once (no offline queue,
 * no retry after a closed connection or CLUSTERDOWN: an INCR resent could count twice); MOVED is followed. A lost
 * node, a node error or a refusal for the cluster's state re-reads the slot map (throttled), so commands reach the
 * promoted replica as soon as the cluster names it (and the map is re-read every second regardless). The whole
 * client reconnects in the background if every node was lost; while it is not connected, `assertReady` refuses.
 */
export function createFailFastCluster (options: RedisClusterConnectionOptions): Cluster {
  const { nodes, username, password, tls } = parseClusterNodes(options.clusterNodes)
  const cluster = new Cluster(nodes, {
    enableOfflineQueue: false,
    retryDelayOnFailover: 0,
    retryDelayOnClusterDown: 0,
    // A failover moves a slot once; more hops than this mean the map is still settling, and the caller fails fast.
    maxRedirections: 5,
    slotsRefreshTimeout: options.connectTimeoutMs,
    // ioredis' own periodic refresh re-arms its timer when a refresh is in flight at quit, which then keeps the
    // process alive for good (ioredis 6.0.0); the one below is unref'd and stops with the client.
    slotsRefreshInterval: 0,
    clusterRetryStrategy: (times) => Math.min(times * 100, maxReconnectDelayMs),
    enableAutoPipelining: true,
    redisOptions: {
      maxRetriesPerRequest: 0,
      autoResendUnfulfilledCommands: false,
      connectTimeout: options.connectTimeoutMs,
      commandTimeout: options.commandTimeoutMs,
      socketTimeout: socketTimeoutMs(options),
      connectionName: options.connectionName,
      username,
      password,
      ...(tls ? { tls: {} } : {})
    }
  })
  const refreshSlots = throttled(slotsRefreshThrottleMs, () => {
    if (cluster.status === 'ready') cluster.refreshSlotsCache()
  })
  slotRefreshers.set(cluster, refreshSlots)
  const periodicRefresh = setInterval(refreshSlots, slotsRefreshIntervalMs).unref()
  const stop = (): void => clearInterval(periodicRefresh)
  clusterStops.set(cluster, stop)
  cluster.once('end', stop)
  cluster.on('-node', refreshSlots)
  cluster.on('node error', (error: Error) => {
    refreshSlots()
    options.onError?.(error)
  })
  cluster.on('error', (error: Error) => options.onError?.(error))
  return cluster
}

/**
 * Throws unless a cluster client is connected (status `ready`; it stays so while single nodes come and go). Call it
 * before each command: a cluster that never got its slot map holds auto-pipelined commands until it does, and one
 * that was closed meanwhile never settles them. A no-op for one server, whose disabled offline queue refuses by itself.
 */
export function assertReady (client: RedisClient): void {
  if (client instanceof Cluster && client.status !== 'ready') throw new Error(`Redis Cluster not connected (${client.status})`)
}

/**
 * Asks a cluster client to re-read its slot map soon (throttled); a no-op for one server. Components call it when
 * a command was refused for the cluster's state (CLUSTERDOWN, TRYAGAIN), which no connection event reports.
 */
export function refreshClusterSlots (client: RedisClient): void {
  if (client instanceof Cluster) slotRefreshers.get(client)?.()
}

const slotRefreshers = new WeakMap<Cluster, () => void>()
const clusterStops = new WeakMap<Cluster, () => void>()

/**
 * Resolves once the first connection attempt has settled (ready or failed), or after `ms`. Only the first attempt
 * is waited for, so that requests arriving while the process starts are not refused; later outages fail fast.
 */
export function initialConnection (client: RedisClient): (ms: number) => Promise<void> {
  let settled = false
  const firstAttempt = new Promise<void>(resolve => {
    const done = (): void => {
      settled = true
      client.off('ready', done)
      client.off('close', done)
      resolve()
    }
    client.on('ready', done)
    client.on('close', done)
  })
  return async (ms) => {
    if (settled) return
    let timer: NodeJS.Timeout | undefined
    await Promise.race([firstAttempt, new Promise<void>(resolve => { timer = setTimeout(resolve, ms) })])
    clearTimeout(timer)
  }
}

/**
 * A health check: PING on one server; on a cluster, CLUSTER INFO from one node, which must say `cluster_state:ok`
 * (a cluster that has lost a master with no replica promoted yet refuses the keys of that master's slots).
 */
export async function pingRedis (client: RedisClient): Promise<void> {
  if (!(client instanceof Cluster)) {
    await client.ping()
    return
  }
  const info = String(await client.cluster('INFO'))
  const state = /^cluster_state:(\w+)/m.exec(info)?.[1]
  if (state !== 'ok') throw new Error(`Redis Cluster state is ${state ?? 'unknown'}`)
}

/** Closes a client: QUIT when connected (replies in flight arrive first), else drop the connections. */
export async function closeRedisClient (client: RedisClient): Promise<void> {
  // A cluster closed while reconnecting never reaches `end`: stop its timer here.
  if (client instanceof Cluster) clusterStops.get(client)?.()
  if (client.status === 'end') return
  if (client.status === 'ready') {
    await client.quit().catch(() => client.disconnect())
  } else {
    client.disconnect()
  }
}

function socketTimeoutMs (options: { connectTimeoutMs: number, commandTimeoutMs: number }): number {
  return Math.max(options.connectTimeoutMs, 2 * options.commandTimeoutMs)
}

/** Runs `run` now, or once when `ms` has passed since the last run; calls meanwhile fold into that one. */
function throttled (ms: number, run: () => void): () => void {
  let last = -Infinity
  let timer: NodeJS.Timeout | undefined
  return () => {
    if (timer !== undefined) return
    const wait = last + ms - performance.now()
    if (wait <= 0) {
      last = performance.now()
      run()
      return
    }
    timer = setTimeout(() => {
      timer = undefined
      last = performance.now()
      run()
    }, wait)
    timer.unref()
  }
}
