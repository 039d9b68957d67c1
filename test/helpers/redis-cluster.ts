import { execFile } from 'node:child_process'
import { randomUUID } from 'node:crypto'
import { fileURLToPath } from 'node:url'
import { promisify } from 'node:util'
import { Redis } from 'ioredis'
import type { Test } from 'tap'
import { parseClusterNodes } from '../../storage/redis/index.ts'
import { closeRedisClient, createRedisClient, pingRedis } from '../../storage/redis/index.ts'
import type { RedisClient, RedisClientOptions } from '../../storage/redis/index.ts'
import { createRedisRateCounter } from '../../storage/redis/index.ts'
import type { RedisRateCounterOptions } from '../../storage/redis/index.ts'
import type { RateCounter } from '../../storage/contract/index.ts'
import { waitFor } from '../helper.ts'

/**
 * Tests against a local Redis Cluster (`scripts/redis-cluster.sh start`), found through REDIS_CLUSTER_NODES. Unlike
 * DATABASE_URL and REDIS_URL, the variable is not required under CI=true: only the "redis cluster" step of .ci/run
 * starts a cluster and sets it, and outside that step these tests are skipped with a reason.
 */
const SCRIPT = fileURLToPath(new URL('../../scripts/redis-cluster.sh', import.meta.url))

/** The reason to skip a cluster test, or false when REDIS_CLUSTER_NODES is set: pass it as the test's `skip`. */
export function skipWithoutCluster (): string | false {
  if (clusterNodesFromEnv().length > 0) return false
  return 'REDIS_CLUSTER_NODES is not set: Redis Cluster tests skipped (start one with scripts/redis-cluster.sh start; .ci/run does)'
}

/** The nodes REDIS_CLUSTER_NODES names; throws when it is unset (pass `skipWithoutCluster()` as `skip`). */
export function clusterNodes (): string[] {
  const nodes = clusterNodesFromEnv()
  if (nodes.length === 0) throw new Error('REDIS_CLUSTER_NODES is not set: this test needs a Redis Cluster and should be skipped without it (skipWithoutCluster())')
  return nodes
}

function clusterNodesFromEnv (): string[] {
  return (process.env.REDIS_CLUSTER_NODES ?? '').split(',').map(entry => entry.trim()).filter(Boolean)
}

/**
 * A fail-fast cluster client (`createRedisClient`, as the app makes them) that has answered once, closed at the
 * end of the test. The timeouts are generous: a busy test machine can stall the event loop past production's.
 */
export async function connectedClusterClient (t: Test, options: Partial<RedisClientOptions> = {}): Promise<RedisClient> {
  const client = createRedisClient({
    commandTimeoutMs: 2000,
    connectTimeoutMs: 2000,
    onError: () => {},
    ...options,
    url: undefined,
    clusterNodes: clusterNodes()
  })
  t.teardown(() => closeRedisClient(client))
  await waitFor(async () => { await pingRedis(client); return true }, { timeoutMs: 15_000, what: 'the Redis Cluster answering' })
  return client
}

/** A rate counter on the cluster under a key prefix of its own, so parallel tests never collide. */
export function createClusterRateCounter (options: Partial<RedisRateCounterOptions> = {}): RateCounter {
  return createRedisRateCounter({ keyPrefix: `test:rl:${randomUUID()}:`, commandTimeoutMs: 2000, ...options, url: undefined, clusterNodes: clusterNodes() })
}

export interface ClusterNode {
  id: string
  host: string
  port: number
  role: 'master' | 'replica'
  /** A replica's master. */
  masterId: string | null
  /** The node is marked failing (or possibly failing) by the node asked. */
  failing: boolean
}

/**
 * Direct connections to single nodes, for looking at the cluster and breaking it: CLUSTER NODES, CLUSTER KEYSLOT,
 * SCAN on one master, SHUTDOWN. Closed at the end of the test.
 */
export class ClusterAdmin {
  private readonly connections = new Map<string, Redis>()
  private readonly seeds: Array<{ host: string, port: number }>

  constructor (t: Test) {
    this.seeds = parseClusterNodes(clusterNodes()).nodes
    t.teardown(() => { for (const connection of this.connections.values()) connection.disconnect() })
  }

  /** A connection to one node (made once, no retries: a dead node's commands reject). */
  node (port: number, host = '127.0.0.1'): Redis {
    const key = `${host}:${port}`
    let connection = this.connections.get(key)
    if (connection === undefined || connection.status === 'end') {
      connection = new Redis({ host, port, lazyConnect: true, enableOfflineQueue: true, maxRetriesPerRequest: 0, retryStrategy: () => null, connectTimeout: 2000 })
      connection.on('error', () => {})
      this.connections.set(key, connection)
    }
    return connection
  }

