import Fastify, { type FastifyInstance, type LightMyRequestResponse } from 'fastify'
import { test, type Test } from 'tap'
import { IDEMPOTENCY_LOCK_MS, installIdempotency, type IdempotencyOptions } from '../../../../drawer/plugins/idempotency/index.ts'
import { installErrorHandling, restError } from '../../../../kernel/errors/index.ts'
import { createMemoryIdempotencyStore } from '../../../../storage/memory/index.ts'

/**
 * The mechanism alone (drawer/plugins/idempotency/), on a bare Fastify with routes of the test's own: which routes
 * take a key, what is kept of an answer, a 5xx, a repeat that waits and one that gives up, a key with no identity, a
 * lock that runs out, and refusals of the scope's own rules before the key is claimed.
 */

type Json = Record<string, any>

interface Built {
  app: FastifyInstance
  /** How many times each route's handler ran. */
  runs: Map<string, number>
  /** While set, `/slow` waits for it. */
  gate: { wait: Promise<void> | null }
}

async function buildWith (t: Test, options: Partial<IdempotencyOptions> = {}): Promise<Built> {
  const app = Fastify()
  t.teardown(() => app.close())
  installErrorHandling(app)
  const runs = new Map<string, number>()
  const ran = (name: string) => {
    const count = (runs.get(name) ?? 0) + 1
    runs.set(name, count)
    return count
  }
  const gate: Built['gate'] = { wait: null }
  await app.register(async (scope) => {
    // A rule of the scope's own, as the security plugin's: refused before the route's hooks run.
    scope.addHook('preHandler', async (request) => {
      if (request.headers['x-refuse'] !== undefined) throw restError('svc_forbidden')
    })
    installIdempotency(scope, {
      store: createMemoryIdempotencyStore(),
      identify: (request) => typeof request.headers['x-who'] === 'string' ? `who:${request.headers['x-who']}` : null,
      ...options
    })
    scope.post('/add', { config: { idempotent: true } }, async (request, reply) => {
      const count = ran('add')
      reply.header('Cart-Token', `token-${count}`).header('Location', `/things/${count}`).header('X-Count', String(count))
      return reply.code(201).send({ count, body: request.body })
    })
    scope.post('/plain', async () => ({ count: ran('plain') }))
    scope.post('/flaky', { config: { idempotent: true } }, async () => {
      if (ran('flaky') === 1) throw new Error('the first attempt fails')
      return { ok: true }
    })
    scope.post('/refuse', { config: { idempotent: true } }, async () => {
      throw restError('svc_coupon_invalid', `refusal ${ran('refuse')}`)
    })
    scope.post('/slow', { config: { idempotent: true } }, async () => {
      const count = ran('slow')
      if (gate.wait !== null) await gate.wait
      return { count }
    })
  })
  await app.ready()
  return { app, runs, gate }
}

function post (app: FastifyInstance, path: string, body: Json, headers: Record<string, string>): Promise<LightMyRequestResponse> {
  return app.inject({ method: 'POST', url: path, headers, payload: body })
}

const as = (who: string, key: string) => ({ 'x-who': who, 'idempotency-key': key })

