import fc from 'fast-check'
import { test } from 'tap'
import { I18n } from '../../../../drawer/client/i18n.ts'
import { rewardsText } from '../../../../drawer/client/render/rewards.ts'
import { CATALOGS } from '../../../../kernel/i18n/catalogs.ts'
import { compileCatalog } from '../../../../kernel/i18n/compile.ts'
import { appBackends } from '../../../helpers/storage-backends.ts'
import { buildProApp, Shopper, type Json } from './helpers.ts'

/**
 * The property: over random reward settings and random carts, the meter's `reached`, the drawer's rewards
 * (and the sentence the drawer writes from them), the Store API's `total_shipping`, its discounts and the gift lines
 * always agree, and every tier is reached exactly when an independent reading of the Store API cart says its
 * threshold is met — so crossing a threshold either way adds or removes the reward.
 * Demo prices: Beanie (101) 1800, Cap (103) 1800, Sticker Pack (117) 500, Guitar Pick (118) 200; Gift Wrap (116) is
 * the gift; 10 % tax, flat shipping 500; coupons save10 (10 %) and fiver (500 off).
 */

const EN = compileCatalog(CATALOGS.en, 'en')
const english = new I18n('en', 'en', {}, EN, EN)
const plain = (text: string) => text.replace(/[\u2068\u2069]/g, '')

const NO_CONDITIONS = { match: 'all', conditions: [] }
const GIFT = 116

const tierArb = fc.record({
  reward: fc.constantFrom('free_shipping', 'percent_discount', 'fixed_discount', 'gift'),
  threshold: fc.integer({ min: 0, max: 12 }),
  amount: fc.integer({ min: 1, max: 30 })
})

const settingsArb = fc.record({
  basis: fc.constantFrom('subtotal', 'item_count'),
  after_discounts: fc.boolean(),
  include_tax: fc.boolean(),
  tiers: fc.array(tierArb, { minLength: 1, maxLength: 5 })
}).map((settings) => {
  // Valid tiers only: one free-shipping tier, one discount per threshold, higher discounts at higher thresholds, one gift.
  const money = settings.basis === 'subtotal'
  let discounts = 0
  let seenShipping = false
  let seenGift = false
  const thresholds = new Set<number>()
  const tiers = settings.tiers.flatMap((tier, index) => {
    const threshold = money ? tier.threshold * 500 : tier.threshold
    if (tier.reward === 'free_shipping') {
      if (seenShipping) return []
      seenShipping = true
    }
    if (tier.reward === 'gift') {
      if (seenGift) return []
      seenGift = true
    }
    const discount = tier.reward === 'percent_discount' || tier.reward === 'fixed_discount'
    if (discount) {
      if (discounts > 0 || thresholds.has(threshold)) return []
      discounts++
      thresholds.add(threshold)
    }
    return [{
      id: `t${index}`,
      label: `Tier ${index}`,
      reward: tier.reward,
      threshold,
      amount: tier.reward === 'percent_discount' ? tier.amount : tier.reward === 'fixed_discount' ? tier.amount * 10 : 0,
      product_id: tier.reward === 'gift' ? GIFT : 0,
      conditions: NO_CONDITIONS
    }]
  })
  return { ...settings, tiers }
})

type Step = { op: 'add', id: number, quantity: number } | { op: 'set', index: number, quantity: number } | { op: 'remove', index: number } | { op: 'coupon', code: string }
const stepArb: fc.Arbitrary<Step> = fc.oneof(
  fc.record({ op: fc.constant('add' as const), id: fc.constantFrom(101, 103, 117, 118), quantity: fc.integer({ min: 1, max: 4 }) }),
  fc.record({ op: fc.constant('set' as const), index: fc.nat(5), quantity: fc.integer({ min: 1, max: 6 }) }),
  fc.record({ op: fc.constant('remove' as const), index: fc.nat(5) }),
  fc.record({ op: fc.constant('coupon' as const), code: fc.constantFrom('save10', 'fiver') })
)

const backend = appBackends().find((candidate) => candidate.name === 'memory')!

