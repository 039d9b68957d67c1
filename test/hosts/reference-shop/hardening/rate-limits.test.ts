import type { FastifyInstance, InjectOptions, LightMyRequestResponse } from 'fastify'
import { test, type Test } from 'tap'
import { SHOP_RATE_LIMITS } from '../../../../hosts/reference-shop/index.ts'
import { perHour, perMinute } from '../../../../drawer/index.ts'
import { createMemoryRateCounter } from '../../../../storage/memory/index.ts'
import type { Storage } from '../../../../storage/contract/index.ts'
import { build, buildPlatform, createStorage, STORE_API } from '../../../helper.ts'

/**
 * The Store API's rate limits (hosts/reference-shop/store-api/rate-limits.ts): coupon guessing per cart and per IP, checkout,
 * and starting carts per IP (IPv6 per /64), answered as svc/v1 answers (X-RateLimit-* headers, 429 with Retry-After
 * in the WordPress shape), refused before anything changes; none without a rate counter.
 */

type Json = Record<string, any>

interface Call { token?: string, ip?: string, cookie?: string }

async function post (app: FastifyInstance, path: string, body: Json, { token, ip = '203.0.113.7', cookie }: Call = {}): Promise<LightMyRequestResponse> {
  const options: InjectOptions = {
    method: 'POST',
    url: `${STORE_API}/${path}`,
    remoteAddress: ip,
    headers: { ...(token ? { 'cart-token': token } : {}), ...(cookie ? { cookie } : {}) },
    payload: body
  }
  return app.inject(options)
}

/** A guest's Cart-Token for a cart that holds one Beanie (stored, so later writes do not start a cart). */
async function guestCart (app: FastifyInstance, ip = '203.0.113.7'): Promise<string> {
  const first = await app.inject({ method: 'GET', url: `${STORE_API}/cart`, remoteAddress: ip })
  const token = first.headers['cart-token'] as string
  const added = await post(app, 'cart/add-item', { id: 101, quantity: 1 }, { token, ip })
  if (added.statusCode !== 201) throw new Error(`add-item: ${added.statusCode} ${added.body}`)
  return token
}

async function couponsOf (app: FastifyInstance, token: string): Promise<string[]> {
  const cart = await app.inject({ method: 'GET', url: `${STORE_API}/cart`, headers: { 'cart-token': token } })
  return (cart.json().coupons as Json[]).map((coupon) => coupon.code)
}

function isRefusal (t: Test, response: LightMyRequestResponse, limit: number): void {
  t.equal(response.statusCode, 429, 'refused with 429')
  t.same(response.json(), { code: 'svc_rate_limit_exhausted', message: 'Too many requests. Please try again later.', data: { status: 429 } }, 'in the WordPress error shape')
  t.match(response.headers['retry-after'], /^[1-9][0-9]*$/, 'with Retry-After in whole seconds')
  t.equal(response.headers['x-ratelimit-limit'], String(limit), 'X-RateLimit-Limit')
  t.equal(response.headers['x-ratelimit-remaining'], '0', 'X-RateLimit-Remaining 0')
}

/** Guest carts stored now: a purge at an instant far ahead deletes (and counts) every one of them. */
async function guestCartCount (storage: Storage): Promise<number> {
  return storage.purgeGuestCarts(new Date(Date.now() + 365 * 24 * 3600_000).toISOString(), 100_000)
}

test('coupon attempts are limited per cart, failures included; a refused one changes nothing', async (t) => {
  const app = await build(t, { backend: 'memory' })
  const token = await guestCart(app)
  const perCart = SHOP_RATE_LIMITS.coupon.perCart[0]!.max
  for (let attempt = 1; attempt <= perCart; attempt++) {
    const guess = await post(app, 'cart/apply-coupon', { code: `guess-${attempt}` }, { token })
    t.equal(guess.statusCode, 400, `guess ${attempt}: an unknown coupon`)
    t.equal(guess.headers['x-ratelimit-limit'], String(perCart), `guess ${attempt}: X-RateLimit-Limit`)
    t.equal(guess.headers['x-ratelimit-remaining'], String(perCart - attempt), `guess ${attempt}: X-RateLimit-Remaining`)
  }
  const refused = await post(app, 'cart/apply-coupon', { code: 'save10' }, { token })
  isRefusal(t, refused, perCart)
  t.same(await couponsOf(app, token), [], 'the valid coupon sent past the limit was not applied')

  const fromElsewhere = await post(app, 'cart/apply-coupon', { code: 'save10' }, { token, ip: '198.51.100.9' })
  t.equal(fromElsewhere.statusCode, 429, 'the same cart from another address is still refused (per cart)')
  const otherCart = await guestCart(app)
  const applied = await post(app, 'cart/apply-coupon', { code: 'save10' }, { token: otherCart })
  t.equal(applied.statusCode, 200, 'another cart from the same address may still apply a coupon')
  t.same(await couponsOf(app, otherCart), ['save10'])
})

