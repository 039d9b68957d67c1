import { randomUUID } from 'node:crypto'
import { setTimeout as sleep } from 'node:timers/promises'
import t from 'tap'
import type { LightMyRequestResponse } from 'fastify'
import { build, STORE_API, waitFor } from '../../helper.ts'
import { untilAnswering } from '../../helpers/rate-counter-backends.ts'
import { rateCounterContract } from '../../helpers/rate-counter-contract.ts'
import { ClusterAdmin, createClusterRateCounter, skipWithoutCluster } from '../../helpers/redis-cluster.ts'
import { SVC_ROUTES } from '../../helpers/routes.ts'
import { asGuest, expectErrorShape, newCartToken, svcInject } from '../../helpers/security.ts'

/**
 * The rate counter on a Redis Cluster (three masters with a replica each, `scripts/redis-cluster.sh`): the same
 * contract as on one Redis, counters spread over the masters, and a master killed while an app answers a limited
 * route: on the bare counter (without the per-instance fallback `createRateCounter` adds) the route fails closed
 * (503) while the master's slots have no server, and counts again once its replica
 * has taken over, with no restart. Runs only where REDIS_CLUSTER_NODES is set (the "redis cluster" step of .ci/run),
 * one file at a time: the failover changes which node is a master.
 */

const skip = skipWithoutCluster()
const minute = 60_000

t.test('redis cluster rate counter: the contract', { skip }, async t => {
  rateCounterContract(t, {
    name: 'redis',
    skip: false,
    shortWindowMs: 200,
    cluster: true,
    create: () => ({ counter: createClusterRateCounter(), elapse: async (ms) => { await sleep(ms) } })
  })
})

t.test('counters spread over the masters, each counter on one', { skip }, async t => {
  const admin = new ClusterAdmin(t)
  const keyPrefix = `test:rl:${randomUUID()}:`
  const counter = createClusterRateCounter({ keyPrefix })
  t.teardown(() => counter.close())
  for (let i = 0; i < 30; i++) {
    await counter.hit(`client-${i}`, minute)
    t.equal((await counter.hit(`client-${i}`, minute)).count, 2)
  }
  const masters = (await admin.nodes()).filter(node => node.role === 'master')
  t.equal(masters.length, 3, 'three masters')
  const holders = await admin.mastersWithKeys(`${keyPrefix}*`)
  t.ok(holders.length >= 2, `30 counters are kept on ${holders.length} masters`)
})

const LIMITED = SVC_ROUTES.find(spec => spec.method === 'POST' && spec.path === '/cart/remove-items')!
const UNLIMITED = SVC_ROUTES.find(spec => spec.method === 'GET' && spec.path === '/cart')!
const CLIENT = '203.0.113.7'