  /** The cluster as the first node that answers sees it. */
  async nodes (): Promise<ClusterNode[]> {
    let lastError: unknown
    for (const seed of this.seeds) {
      try {
        return parseClusterNodesReply(String(await this.node(seed.port, seed.host).cluster('NODES')))
      } catch (error) {
        lastError = error
      }
    }
    throw new Error('no node of the cluster answers', { cause: lastError })
  }

  /** The master serving the slot of `key` (hash tags count), with its replica. */
  async masterOf (key: string): Promise<{ master: ClusterNode, replica: ClusterNode | undefined }> {
    const seed = this.seeds[0]!
    const slot = Number(await this.node(seed.port, seed.host).cluster('KEYSLOT', key))
    const ranges = await this.node(seed.port, seed.host).cluster('SLOTS')
    const range = ranges.find(([from, to]) => slot >= from && slot <= to)
    if (range === undefined) throw new Error(`no master serves slot ${slot}`)
    const nodes = await this.nodes()
    const master = nodes.find(node => node.id === range[2]?.[2])
    if (master === undefined) throw new Error(`the master of slot ${slot} is not in CLUSTER NODES`)
    return { master, replica: nodes.find(node => node.masterId === master.id) }
  }

  /** The masters holding keys that match `pattern` (SCAN on each master). */
  async mastersWithKeys (pattern: string): Promise<ClusterNode[]> {
    const found: ClusterNode[] = []
    for (const candidate of await this.nodes()) {
      if (candidate.role !== 'master' || candidate.failing) continue
      const [, keys] = await this.node(candidate.port, candidate.host).scan('0', 'MATCH', pattern, 'COUNT', 1000)
      if (keys.length > 0) found.push(candidate)
    }
    return found
  }

  /** Stops a node at once, without saving: like a crash, as far as the cluster can tell. */
  async kill (node: ClusterNode): Promise<void> {
    await this.node(node.port, node.host).call('SHUTDOWN', 'NOSAVE').catch(() => {})
    await waitFor(async () => {
      const probe = new Redis({ host: node.host, port: node.port, lazyConnect: true, retryStrategy: () => null, maxRetriesPerRequest: 0 })
      probe.on('error', () => {})
      try {
        await probe.connect()
        return false
      } catch {
        return true
      } finally {
        probe.disconnect()
      }
    }, { timeoutMs: 10_000, what: `node ${node.port} gone` })
  }

  /** Starts a killed node again with the script; it rejoins from its nodes.conf (as a replica after a failover). */
  async restart (node: ClusterNode): Promise<void> {
    const basePort = Math.min(...this.seeds.map(seed => seed.port))
    await promisify(execFile)('bash', [SCRIPT, 'start-node', String(node.port)], {
      env: { ...process.env, REDIS_CLUSTER_BASE_PORT: process.env.REDIS_CLUSTER_BASE_PORT ?? String(basePort) }
    })
  }

  /** Waits until every node says cluster_state:ok and knows all the others as healthy. */
  async untilHealthy (timeoutMs: number): Promise<void> {
    await waitFor(async () => {
      const nodes = await this.nodes()
      if (nodes.some(node => node.failing)) return false
      for (const node of nodes) {
        const info = String(await this.node(node.port, node.host).cluster('INFO'))
        if (!/^cluster_state:ok/m.test(info)) return false
      }
      return true
    }, { timeoutMs, intervalMs: 100, what: 'the Redis Cluster healthy (cluster_state:ok everywhere, no failing node)' })
  }
}

/** Lines of CLUSTER NODES: `<id> <ip:port@cport> <flags> <master> <ping> <pong> <epoch> <link> <slot>...`. */
function parseClusterNodesReply (reply: string): ClusterNode[] {
  return reply.trim().split('\n').map(line => {
    const [id, address, flags, master] = line.trim().split(' ')
    const hostPort = address!.split('@')[0]!
    const colon = hostPort.lastIndexOf(':')
    const flagList = flags!.split(',')
    return {
      id: id!,
      host: hostPort.slice(0, colon),
      port: Number(hostPort.slice(colon + 1)),
      role: flagList.includes('master') ? 'master' : 'replica',
      masterId: master === '-' ? null : master!,
      failing: flagList.includes('fail') || flagList.includes('fail?')
    }
  })
}