test('the meter, the drawer, the Store API totals and the gift lines agree for any tiers and cart', async (t) => {
  const storage = await backend.create()
  t.teardown(() => storage.dispose())
  const { app } = await buildProApp(t, storage)
  let runs = 0
  let crossings = 0

  await fc.assert(fc.asyncProperty(settingsArb, fc.array(stepArb, { minLength: 2, maxLength: 7 }), async (settings, steps) => {
    const saved = await app.settings.replace({ rewards: settings })
    if (!saved.ok) throw new Error(`settings refused: ${JSON.stringify(saved)}`)
    const shopper = await Shopper.guest(app)
    const previous = new Map<string, boolean>()
    for (const step of steps) {
      const { cart } = await shopper.storeCart()
      const ordinary = (cart.items as Json[]).filter((item) => item.id !== GIFT)
      if (step.op === 'add') await shopper.storeRequest('POST', 'cart/add-item', { id: step.id, quantity: step.quantity })
      if (step.op === 'set' && ordinary.length > 0) await shopper.storeRequest('POST', 'cart/update-item', { key: ordinary[step.index % ordinary.length]!.key, quantity: step.quantity })
      if (step.op === 'remove' && ordinary.length > 0) await shopper.storeRequest('POST', 'cart/remove-item', { key: ordinary[step.index % ordinary.length]!.key })
      if (step.op === 'coupon') await shopper.storeRequest('POST', 'cart/apply-coupon', { code: step.code })

      const [store, drawer, meter] = await Promise.all([shopper.storeCart(), shopper.drawerCart(), shopper.ok('GET', 'shipping-meter')])
      const items = store.cart.items as Json[]
      const totals = store.cart.totals as Json
      const coupons = store.cart.coupons as Json[]
      const shopperCoupons = coupons.filter((coupon) => !String(coupon.code).startsWith('reward_'))
      const rewardCoupons = coupons.filter((coupon) => String(coupon.code).startsWith('reward_'))
      const paid = items.filter((item) => item.id !== GIFT || item.totals.line_subtotal !== '0')

      // The independent reading of what counts towards the tiers.
      const couponDiscount = shopperCoupons.reduce((sum, coupon) => sum + Number(coupon.totals.total_discount), 0)
      const couponTax = shopperCoupons.reduce((sum, coupon) => sum + Number(coupon.totals.total_discount_tax), 0)
      const basis = settings.basis === 'item_count'
        ? paid.reduce((sum, item) => sum + Number(item.quantity), 0)
        : Number(totals.total_items) - (settings.after_discounts ? couponDiscount : 0) +
          (settings.include_tax ? Number(totals.total_items_tax) - (settings.after_discounts ? couponTax : 0) : 0)
      const empty = paid.length === 0

      const tiers = (drawer.rewards?.tiers ?? []) as Json[]
      t.equal(tiers.length, settings.tiers.length, 'every tier is shown')
      for (const tier of settings.tiers) {
        const shown = tiers.find((candidate) => candidate.id === tier.id)!
        const met = !empty && basis >= tier.threshold
        if (tier.reward !== 'gift') t.equal(shown.reached, met, `${tier.reward} at ${tier.threshold}: reached exactly from the threshold (basis ${basis})`)
        if (previous.has(tier.id) && previous.get(tier.id) !== shown.reached) crossings++
        previous.set(tier.id, shown.reached)
      }

      // Free shipping: the meter, the drawer and the Store API's shipping.
      const shippingTier = tiers.find((tier) => tier.kind === 'free_shipping')
      if (!empty) {
        t.equal(meter.reached, totals.total_shipping === '0', 'the meter is reached exactly when shipping is free')
        if (shippingTier !== undefined) t.equal(shippingTier.reached, meter.reached, 'the drawer agrees with the meter')
      }

      // Discounts: the one reached discount tier is listed, as a system reward, and counted in the totals.
      const discountTier = tiers.find((tier) => (tier.kind === 'percent_discount' || tier.kind === 'fixed_discount') && tier.reached)
      t.same(rewardCoupons.map((coupon) => coupon.code), discountTier ? [`reward_${discountTier.id}`] : [], 'a reward coupon exactly while its tier is reached')
      const listed = coupons.reduce((sum, coupon) => sum + Number(coupon.totals.total_discount), 0)
      t.equal(Number(totals.total_discount), listed, 'the discounts add up to the total discount')
      t.equal(drawer.cartDiscount, totals.total_discount, 'the drawer shows the same discount')
      t.equal(drawer.cartTotal, totals.total_price, 'and the same total')
      t.same((drawer.coupons as Json[]).filter((coupon) => coupon.isSystemReward).map((coupon) => [coupon.code, coupon.removable]),
        discountTier ? [[`reward_${discountTier.id}`, false]] : [], 'the drawer lists it as a system reward that cannot be removed')

      // Gifts: a line at zero exactly while the gift tier is reached.
      const giftTier = settings.tiers.find((tier) => tier.reward === 'gift')
      const giftLines = items.filter((item) => item.id === GIFT)
      if (giftTier !== undefined) {
        const met = !empty && basis >= giftTier.threshold
        t.equal(giftLines.length, met ? 1 : 0, `the gift line is there exactly from its threshold (basis ${basis})`)
        t.ok(giftLines.every((item) => item.totals.line_total === '0'), 'at zero')
      }

      // The drawer's sentence never promises what the cart already has, and names the next tier.
      if (drawer.rewards !== null && !empty) {
        const text = plain(rewardsText(drawer.rewards, drawer.currency, english))
        const next = (drawer.rewards.tiers as Json[]).filter((tier) => !tier.reached && Number(tier.remaining) > 0)
          .sort((a, b) => Number(a.threshold) - Number(b.threshold))[0]
        if (next === undefined) t.ok(text === '' || text === plain(english.t('rewardsAllReached')), 'nothing left to reach')
        else t.match(text, next.label, 'the sentence names the next tier')
        for (const tier of drawer.rewards.tiers as Json[]) {
          if (tier.reached) t.notMatch(text, new RegExp(`to get ${tier.label}\\.`), 'a reached tier is not asked for again')
        }
      }
    }
    runs++
  }), { numRuns: 40, seed: 1_907_2026 })
  t.equal(runs, 40, 'every run checked')
  t.ok(crossings > 0, `thresholds were crossed both ways during the runs (${crossings})`)
})
