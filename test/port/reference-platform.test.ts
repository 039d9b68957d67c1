import { buildApp } from '../../app.ts'
import { demoShopConfig } from '../../seed/demo-config.ts'
import { seedDemoShop, seedDemoUsers } from '../../seed/seed.ts'
import { createMemoryRateCounter } from '../../storage/memory/index.ts'
import { SITE_URL, STORE_API, TEST_PASSWORD_HASHING, TEST_SECRET } from '../helpers/app.ts'
import { createTestPgliteStorage } from '../helpers/pglite.ts'
import { login, newCartToken, USERS } from '../helpers/security.ts'
import { commercePortContract } from './commerce-port.contract.ts'

/**
 * The commerce port's contract against the reference platform (`fastify.shop.commerce`): `buildApp` in the Free
 * edition on a PGlite database of its own with the demo shop (seed/demo-catalog.ts) and its shop manager.
 */
commercePortContract('the reference platform', async (t, setup) => {
  const storage = await createTestPgliteStorage()
  t.teardown(() => storage.close())
  await seedDemoShop(storage, SITE_URL)
  await seedDemoUsers(storage, { admin: USERS.admin }, TEST_PASSWORD_HASHING)
  const rateCounter = createMemoryRateCounter()
  const app = await buildApp({ storage, rateCounter, secrets: [TEST_SECRET], siteUrl: SITE_URL, shop: demoShopConfig, edition: 'free', passwordHashing: TEST_PASSWORD_HASHING })
  t.teardown(async () => {
    await app.close()
    await rateCounter.close()
  })
  setup(app)
  await app.ready()
  return {
    app,
    commerce: app.shop.commerce,
    newCartToken: () => newCartToken(app),
    loginAsAdmin: async () => {
      const session = await login(app, USERS.admin)
      return { headers: { cookie: session.cookie }, nonce: session.nonce }
    },
    cartResponse: async (token) => (await app.inject({ method: 'GET', url: `${STORE_API}/cart`, headers: { 'cart-token': token } })).json(),
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
})
