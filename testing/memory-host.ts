import type { FastifyInstance } from 'fastify'
import type { CommercePort } from '../drawer/index.ts'
import { buildTeaShop, type TeaShopApp } from '../examples/memory-shop/app.ts'
import type { PortContractFixtures, PortContractHost } from './contract.ts'

/**
 * A host in memory for tests: the example host (examples/memory-shop/, a small tea shop with its own catalog, carts,
 * HMAC Cart-Tokens, login cookie and nonces) with the cart drawer registered over its commerce port. Everything is
 * in the process and lost on close; nothing listens on a port (`app.inject` reaches every route).
 */

export interface MemoryHostOptions {
  /** The drawer's edition (default `free`: the port contract wants a host whose drawer sets no cart hooks). */
  edition?: 'free' | 'pro'
  /** The clock (default the system's). */
  now?: () => Date
  /**
   * Called with the app (the drawer registered) and the shop's port before the app is made ready: register the
   * plugin under test or add routes there. The port contract's `prepare` fits it.
   */
  prepare?: (app: FastifyInstance, commerce: CommercePort) => void | Promise<void>
}

/** The in-memory host, ready: what the port contract needs, and the tea shop's parts. */
export interface MemoryHost extends PortContractHost {
  /** The drawer's settings and analytics stores, in memory. */
  stores: TeaShopApp['stores']
  /** The shop manager's login (`manage_shop`): `POST /account/login` with it as JSON. */
  admin: { email: string, password: string }
}

/** The host's storefront URL (no request leaves the process). */
export const MEMORY_HOST_URL = 'http://tea.test'
const ADMIN = { email: 'manager@tea.test', password: 'steep-and-sip-123' }
const SECRET = 'memory-host-secret-of-at-least-32-bytes'

/** The tea shop's catalog as the contract's fixtures (examples/memory-shop/catalog.ts). */
export const MEMORY_HOST_FIXTURES: PortContractFixtures = {
  // Sencha (€12.00) and the Tea Strainer (€8.00): simple, no sale.
  products: [1, 3],
  // Sencha cross-sells the strainer and the honey.
  crossSells: { productId: 1, expected: [3, 4] },
  // Sencha and Jasmine Green Tea.
  search: { term: 'green tea', ids: [1, 9] },
  percentCoupon: { code: 'steep10', percent: 10 },
  variation: { parentId: 5, variationId: 52, attributes: { pa_size: 'large' } },
  unknownProductId: 999
}

/**
 * Builds and readies the in-memory host. Its own routes: `GET /api/cart` (answers a `Cart-Token` header),
 * `POST /api/cart/add`, `POST /account/login`, the product pages under `/product/{slug}/`; the drawer's under
 * `/api/svc/v1/`. `close()` closes the app.
 */
export async function createMemoryHost (options: MemoryHostOptions = {}): Promise<MemoryHost> {
  const { app, commerce, stores } = await buildTeaShop({
    secret: SECRET,
    admin: ADMIN,
    homeUrl: MEMORY_HOST_URL,
    edition: options.edition ?? 'free',
    ...(options.now === undefined ? {} : { now: options.now })
  })
  try {
    await options.prepare?.(app, commerce)
    await app.ready()
  } catch (error) {
    await app.close()
    throw error
  }
  return {
    app,
    commerce,
    stores,
    admin: { ...ADMIN },
    fixtures: structuredClone(MEMORY_HOST_FIXTURES),
    async newCartToken () {
      const response = await app.inject({ method: 'GET', url: '/api/cart' })
      const token = response.headers['cart-token']
      if (typeof token !== 'string') throw new Error(`no Cart-Token from GET /api/cart (${response.statusCode})`)
      return token
    },
    async loginAsAdmin () {
      const response = await app.inject({ method: 'POST', url: '/account/login', payload: ADMIN })
      if (response.statusCode !== 200) throw new Error(`POST /account/login: ${response.statusCode} ${response.body}`)
      const cookie = response.cookies.map(({ name, value }) => `${name}=${value}`).join('; ')
      return { headers: { cookie }, nonce: response.json<{ nonce: string }>().nonce }
    },
    async cartResponse (token) {
      return (await app.inject({ method: 'GET', url: '/api/cart', headers: { 'cart-token': token } })).json()
    },
    close: () => app.close()
  }
}
