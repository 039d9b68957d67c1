import type { FastifyInstance } from 'fastify'
import { test } from 'tap'
import { build, STORE_API } from '../../../helper.ts'

/**
 * A batch's sub-requests count against the rate limits of the batch's client, not of the loopback address the batch
 * sends them from: 25 coupon guesses in one batch use up that client's per-IP coupon allowance (20 a minute), and
 * another client's is untouched.
 */

async function cartOf (app: FastifyInstance, ip: string): Promise<string> {
  const first = await app.inject({ method: 'GET', url: `${STORE_API}/cart`, remoteAddress: ip })
  const token = first.headers['cart-token'] as string
  const added = await app.inject({ method: 'POST', url: `${STORE_API}/cart/add-item`, remoteAddress: ip, headers: { 'cart-token': token }, payload: { id: 101, quantity: 1 } })
  if (added.statusCode !== 201) throw new Error(`add-item: ${added.statusCode} ${added.body}`)
  return token
}

test('batched coupon guesses count against the batch client\'s own limits', async (t) => {
  const app = await build(t)
  const guesser = '198.51.100.20'
  const token = await cartOf(app, guesser)
  const batch = await app.inject({
    method: 'POST',
    url: `${STORE_API}/batch`,
    remoteAddress: guesser,
    headers: { 'cart-token': token },
    payload: { requests: Array.from({ length: 25 }, (_, i) => ({ path: '/wc/store/v1/cart/apply-coupon', method: 'POST', body: { code: `guess-${i}` } })) }
  })
  t.equal(batch.statusCode, 207, batch.body.slice(0, 200))
  const statuses = (batch.json().responses as Array<{ status: number }>).map((answer) => answer.status)
  t.ok(statuses.includes(429), `some guesses in the batch are refused (${statuses.join(',')})`)

  const again = await app.inject({ method: 'POST', url: `${STORE_API}/cart/apply-coupon`, remoteAddress: guesser, headers: { 'cart-token': await cartOf(app, guesser) }, payload: { code: 'save10' } })
  t.equal(again.statusCode, 429, 'the guesser\'s address has used its allowance, from another cart too')
  t.equal(again.json().code, 'svc_rate_limit_exhausted')

  const other = '198.51.100.21'
  const fine = await app.inject({ method: 'POST', url: `${STORE_API}/cart/apply-coupon`, remoteAddress: other, headers: { 'cart-token': await cartOf(app, other) }, payload: { code: 'save10' } })
  t.equal(fine.statusCode, 200, 'another client still applies a coupon')
})
