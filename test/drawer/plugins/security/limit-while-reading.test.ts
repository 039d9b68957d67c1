/**
 * A rate-limited cart route asks the counter while it reads the cart, not after: the Cart-Token names the visitor
 * before the read, so the two round trips overlap. Access is still answered first.
 */
import { test } from 'tap'
import { createMemoryRateCounter } from '../../../../storage/memory/index.ts'
import type { RateCounter } from '../../../../storage/contract/index.ts'
import { STORE_API } from '../../../helpers/app.ts'
import { asGuest, buildSecurityApp, newCartToken, SVC } from '../../../helpers/security.ts'

/** A memory counter that tells when a hit is asked for after `watch()`. */
function watchedCounter (): { counter: RateCounter, watch: () => Promise<void> } {
  const inner = createMemoryRateCounter()
  let asked = (): void => {}
  return {
    watch: () => new Promise<void>((resolve) => { asked = resolve }),
    counter: {
      name: inner.name,
      ping: () => inner.ping(),
      close: () => inner.close(),
      peek: (key, windowMs) => inner.peek(key, windowMs),
      reset: (key, windowMs) => inner.reset(key, windowMs),
      hit: (key, windowMs) => {
        asked()
        return inner.hit(key, windowMs)
      }
    }
  }
}

test('POST svc/v1/cart/remove-items: the counter is asked before the cart read answers', async (t) => {
  const { counter, watch } = watchedCounter()
  t.teardown(() => counter.close())
  const { app, storage } = await buildSecurityApp(t, { rateCounter: counter })
  const token = await newCartToken(app)
  const added = await app.inject({ method: 'POST', url: `${STORE_API}/cart/add-item`, headers: { 'cart-token': token }, payload: { id: 101, quantity: 1 } })
  const lineKey = (added.json() as { items: Array<{ key: string }> }).items[0]!.key

  // The cart read answers only once a hit was asked for: a route that counts after its read would wait for ever.
  const hitAsked = watch()
  const read = storage.readCart.bind(storage)
  storage.readCart = async (key) => {
    let timer: NodeJS.Timeout | undefined
    const late = new Promise<never>((_resolve, reject) => { timer = setTimeout(() => reject(new Error('the cart read waited for a hit that never came')), 2000) })
    await Promise.race([hitAsked, late]).finally(() => clearTimeout(timer))
    return read(key)
  }
  const response = await app.inject({ method: 'POST', url: `${SVC}/cart/remove-items`, headers: asGuest(token), payload: { keys: [lineKey] } })
  t.equal(response.statusCode, 200, 'answered', { found: response.body })
  t.equal(response.headers['x-ratelimit-limit'], '30', 'and counted')
})

test('a Cart-Token access refuses is refused as before, counted or not', async (t) => {
  const { counter } = watchedCounter()
  t.teardown(() => counter.close())
  const { app } = await buildSecurityApp(t, { rateCounter: counter })
  const token = await newCartToken(app)
  const response = await app.inject({ method: 'POST', url: `${SVC}/cart/remove-items`, headers: { ...asGuest(token), 'x-wp-nonce': 'a guest sends none' }, payload: { keys: ['x'] } })
  t.equal(response.statusCode, 403)
  t.equal((response.json() as { code: string }).code, 'svc_invalid_nonce')
  t.equal(response.headers['x-ratelimit-limit'], undefined, 'no limit headers on a refusal of access')
})
