import { test } from 'tap'
import { demoSettings, seedDemoSettings } from '../../seed/demo-settings.ts'
import { createMemoryStorage } from '../../storage/index.ts'
import { build } from '../helper.ts'
import { Shopper } from '../helpers/shopper.ts'

/**
 * `npm start`'s demo: while the settings were never saved, the demo seeds the drawer's settings, so a
 * newcomer sees every feature of the edition at once — reward tiers, and in Pro two add-ons, a bundle and a spotlight.
 */

for (const edition of ['free', 'pro'] as const) {
  test(`the ${edition} demo's settings are valid and shown by the drawer`, async (t) => {
    const storage = createMemoryStorage()
    t.teardown(() => storage.close())
    t.equal(await seedDemoSettings(storage, edition), true, 'seeded into settings never saved')
    t.equal(await seedDemoSettings(storage, edition), false, 'a restart keeps what is there')
    const app = await build(t, { storage, edition })
    t.same(app.settings.validate((await app.settings.get()).settings), {}, 'every value valid')
    const saved = await app.settings.save({})
    t.ok(saved.ok, 'and saving them again passes every check (gift products included)')

    const shopper = await Shopper.guest(app)
    await shopper.add(102, 2)
    const cart = await shopper.drawerCart()
    const tiers = cart.rewards.tiers as Array<Record<string, unknown>>
    t.same(tiers.map((tier) => tier.kind), edition === 'pro' ? ['free_shipping', 'percent_discount', 'gift'] : ['free_shipping'], 'the reward tiers')
    t.equal(tiers[0]!.reached, true, 'two belts (11,000) ship free')
    if (edition === 'free') return
    t.equal(tiers[1]!.reached, true, 'and get 10% off')
    t.same(cart.coupons.map((coupon: { code: string }) => coupon.code), ['reward_ten-off'])
    const data = await shopper.ok('GET', 'drawer-data?fields=smart_addons,spotlight')
    t.same(data.smart_addons.map((addon: { id: string }) => addon.id), ['gift-wrap', 'stickers'], 'two add-ons offered')
    t.equal(data.spotlight.product.id, 104, 'the spotlight offer')
    const configs = await shopper.ok('GET', 'bundle-builder/configs')
    t.match(JSON.stringify(configs), /head-to-toe/, 'a bundle')
  })
}

test('the demo never replaces settings a merchant saved', async (t) => {
  const storage = createMemoryStorage()
  t.teardown(() => storage.close())
  await storage.saveSettings({ drawer_config: { width_desktop: 500 } })
  t.equal(await seedDemoSettings(storage, 'pro'), false)
  t.same((await storage.getSettings())?.document, { drawer_config: { width_desktop: 500 } })
  t.not(demoSettings('pro'), demoSettings('pro'), 'a fresh document each time (nothing shared to mutate)')
})
