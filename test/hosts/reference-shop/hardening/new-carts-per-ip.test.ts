import type { FastifyInstance, LightMyRequestResponse } from 'fastify'
import { test, type Test } from 'tap'
import { perHour } from '../../../../drawer/index.ts'
import { createMemoryRateCounter } from '../../../../storage/memory/index.ts'
import { STORE_API } from '../../../helpers/app.ts'
import { buildSecurityApp, cartKeyOf, createSecurityStorage, expectErrorShape, HOUR, newCartToken, SVC } from '../../../helpers/security.ts'

/**
 * A Cart-Token — the per-visitor key of the `svc/v1` limits — costs one `GET` to renew, and a
 * `svc/v1` write with a fresh one started a stored cart outside the Store API's limit on new carts. The drawer's
 * writes that start a cart now count against the same `newCart` limit per client (IPv6 per /64), so rotating
 * visitors buys no more carts, nor more requests, than the Store API allows.
 */

const NEW_CARTS = 3

function svcWrite (app: FastifyInstance, token: string, ip: string): Promise<LightMyRequestResponse> {
  return app.inject({ method: 'POST', url: `${SVC}/recommendations/add`, remoteAddress: ip, headers: { 'cart-token': token }, payload: { product_id: 102 } })
}

function storeApiAdd (app: FastifyInstance, ip: string, token?: string): Promise<LightMyRequestResponse> {
  return app.inject({ method: 'POST', url: `${STORE_API}/cart/add-item`, remoteAddress: ip, headers: token === undefined ? {} : { 'cart-token': token }, payload: { id: 101, quantity: 1 } })
}

function expectNotLimited (t: Test, response: LightMyRequestResponse, what: string): void {
  t.ok(response.statusCode < 400 || !['svc_rate_limit_exhausted', 'svc_rate_limit_unavailable'].includes(response.json().code), `${what}: not refused by a limit (${response.statusCode})`, { body: response.body })
}

function expectRefused (t: Test, response: LightMyRequestResponse, what: string): void {
  t.equal(response.statusCode, 429, `${what}: 429`, { body: response.body })
  expectErrorShape(t, response, what)
  t.equal(response.json().code, 'svc_rate_limit_exhausted', `${what}: svc_rate_limit_exhausted`)
  t.match(response.headers['retry-after'], /^[1-9]\d*$/, `${what}: Retry-After in whole seconds`)
  t.ok(Number(response.headers['retry-after']) <= HOUR / 1000, `${what}: at most the hour's window`)
  t.equal(response.headers['x-ratelimit-limit'], String(NEW_CARTS), `${what}: X-RateLimit-Limit of the new-cart limit`)
  t.equal(response.headers['x-ratelimit-remaining'], '0', `${what}: X-RateLimit-Remaining 0`)
}

test('new carts per client: svc/v1 writes with fresh Cart-Tokens count against the Store API\'s limit', async (t) => {
  const storage = await createSecurityStorage(t)
  let time = 1_700_000_000_000
  const counter = createMemoryRateCounter({ now: () => time })
  t.teardown(() => counter.close())
  const { app } = await buildSecurityApp(t, {
    storage,
    rateCounter: counter,
    edition: 'pro',
    storeApiRateLimits: { newCart: { perIp: [perHour(NEW_CARTS)], perCart: [] } }
  })

  t.test('svc/v1 and the Store API share one count per client', async (t) => {
    const ip = '198.51.100.30'
    const first = await svcWrite(app, await newCartToken(app), ip)
    expectNotLimited(t, first, 'a drawer write starting a cart')
    t.equal(first.headers['x-ratelimit-remaining'], String(NEW_CARTS - 1), 'its headers tell the new-cart limit, the tighter one')
    const stored = await newCartToken(app)
    const started = await storeApiAdd(app, ip, stored)
    t.equal(started.statusCode, 201, 'a Store API write starting a cart', { body: started.body })
    t.not(await storage.getCart(cartKeyOf(stored)), null, 'its cart is stored')
    expectNotLimited(t, await svcWrite(app, await newCartToken(app), ip), 'another drawer write with a fresh token')

    const fresh = await newCartToken(app)
    const refused = await svcWrite(app, fresh, ip)
    expectRefused(t, refused, `new cart ${NEW_CARTS + 1} through svc/v1`)
    t.equal(await storage.getCart(cartKeyOf(fresh)), null, 'the refused write stored no cart')
    expectRefused(t, await storeApiAdd(app, ip, await newCartToken(app)), `new cart ${NEW_CARTS + 1} through the Store API`)
    expectRefused(t, await storeApiAdd(app, ip), 'a Store API write naming no cart')

    expectNotLimited(t, await svcWrite(app, stored, ip), 'a drawer write to a stored cart starts none: not counted')
    expectNotLimited(t, await app.inject({
      method: 'POST',
      url: `${SVC}/analytics/events`,
      remoteAddress: ip,
      headers: { 'cart-token': await newCartToken(app) },
      payload: { events: [{ type: 'drawer_open' }] }
    }), 'analytics events change no cart: not counted')
    expectNotLimited(t, await svcWrite(app, await newCartToken(app), '198.51.100.31'), 'another client')

    time += HOUR
    expectNotLimited(t, await svcWrite(app, await newCartToken(app), ip), 'the next hour')
  })

  t.test('rotating IPv6 addresses within a /64 buys no carts', async (t) => {
    time += 2 * HOUR
    for (let i = 1; i <= NEW_CARTS; i++) expectNotLimited(t, await svcWrite(app, await newCartToken(app), `2001:db8:77:1::${i}`), `address ${i} of the /64`)
    expectRefused(t, await svcWrite(app, await newCartToken(app), '2001:db8:77:1:abcd::1'), 'yet another address of the /64')
    expectNotLimited(t, await svcWrite(app, await newCartToken(app), '2001:db8:77:2::1'), 'the next /64')
  })

  t.test('the classic cart: an add to cart that starts a cart counts too', async (t) => {
    time += 2 * HOUR
    const ip = '198.51.100.50'
    const add = (cookie?: string) => app.inject({
      method: 'POST',
      url: '/?wc-ajax=add_to_cart',
      remoteAddress: ip,
      headers: { 'content-type': 'application/x-www-form-urlencoded', ...(cookie === undefined ? {} : { cookie }) },
      payload: 'product_id=101&quantity=1'
    })
    const first = await add()
    t.equal(first.statusCode, 200, 'a first add starts a cart', { body: first.body })
    const cookie = first.cookies.filter((candidate) => candidate.name === 'svc_cart').map(({ name, value }) => `${name}=${value}`).join('; ')
    expectNotLimited(t, await svcWrite(app, await newCartToken(app), ip), 'a drawer write starting a cart')
    expectNotLimited(t, await add(), 'another browser\'s first add')
    expectRefused(t, await add(), `new cart ${NEW_CARTS + 1} through the classic cart`)
    const again = await add(cookie)
    t.equal(again.statusCode, 200, 'an add to the stored cart of the cookie is not counted')
    t.equal(again.headers['x-ratelimit-limit'], undefined, 'and carries no rate headers')
  })

  t.test('writes racing to start one cart count once', async (t) => {
    time += 2 * HOUR
    const token = await newCartToken(app)
    const responses = await Promise.all(Array.from({ length: NEW_CARTS + 2 }, () => svcWrite(app, token, '198.51.100.40')))
    for (const [i, response] of responses.entries()) expectNotLimited(t, response, `write ${i + 1} of one cart`)
    expectNotLimited(t, await svcWrite(app, await newCartToken(app), '198.51.100.40'), 'a second new cart from that client')
  })
})
