import type { FastifyInstance } from 'fastify'

/** The example host's settings in the tests of test/port/ (examples/memory-shop/). */
export const TEA_URL = 'http://tea.test'
export const TEA_ADMIN = { email: 'manager@tea.test', password: 'steep-and-sip-123' }
export const TEA_SECRET = 'tea-shop-test-secret-of-at-least-32-bytes'

/** A Cart-Token for a new cart, as a browser gets it: from the `Cart-Token` header of the shop's `GET /api/cart`. */
export async function teaCartToken (app: FastifyInstance): Promise<string> {
  const response = await app.inject({ method: 'GET', url: '/api/cart' })
  const token = response.headers['cart-token']
  if (typeof token !== 'string') throw new Error(`no Cart-Token from GET /api/cart (${response.statusCode})`)
  return token
}

/** Logs the shop manager in through the shop's own login: the `Cookie` header a browser then sends, and the nonce. */
export async function teaAdminLogin (app: FastifyInstance): Promise<{ cookie: string, nonce: string }> {
  const response = await app.inject({ method: 'POST', url: '/account/login', payload: TEA_ADMIN })
  if (response.statusCode !== 200) throw new Error(`login: ${response.statusCode} ${response.body}`)
  return { cookie: response.cookies.map(({ name, value }) => `${name}=${value}`).join('; '), nonce: response.json().nonce }
}
