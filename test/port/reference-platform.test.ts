import type { FastifyInstance } from 'fastify'
import { test } from 'tap'
import { buildApp } from '../../app.ts'
import { demoShopConfig } from '../../seed/demo-config.ts'
import { seedDemoShop, seedDemoUsers } from '../../seed/seed.ts'
import { createMemoryRateCounter } from '../../storage/memory/index.ts'
import { SITE_URL, STORE_API, TEST_PASSWORD_HASHING, TEST_SECRET } from '../helpers/app.ts'
import { createTestPgliteStorage } from '../helpers/pglite.ts'
import { login, newCartToken, USERS } from '../helpers/security.ts'
import { commercePortContract, type PortContractHost } from '../../testing/index.ts'

/**
 * The commerce port's contract (the kit, `cart-drawer-service/testing`) against the reference platform
 * (`fastify.shop.commerce`): `buildApp` in the Free edition on a PGlite database of its own with the demo shop
 * (seed/demo-catalog.ts) and its shop manager.
 */
commercePortContract(test, {
  name: 'the reference platform',
  start: async (prepare) => {
    const storage = await createTestPgliteStorage()
    const rateCounter = createMemoryRateCounter()
    const close = async () => {
      await rateCounter.close()
      await storage.close()
    }
    try {
      await seedDemoShop(storage, SITE_URL)
      await seedDemoUsers(storage, { admin: USERS.admin }, TEST_PASSWORD_HASHING)
      const app = await buildApp({ storage, rateCounter, secrets: [TEST_SECRET], siteUrl: SITE_URL, shop: demoShopConfig, edition: 'free', passwordHashing: TEST_PASSWORD_HASHING })
      prepare(app)
      await app.ready()
      return host(app, async () => {
        await app.close()
        await close()
      })
    } catch (error) {
      await close()
      throw error
    }
  }
})

function host (app: FastifyInstance, close: () => Promise<void>): PortContractHost {
  return {
    app,
    commerce: app.shop.commerce,
    newCartToken: () => newCartToken(app),
    loginAsAdmin: async () => {
      const session = await login(app, USERS.admin)
      return { headers: { cookie: session.cookie }, nonce: session.nonce }
    },
    cartResponse: async (token) => (await app.inject({ method: 'GET', url: `${STORE_API}/cart`, headers: { 'cart-token': token } })).json(),
    close,
    fixtures: {
      // Cap (1800) and Sunglasses (9000): simple, no sale.
      products: [103, 104],
      // Hoodie with Logo cross-sells Beanie and Cap.
      crossSells: { productId: 105, expected: [101, 103] },
      // Hoodie with Logo and the variable Hoodie (its variations are not listed).
      search: { term: 'hoodie', ids: [105, 106] },
      percentCoupon: { code: 'save10', percent: 10 },
      variation: { parentId: 106, variationId: 1062, attributes: { pa_color: 'blue', pa_size: 'large' } },
      unknownProductId: 99999
    }
  }
}
