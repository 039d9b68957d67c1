import Fastify from 'fastify'
import { test } from 'tap'
import { healthPlugin, shopPlugin } from '../../app.ts'
import { defaultShopConfig } from '../../config/shop-config.ts'
import { installErrorHandling } from '../../errors/index.ts'
import { seedDemoShop } from '../../seed/seed.ts'
import { createMemoryRateCounter } from '../../storage/index.ts'
import { createTestPgliteStorage } from '../helpers/pglite.ts'

test('the plugins register into an existing Fastify app under another REST root', async (t) => {
  const storage = await createTestPgliteStorage()
  const rateCounter = createMemoryRateCounter()
  await seedDemoShop(storage, 'https://shop.example')
  const app = Fastify()
  app.get('/own-route', async () => ({ mine: true }))
  installErrorHandling(app)
  await app.register(healthPlugin, { storage, rateCounter })
  await app.register(shopPlugin, {
    storage,
    secrets: ['s'.repeat(32)],
    restRoot: '/api/',
    siteUrl: 'https://shop.example',
    homeUrl: 'https://shop.example/',
    config: { ...defaultShopConfig, currency: { ...defaultShopConfig.currency, code: 'EUR', symbol: '€', prefix: '', suffix: ' €' } }
  })
  t.teardown(async () => { await app.close(); await storage.close(); await rateCounter.close() })

  t.same((await app.inject({ url: '/own-route' })).json(), { mine: true })
  const added = await app.inject({ method: 'POST', url: '/api/wc/store/v1/cart/add-item', payload: { id: 101, quantity: 1 } })
  t.equal(added.statusCode, 201)
  t.equal(added.json().totals.currency_code, 'EUR')
  t.equal(added.json().items[0].permalink, 'https://shop.example/product/beanie/')
  t.equal((await app.inject({ url: '/wp-json/wc/store/v1/cart' })).statusCode, 404, 'only the configured REST root')
  t.equal((await app.inject({ url: '/readyz' })).statusCode, 200)
})
