import { randomUUID } from 'node:crypto'
import type { FastifyInstance } from 'fastify'
import t from 'tap'
import { withCartViewCache } from '../../../storage/cached-storage.ts'
import { createMemoryStorage } from '../../../storage/memory/index.ts'
import { createRedisViewCache } from '../../../storage/redis/index.ts'
import { seedDemoShop } from '../../../seed/seed.ts'
import { build, STORE_API, SVC, waitFor } from '../../helper.ts'
import { ClusterAdmin, clusterNodes, skipWithoutCluster } from '../../helpers/redis-cluster.ts'
import { viewCacheContract } from '../../helpers/view-cache-contract.ts'

/**
 * The cart view cache on a Redis Cluster (`scripts/redis-cluster.sh`): the same contract as on one Redis, and the read
 * path with the master of a cart's views killed: reads answer from the database, writes go on (the cache bypassed) while the
 * slot has no server, and both work again, seeing every write, once the replica has taken over. Runs only where
 * REDIS_CLUSTER_NODES is set (the "redis cluster" step of .ci/run).
 */

const skip = skipWithoutCluster()
const prefix = () => `svc:test:${randomUUID()}:`
const READS = [`${SVC}/cart`, `${STORE_API}/cart`, `${SVC}/drawer-data`] as const

t.test('redis cluster view cache: the contract', { skip }, async (t) =>
  viewCacheContract(t, () => createRedisViewCache({ clusterNodes: clusterNodes(), keyPrefix: prefix(), commandTimeoutMs: 2000 })))

t.test('the master of a cart\'s views killed: reads from the database, writes go on, then all back after the failover', { skip, timeout: 120_000 }, async (t) => {
  const admin = new ClusterAdmin(t)
  await admin.untilHealthy(30_000)
  const keyPrefix = prefix()
  const base = createMemoryStorage()
  await seedDemoShop(base, 'http://shop.test')
  const storage = withCartViewCache(base, createRedisViewCache({ clusterNodes: clusterNodes(), keyPrefix, commandTimeoutMs: 1000, onError: () => {} }))
  t.teardown(() => storage.close())
  const app = await build(t, { storage, seed: false })

  const first = await app.inject({ method: 'GET', url: `${STORE_API}/cart` })
  const token = first.headers['cart-token'] as string
  const key = app.commerce.cartKeyOfToken(token)!
  const write = (app: FastifyInstance, quantity: number, itemKey?: string) => itemKey === undefined
    ? app.inject({ method: 'POST', url: `${STORE_API}/cart/add-item`, headers: { 'cart-token': token }, payload: { id: 101, quantity } })
    : app.inject({ method: 'POST', url: `${STORE_API}/cart/update-item`, headers: { 'cart-token': token }, payload: { key: itemKey, quantity } })
  const added = await write(app, 1)
  t.equal(added.statusCode, 201, 'a line added with the views on the cluster')
  const itemKey = (added.json() as { items: Array<{ key: string }> }).items[0]!.key
  const quantities = async (): Promise<number[]> => Promise.all(READS.map(async (url) => {
    const response = await app.inject({ method: 'GET', url, headers: { 'cart-token': token } })
    if (response.statusCode !== 200) return -response.statusCode
    const body = response.json() as any
    const state = url.endsWith('drawer-data') ? body.cart : body
    return url.startsWith(SVC) ? state.cartItems[0].quantity : state.items[0].quantity
  }))
  await quantities()
  t.same(await quantities(), [1, 1, 1], 'every read answers from the kept views')

  const { master, replica } = await admin.masterOf(`${keyPrefix}{${key}}`)
  t.ok(replica, `the cart's views are on the master on port ${master.port}, which has a replica`)
  let restarted = false
  t.teardown(async () => { if (!restarted) await admin.restart(master).catch(() => {}) })
  await admin.kill(master)

  t.same(await quantities(), [1, 1, 1], 'with that master gone, every read still answers, from the database')
  const during = await write(app, 2, itemKey)
  t.equal(during.statusCode, 200, 'a write goes on while the views\' slot has no server (the cache bypassed)')
  t.same(await quantities(), [2, 2, 2], 'and is seen, from the database')

  const recovered = await waitFor(async () => {
    const response = await write(app, 3, itemKey)
    return response.statusCode === 200 ? response : false
  }, { timeoutMs: 30_000, intervalMs: 100, what: 'a cart write accepted after the failover' })
  t.equal(recovered.statusCode, 200, 'writes are accepted once the replica took over')
  t.same(await quantities(), [3, 3, 3], 'every read sees the write')
  t.same(await quantities(), [3, 3, 3], 'from the kept views too')

  await admin.restart(master)
  restarted = true
  await admin.untilHealthy(30_000)
  t.equal((await write(app, 4, itemKey)).statusCode, 200, 'the killed node back (a replica now): writes go on')
  t.same(await quantities(), [4, 4, 4], 'and are seen')
})
