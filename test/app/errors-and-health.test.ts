import { test } from 'tap'
import { createPostgresStorage } from '../../storage/postgres/index.ts'
import { buildTestApp, STORE_API } from '../helpers/app.ts'
import { createTestPgliteStorage } from '../helpers/pglite.ts'

test('errors always have the WordPress REST shape', async (t) => {
  const storage = await createTestPgliteStorage()
  t.teardown(() => storage.close())
  const app = await buildTestApp(t, storage)

  const unknown = await app.inject({ url: '/wp-json/nothing/here' })
  t.equal(unknown.statusCode, 404)
  t.same(unknown.json(), { code: 'svc_not_found', message: unknown.json().message, data: { status: 404 } })

  const badJson = await app.inject({ method: 'POST', url: `${STORE_API}/cart/add-item`, headers: { 'content-type': 'application/json' }, payload: '{"id": 1,' })
  t.equal(badJson.statusCode, 400)
  t.equal(badJson.json().code, 'rest_invalid_json', 'the Store API answers with WordPress\'s codes')
  t.equal(badJson.json().data.status, 400)

  const invalid = await app.inject({ method: 'POST', url: `${STORE_API}/cart/update-item`, payload: { quantity: 'many' } })
  t.equal(invalid.statusCode, 400)
  t.equal(invalid.json().code, 'rest_invalid_param')
  t.same(Object.keys(invalid.json().data.params).sort(), ['key', 'quantity'], 'every bad field is listed at once')

  const wrongType = await app.inject({ method: 'POST', url: `${STORE_API}/cart/add-item`, headers: { 'content-type': 'text/plain' }, payload: 'id=1' })
  t.equal(wrongType.statusCode, 415)
  t.equal(wrongType.json().code, 'svc_unsupported_media_type')

  const health = await app.inject({ url: '/healthz' })
  t.same(health.json(), { status: 'ok' })
  const ready = await app.inject({ url: '/readyz' })
  t.equal(ready.statusCode, 200)
  t.same(ready.json().checks, { storage: { backend: 'pglite', status: 'ok' }, rate_counter: { backend: 'memory', status: 'ok' } })
})

test('storage out of reach: 503 in the error shape, no Cart-Token, not ready, still alive', async (t) => {
  // A real PostgreSQL client pointed at a port where nothing listens.
  const storage = await createPostgresStorage({ connectionString: 'postgres://postgres@127.0.0.1:1/test', migrate: false, connectionTimeoutMillis: 500 })
  t.teardown(() => storage.close())
  const healthy = await createTestPgliteStorage()
  t.teardown(() => healthy.close())
  const { buildApp } = await import('../../app.ts')
  const { createMemoryRateCounter } = await import('../../storage/memory/index.ts')
  const counter = createMemoryRateCounter()
  const app = await buildApp({ storage, rateCounter: counter, secrets: ['x'.repeat(32)] })
  t.teardown(async () => { await app.close(); await counter.close() })

  for (const request of [
    { method: 'GET' as const, url: `${STORE_API}/cart` },
    // With a Cart-Token (a cookie-session write would need a nonce first): the write reaches the storage.
    { method: 'POST' as const, url: `${STORE_API}/cart/add-item`, payload: { id: 101, quantity: 1 }, headers: { 'cart-token': app.shop.cartTokens.sign(`t_${'0'.repeat(30)}`) } },
    { method: 'GET' as const, url: `${STORE_API}/products` }
  ]) {
    const response = await app.inject(request)
    t.equal(response.statusCode, 503, `${request.method} ${request.url}`)
    t.equal(response.json().code, 'svc_storage_unavailable')
    // A Store API cart answer, errors included, names the visitor's cart (as WooCommerce's); products never do.
    if (request.url.endsWith('/products')) t.notOk(response.headers['cart-token'])
    else t.match(response.headers['cart-token'], /^[\w-]+\.[\w-]+\.[\w-]+$/)
    t.notMatch(response.body, /ECONNREFUSED|127\.0\.0\.1|stack/, 'nothing internal leaks')
  }
  const ready = await app.inject({ url: '/readyz' })
  t.equal(ready.statusCode, 503)
  t.equal(ready.json().checks.storage.status, 'unavailable')
  t.equal((await app.inject({ url: '/healthz' })).statusCode, 200)
})

test('a malformed request gets the error shape on the raw socket too', async (t) => {
  const storage = await createTestPgliteStorage()
  t.teardown(() => storage.close())
  const app = await buildTestApp(t, storage)
  await app.listen({ port: 0, host: '127.0.0.1' })
  const { port } = app.server.address() as { port: number }
  const { connect } = await import('node:net')
  const answer = await new Promise<string>((resolve, reject) => {
    let text = ''
    const socket = connect(port, '127.0.0.1', () => socket.write('GET /wp-json/wc/store/v1/cart HTTP/1.1\r\nHost: x\r\nBad Header\r\n\r\n'))
    socket.on('data', (chunk) => { text += chunk.toString() })
    socket.on('end', () => resolve(text))
    socket.on('error', reject)
  })
  t.match(answer, /^HTTP\/1\.1 400/)
  const body = JSON.parse(answer.slice(answer.indexOf('\r\n\r\n') + 4))
  t.same(body, { code: 'svc_invalid_params', message: 'The request could not be understood.', data: { status: 400 } })
})