test('installIdempotency', async (t) => {
  t.test('a declared route runs once per key; the repeat gets the status, body and kept headers, not the others', async (t) => {
    const { app, runs } = await buildWith(t)
    const first = await post(app, '/add', { n: 1 }, as('ann', 'k1'))
    t.equal(first.statusCode, 201)
    const again = await post(app, '/add', { n: 1 }, as('ann', 'k1'))
    t.equal(runs.get('add'), 1, 'the handler ran once')
    t.equal(again.statusCode, 201)
    t.equal(again.body, first.body)
    t.same(
      { token: again.headers['cart-token'], location: again.headers.location, type: again.headers['content-type'], replayed: again.headers['idempotent-replayed'] },
      { token: 'token-1', location: '/things/1', type: first.headers['content-type'], replayed: 'true' },
      'Cart-Token, Location and the content type are kept'
    )
    t.equal(again.headers['x-count'], undefined, 'a header of that one answer is not')
    t.equal((await post(app, '/add', { n: 1 }, as('bob', 'k1'))).json().count, 2, 'the same key for someone else runs')
    t.equal((await post(app, '/add', { n: 2 }, as('ann', 'k1'))).json().code, 'svc_idempotency_key_reused', 'another body: 422')
    const other = await app.inject({ method: 'POST', url: '/add?x=1', headers: as('ann', 'k1'), payload: { n: 1 } })
    t.equal(other.statusCode, 422, 'another path')
  })

  t.test('a route that does not declare it, or a request with no identity, ignores the key', async (t) => {
    const { app, runs } = await buildWith(t)
    await post(app, '/plain', {}, as('ann', 'k1'))
    await post(app, '/plain', {}, as('ann', 'k1'))
    t.equal(runs.get('plain'), 2, 'an undeclared route')
    t.equal((await post(app, '/plain', {}, { 'idempotency-key': 'not valid here' })).statusCode, 200, 'not even checked there')
    await post(app, '/add', {}, { 'idempotency-key': 'k2' })
    await post(app, '/add', {}, { 'idempotency-key': 'k2' })
    t.equal(runs.get('add'), 2, 'no identity to scope the key to')
  })

  t.test('a 5xx is not kept; a 4xx is', async (t) => {
    const { app, runs } = await buildWith(t)
    t.equal((await post(app, '/flaky', {}, as('ann', 'k1'))).statusCode, 500)
    const retried = await post(app, '/flaky', {}, as('ann', 'k1'))
    t.equal(retried.statusCode, 200, 'the retry runs')
    t.equal((await post(app, '/flaky', {}, as('ann', 'k1'))).headers['idempotent-replayed'], 'true', 'and its answer is kept')
    t.equal(runs.get('flaky'), 2)
    const refused = await post(app, '/refuse', {}, as('ann', 'k2'))
    t.equal(refused.statusCode, 400)
    const again = await post(app, '/refuse', {}, as('ann', 'k2'))
    t.same([again.statusCode, again.json().message, runs.get('refuse')], [400, 'refusal 1', 1], 'the refusal is answered again, not run again')
  })

  t.test('a refusal of the scope\'s own rules claims nothing: the key runs once the request passes', async (t) => {
    const { app, runs } = await buildWith(t)
    t.equal((await post(app, '/add', {}, { ...as('ann', 'k1'), 'x-refuse': '1' })).statusCode, 403)
    t.equal((await post(app, '/add', {}, as('ann', 'k1'))).statusCode, 201)
    t.equal(runs.get('add'), 1)
  })

  t.test('a repeat waits for the first while it runs, then gets its answer; another body does not wait', async (t) => {
    const { app, runs, gate } = await buildWith(t)
    let open!: () => void
    gate.wait = new Promise((resolve) => { open = resolve })
    const first = post(app, '/slow', { n: 1 }, as('ann', 'k1'))
    while (runs.get('slow') !== 1) await new Promise((resolve) => setImmediate(resolve))
    const repeat = post(app, '/slow', { n: 1 }, as('ann', 'k1'))
    t.equal((await post(app, '/slow', { n: 2 }, as('ann', 'k1'))).statusCode, 422, 'another body: 422 at once')
    setTimeout(open, 200)
    const [answer, repeated] = await Promise.all([first, repeat])
    t.equal(repeated.body, answer.body)
    t.equal(repeated.headers['idempotent-replayed'], 'true')
    t.equal(runs.get('slow'), 1)
  })

  t.test('a repeat that waits longer than waitMs: 409 svc_idempotency_key_in_use with Retry-After', async (t) => {
    const { app, runs, gate } = await buildWith(t, { waitMs: 120 })
    let open!: () => void
    gate.wait = new Promise((resolve) => { open = resolve })
    const first = post(app, '/slow', {}, as('ann', 'k1'))
    while (runs.get('slow') !== 1) await new Promise((resolve) => setImmediate(resolve))
    const busy = await post(app, '/slow', {}, as('ann', 'k1'))
    t.equal(busy.statusCode, 409)
    t.same(busy.json(), { code: 'svc_idempotency_key_in_use', message: busy.json().message, data: { status: 409 } })
    t.equal(busy.headers['retry-after'], '1')
    open()
    await first
    t.equal((await post(app, '/slow', {}, as('ann', 'k1'))).headers['idempotent-replayed'], 'true', 'answered once the first is done')
    t.equal(runs.get('slow'), 1)
  })

  t.test('a request whose lock ran out (its instance stopped) no longer holds the key', async (t) => {
    let offset = 0
    const { app, runs, gate } = await buildWith(t, { now: () => new Date(Date.now() + offset), waitMs: 100 })
    let open!: () => void
    gate.wait = new Promise((resolve) => { open = resolve })
    const stuck = post(app, '/slow', {}, as('ann', 'k1'))
    while (runs.get('slow') !== 1) await new Promise((resolve) => setImmediate(resolve))
    offset = IDEMPOTENCY_LOCK_MS + 1000
    gate.wait = null
    const retry = await post(app, '/slow', {}, as('ann', 'k1'))
    t.same([retry.statusCode, retry.json().count], [200, 2], 'the retry runs')
    open()
    await stuck
    t.equal((await post(app, '/slow', {}, as('ann', 'k1'))).json().count, 2, 'the retry\'s answer is the kept one')
  })

  t.test('routes: a scope serves the declared routes it names', async (t) => {
    const { app, runs } = await buildWith(t, { routes: (url) => url !== '/add' })
    await post(app, '/add', {}, as('ann', 'k1'))
    await post(app, '/add', {}, as('ann', 'k1'))
    t.equal(runs.get('add'), 2)
  })
})