t.test('a master killed mid-run: limited routes fail closed, then count again after the failover', { skip, timeout: 120_000 }, async t => {
  const admin = new ClusterAdmin(t)
  await admin.untilHealthy(30_000)
  const keyPrefix = `test:rl:${randomUUID()}:`
  const counter = createClusterRateCounter({ keyPrefix, onError: () => {} })
  t.teardown(() => counter.close())
  // Limits raised so that the load below is never refused for its count; the counter still counts every request.
  // The counter's time budget is generous: a loaded machine must not turn a slow healthy answer into a 503.
  const app = await build(t, { backend: 'memory', rateCounter: counter, rateLimitMultiplier: 1000, rateCounterTimeoutMs: 2000 })
  await untilAnswering(counter)
  const token = await newCartToken(app)

  // A key of no line: counted, then answered 409 by the route; cheap to repeat.
  const limited = (remoteAddress = CLIENT): Promise<LightMyRequestResponse> =>
    svcInject(app, LIMITED, { headers: asGuest(token), payload: { keys: ['0'.repeat(32)] }, remoteAddress })
  const products = (await app.inject({ method: 'GET', url: `${STORE_API}/products?per_page=100` })).json() as Array<{ id: number, type: string, is_purchasable: boolean, is_in_stock: boolean, sold_individually: boolean }>
  const product = products.find(item => item.type === 'simple' && item.is_purchasable && item.is_in_stock && !item.sold_individually)!
  /** Adds a line through the Store API and removes it through the limited route: its answer. */
  const removeALine = async (): Promise<LightMyRequestResponse> => {
    const added = await app.inject({ method: 'POST', url: `${STORE_API}/cart/add-item`, headers: { 'cart-token': token }, payload: { id: product.id, quantity: 1 } })
    const key = (added.json() as { items: Array<{ key: string }> }).items[0]!.key
    return svcInject(app, LIMITED, { headers: asGuest(token), payload: { keys: [key] }, remoteAddress: CLIENT })
  }
  const counted = (response: LightMyRequestResponse): boolean =>
    response.statusCode !== 503 && response.headers['x-ratelimit-remaining'] !== undefined
  const refused = (response: LightMyRequestResponse): boolean =>
    response.statusCode === 503 && response.json().code === 'svc_rate_limit_unavailable'

  const first = await removeALine()
  t.equal(first.statusCode, 200, 'the limited route answers 200 on the cluster')
  t.ok(counted(first), `…counted (remaining ${String(first.headers['x-ratelimit-remaining'])})`)

  // The master keeping this client's counters (its IP's and its cart's): SCAN on each master finds them.
  const holders = await admin.mastersWithKeys(`${keyPrefix}*`)
  t.ok(holders.length >= 1, 'the counters are on a master')
  const victim = holders[0]!
  const replica = (await admin.nodes()).find(node => node.masterId === victim.id)
  t.ok(replica, `the master on port ${victim.port} has a replica`)
  let restarted = false
  t.teardown(async () => { if (!restarted) await admin.restart(victim).catch(() => {}) })

  // Requests keep coming from many clients while the master goes: each answer must be a count or a fail-closed 503.
  const answers: LightMyRequestResponse[] = []
  const state = { running: true }
  const loops = Array.from({ length: 4 }, async (_, loop) => {
    let n = 0
    while (state.running) {
      answers.push(await limited(`198.51.100.${(loop * 50 + n++ % 50) + 1}`))
      await new Promise(resolve => setImmediate(resolve))
    }
  })
  await waitFor(() => answers.length >= 20, { timeoutMs: 20_000, what: 'load before the fault' })

  await admin.kill(victim)
  const killedAt = performance.now()
  const refusal = await waitFor(async () => {
    const response = await limited()
    return refused(response) ? response : false
  }, { timeoutMs: 10_000, what: 'the limited route refused while the master is gone' })
  t.pass(`killed the master on port ${victim.port}: the limited route answers 503`)
  expectErrorShape(t, refusal, 'the 503')
  t.match(String(refusal.headers['retry-after']), /^[1-9]\d*$/, 'with Retry-After')
  const unlimited = await svcInject(app, UNLIMITED, { headers: asGuest(token), remoteAddress: CLIENT })
  t.equal(unlimited.statusCode, 200, 'a route without a limit still answers 200')

  const recovered = await waitFor(async () => {
    const response = await limited()
    return counted(response) ? response : false
  }, { timeoutMs: 30_000, intervalMs: 50, what: 'the limited route counting again after the failover' })
  t.pass(`the limited route counts again (${recovered.statusCode}) once the replica took over, ${Math.round(performance.now() - killedAt)} ms after the kill`)
  t.equal((await removeALine()).statusCode, 200, 'and answers 200')
  state.running = false
  await Promise.all(loops)

  const unexpected = answers.filter(response => !counted(response) && !refused(response))
  t.same(unexpected.map(response => `${response.statusCode} ${response.body}`).slice(0, 3), [], `each of ${answers.length} answers under load was counted or refused with 503 (${answers.filter(refused).length} refused)`)
  t.ok(answers.some(refused), 'some requests under load were refused during the outage')

  const promoted = (await admin.nodes()).find(node => node.id === replica!.id)
  t.equal(promoted?.role, 'master', `the replica on port ${replica!.port} is a master now`)
  t.equal((await app.inject({ method: 'GET', url: '/readyz' })).statusCode, 200, '/readyz is ready again')

  // The killed node comes back and rejoins as the new master's replica; nothing changes for the app.
  await admin.restart(victim)
  restarted = true
  // It starts as the master its nodes.conf remembers, then learns from the others that it was replaced.
  await waitFor(async () => {
    const [role, , masterPort] = await admin.node(victim.port, victim.host).role() as [string, string?, number?]
    return role === 'slave' && masterPort === replica!.port
  }, { timeoutMs: 30_000, intervalMs: 100, what: `the restarted node on port ${victim.port} a replica of port ${replica!.port}` })
  t.pass(`the restarted node on port ${victim.port} is a replica of the node that took over`)
  await admin.untilHealthy(30_000)
  t.equal((await removeALine()).statusCode, 200, 'the limited route still answers 200')
})