test('coupon attempts are limited per client IP across carts, IPv6 per /64; other routes are not limited', async (t) => {
  const app = await build(t, { backend: 'memory', storeApiRateLimits: { coupon: { perIp: [perMinute(3)], perCart: [perMinute(100)] } } })
  const ip = '2001:db8:1:2::10'
  const carts = [await guestCart(app, ip), await guestCart(app, ip), await guestCart(app, ip), await guestCart(app, ip)]
  for (const [index, token] of carts.slice(0, 3).entries()) {
    t.equal((await post(app, 'cart/apply-coupon', { code: 'nope' }, { token, ip })).statusCode, 400, `cart ${index + 1}: counted`)
  }
  isRefusal(t, await post(app, 'cart/apply-coupon', { code: 'save10' }, { token: carts[3], ip: '2001:db8:1:2:ffff:1:2:3' }), 3)
  t.same(await couponsOf(app, carts[3]!), [], 'nothing applied')
  const otherNetwork = await post(app, 'cart/apply-coupon', { code: 'save10' }, { token: carts[3], ip: '2001:db8:1:3::10' })
  t.equal(otherNetwork.statusCode, 200, 'another /64 has its own count')

  const added = await post(app, 'cart/add-item', { id: 103, quantity: 1 }, { token: carts[0], ip })
  t.equal(added.statusCode, 201, 'adding items to a stored cart is not limited')
  t.equal(added.headers['x-ratelimit-limit'], undefined, 'and carries no rate-limit header')
})

test('coupon counts per hour as well as per minute', async (t) => {
  const app = await build(t, { backend: 'memory', storeApiRateLimits: { coupon: { perIp: [perMinute(100), perHour(2)], perCart: [] } } })
  const token = await guestCart(app)
  await post(app, 'cart/apply-coupon', { code: 'nope' }, { token })
  const second = await post(app, 'cart/apply-coupon', { code: 'nope' }, { token })
  t.equal(second.headers['x-ratelimit-limit'], '2', 'the headers tell the tighter window')
  isRefusal(t, await post(app, 'cart/apply-coupon', { code: 'save10' }, { token }), 2)
})

test('writes that start a cart are limited per client IP; the refused one stores no cart', async (t) => {
  const storage = await createStorage(t, { backend: 'memory' })
  const max = 4
  const app = await build(t, { storage, seed: false, storeApiRateLimits: { newCart: { perIp: [perHour(max)], perCart: [] } } })
  t.equal(await guestCartCount(storage), 0)
  const ip = '192.0.2.44'
  for (let started = 1; started <= max; started++) {
    // A token from GET cart names a cart that is not stored yet: its first write starts it.
    const token = (await app.inject({ method: 'GET', url: `${STORE_API}/cart`, remoteAddress: ip })).headers['cart-token'] as string
    const response = await post(app, 'cart/add-item', { id: 101, quantity: 1 }, { token, ip })
    t.equal(response.statusCode, 201, `cart ${started} started`)
    t.equal(response.headers['x-ratelimit-remaining'], String(max - started), `cart ${started}: X-RateLimit-Remaining`)
    t.equal((await post(app, 'cart/add-item', { id: 103, quantity: 1 }, { token, ip })).headers['x-ratelimit-limit'], undefined,
      `cart ${started}: a second write to the stored cart is not counted`)
  }
  const token = (await app.inject({ method: 'GET', url: `${STORE_API}/cart`, remoteAddress: ip })).headers['cart-token'] as string
  isRefusal(t, await post(app, 'cart/add-item', { id: 101, quantity: 1 }, { token, ip }), max)
  isRefusal(t, await post(app, 'cart/add-item', { id: 101, quantity: 1 }, { ip }), max)
  const cookie = (await app.inject({ method: 'GET', url: `${STORE_API}/cart`, remoteAddress: ip })).cookies.find((entry) => entry.name === 'svc_cart')
  if (cookie !== undefined) {
    isRefusal(t, await post(app, 'cart/add-item', { id: 101, quantity: 1 }, { ip, cookie: `svc_cart=${cookie.value}` }), max)
  }
  t.equal(await guestCartCount(storage), max, 'only the carts started within the limit were stored')
  const elsewhere = await app.inject({ method: 'GET', url: `${STORE_API}/cart`, remoteAddress: '192.0.2.45' })
  const response = await post(app, 'cart/add-item', { id: 101, quantity: 1 }, { token: elsewhere.headers['cart-token'] as string, ip: '192.0.2.45' })
  t.equal(response.statusCode, 201, 'another address starts its own carts')
})

