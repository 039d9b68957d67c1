import { test } from 'tap'
import { createMemoryStorage } from '../../../../storage/index.ts'
import { buildLoggedApp } from '../store-api-extension/helpers.ts'
import { Shopper, type Json } from '../../../helpers/shopper.ts'

/**
 * A reward that cannot be given for a cart grants nothing and is logged once. Here the gift (T-Shirt, 107)
 * sells out after the tier was saved: a cart over the threshold gets no gift line, the tier is not shown as reached,
 * and the warning is written once however many carts meet it.
 */
test('a gift that cannot be added grants nothing and is logged once', async (t) => {
  const storage = createMemoryStorage()
  t.teardown(() => storage.close())
  const { app, logs } = await buildLoggedApp(t, storage, { edition: 'pro' })
  const saved = await app.settings.save({
    rewards: { tiers: [{ id: 'tee', label: 'A free T-shirt', reward: 'gift', threshold: 1000, amount: 0, product_id: 107, conditions: { match: 'all', conditions: [] } }] }
  })
  t.ok(saved.ok, 'the gift is on sale when the tier is saved')
  const tee = await storage.getProduct(107)
  await storage.upsertProducts([{ ...tee!, stockQuantity: 0, stockStatus: 'outofstock' }])

  for (const who of ['first', 'second']) {
    const shopper = await Shopper.guest(app)
    await shopper.add(117, 3)
    const cart = await shopper.drawerCart()
    t.same((cart.cartItems as Json[]).map((item) => item.product_id), [117], `${who} cart: no gift line`)
    t.match(cart.rewards.tiers[0], { id: 'tee', reached: false }, `${who} cart: the tier is not announced as reached`)
    t.equal((await shopper.storeCart()).cart.totals.total_items, '1500', 'nothing else changed')
  }
  const warnings = logs.filter((line) => line.tier === 'tee')
  t.equal(warnings.length, 1, 'logged once')
  t.match(warnings[0]?.msg, /gift could not be added/)
})