test('the client IP is found as svc/v1 finds it: X-Forwarded-For counts only from a trusted proxy', async (t) => {
  const app = await build(t, { backend: 'memory', trustedProxyCidrs: ['10.0.0.0/8'], storeApiRateLimits: { coupon: { perIp: [perMinute(1)], perCart: [] } } })
  const token = await guestCart(app)
  const viaProxy = (client: string, proxy = '10.1.2.3') => app.inject({
    method: 'POST', url: `${STORE_API}/cart/apply-coupon`, remoteAddress: proxy, headers: { 'cart-token': token, 'x-forwarded-for': client }, payload: { code: 'nope' }
  })
  t.equal((await viaProxy('198.51.100.1')).statusCode, 400, 'first client through the proxy')
  t.equal((await viaProxy('198.51.100.2')).statusCode, 400, 'another client through the same proxy has its own count')
  t.equal((await viaProxy('198.51.100.1')).statusCode, 429, 'the first client again is refused')
  t.equal((await viaProxy('198.51.100.3', '203.0.113.50')).statusCode, 400, 'an untrusted peer is counted by its own address')
  t.equal((await viaProxy('198.51.100.4', '203.0.113.50')).statusCode, 429, 'whatever X-Forwarded-For it sends')
})

test('checkout is limited per cart and per IP', async (t) => {
  const app = await build(t, { backend: 'memory', storeApiRateLimits: { checkout: { perIp: [perMinute(5)], perCart: [perMinute(2)] } } })
  const probe = await post(app, 'checkout', {}, { token: await guestCart(app) })
  if (probe.statusCode === 404) {
    t.comment('no POST checkout route yet')
    return
  }
  const token = await guestCart(app)
  for (let attempt = 1; attempt <= 2; attempt++) {
    t.not((await post(app, 'checkout', { payment_method: 'nope' }, { token })).statusCode, 429, `attempt ${attempt} counted`)
  }
  isRefusal(t, await post(app, 'checkout', { payment_method: 'nope' }, { token }), 2)
  const other = await guestCart(app)
  t.not((await post(app, 'checkout', { payment_method: 'nope' }, { token: other })).statusCode, 429, 'another cart from the address')
  t.equal((await post(app, 'checkout', { payment_method: 'nope' }, { token: await guestCart(app) })).statusCode, 429, 'past five from the address')
})

// A counter without a fallback (server.ts gives Redis one: test/app/rate-counter-fallback.test.ts).
test('a counter without a fallback whose store fails refuses limited requests with 503 and applies nothing', async (t) => {
  const counter = createMemoryRateCounter()
  t.teardown(() => counter.close())
  let failing = false
  const flaky = Object.assign(Object.create(counter), {
    hit: (key: string, windowMs: number) => failing ? Promise.reject(new Error('down')) : counter.hit(key, windowMs)
  })
  const app = await build(t, { backend: 'memory', rateCounter: flaky })
  const token = await guestCart(app)
  failing = true
  const refused = await post(app, 'cart/apply-coupon', { code: 'save10' }, { token })
  t.equal(refused.statusCode, 503)
  t.equal(refused.json().code, 'svc_rate_limit_unavailable')
  t.equal(refused.headers['retry-after'], '1')
  t.same(await couponsOf(app, token), [], 'not applied')
})

test('without a rate counter the shop limits nothing', async (t) => {
  const { app } = await buildPlatform(t, { backend: 'memory' })
  await app.ready()
  const token = await guestCart(app)
  const limit = SHOP_RATE_LIMITS.coupon.perCart[0]!.max
  for (let attempt = 1; attempt <= limit + 2; attempt++) {
    const guess = await post(app, 'cart/apply-coupon', { code: `guess-${attempt}` }, { token })
    if (guess.statusCode !== 400) t.fail(`guess ${attempt}: ${guess.statusCode}`)
    if (guess.headers['x-ratelimit-limit'] !== undefined) t.fail(`guess ${attempt} was counted`)
  }
  t.pass(`${limit + 2} guesses, none counted`)
})
