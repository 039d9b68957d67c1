import fp from 'fastify-plugin'
import { isPurchasable } from '../../../kernel/domain/catalog.ts'
import type { Settings } from '../../schemas/settings.ts'
import type { SettingsProblems } from '../settings/index.ts'
import type { Edition } from '../security/index.ts'
import { giftTierOf } from '../../../kernel/domain/marks.ts'
import { rewardAdjustments } from '../../../kernel/domain/rewards.ts'
import { bundleAdjustments } from '../../domain/bundles.ts'
import type { CartData, Product } from '../../../kernel/domain/types.ts'
import type { CartRewards } from '../../port/index.ts'
import { rewardProgram } from './program.ts'

export interface RewardsPluginOptions {
  edition?: Edition
}

/** Gift lines: only the reward tiers change them (they come and go with the tier). */
export function giftLineKeys (data: CartData): ReadonlySet<string> {
  return new Set(data.lines.filter((line) => giftTierOf(line.mark) !== undefined).map((line) => line.key))
}

/**
 * The drawer's money effects from the settings, declared to the shop as its `rewards` cart hook: the reward tiers as
 * `CartAdjustments` (gift lines at zero, a discount after the coupons, the shipping waived) and, in Pro, the bundles'
 * discounts as line adjustments. The shop's totals apply them and the drawer shows the same outcome
 * (`PricedCart.rewards`, `PricedLine.lineOwnDiscount`). Saving refuses what the edition cannot do and gifts the shop cannot sell.
 */
export const rewardsPlugin = fp<RewardsPluginOptions>(async (fastify, options) => {
  const edition = options.edition ?? 'free'
  const { carts } = fastify.commerce
  const settingsService = fastify.settings
  let current: Settings | undefined
  let version: number | undefined
  const reported = new Set<string>()

  const use = (settings: Settings, at: number) => {
    if (version !== at) reported.clear()
    current = settings
    version = at
  }
  const once = (key: string, message: string, tierId: string) => {
    if (reported.has(key)) return
    reported.add(key)
    fastify.log.warn({ tier: tierId, settingsVersion: version }, message)
  }

  const hook: CartRewards = {
    async prepare (settingsVersion) {
      if (settingsVersion !== undefined && settingsVersion === version) return
      const cached = settingsService.cached
      if (settingsVersion === undefined && cached !== undefined) {
        if (cached.version !== version) use(cached.settings, cached.version)
        return
      }
      if (settingsVersion === undefined && current !== undefined) return
      const read = await settingsService.at(settingsVersion)
      use(read.settings, read.version)
    },
    adjust (view, viewer, now) {
      if (current === undefined) return null
      const program = rewardProgram(current, edition, viewer, now)
      if (program === null) return null
      const adjustments = rewardAdjustments(program, view)
      for (const tierId of adjustments.outcome.unevaluable) once(`conditions:${tierId}`, 'a reward tier\'s conditions cannot be evaluated: it grants nothing until they are saved again', tierId)
      return adjustments
    },
    lineAdjuster () {
      if (edition !== 'pro' || current === undefined || !current.bundles.enabled || current.bundles.bundles.length === 0) return null
      const bundles = current.bundles.bundles
      return (lines) => bundleAdjustments(lines, bundles)
    },
    report (tierId) {
      once(`gift:${tierId}`, 'a reward tier\'s gift could not be added to a cart (out of stock or no longer sold): it grants nothing there', tierId)
    }
  }

  const removers = [
    carts.addHook('rewards', hook),
    carts.addHook('lockedLines', giftLineKeys),
    settingsService.addCheck(async (settings) => tierProblems(settings, edition, fastify.commerce.getProducts.bind(fastify.commerce)))
  ]
  fastify.addHook('onClose', async () => { for (const remove of removers) remove() })
}, { name: 'rewards', fastify: '5.x', dependencies: ['commerce', 'settings'] })

/** What the edition cannot do, and gifts the shop cannot give (not a simple product that anyone may buy). */
async function tierProblems (
  settings: Settings,
  edition: Edition,
  getProducts: (ids: readonly number[]) => Promise<Map<number, Product>>
): Promise<SettingsProblems> {
  const problems: SettingsProblems = {}
  const tiers = Array.isArray(settings.rewards?.tiers) ? settings.rewards.tiers : []
  if (edition === 'free') {
    if (tiers.length > 1) problems['rewards.tiers'] = 'The Free edition has one reward tier: free shipping'
    tiers.forEach((tier, index) => {
      if (tier?.reward !== undefined && tier.reward !== 'free_shipping') problems[`rewards.tiers.${index}.reward`] = 'The Free edition\'s reward is free shipping'
    })
  }
  const gifts = tiers.flatMap((tier, index) => tier?.reward === 'gift' && Number.isInteger(tier.product_id) && tier.product_id > 0 ? [{ index, id: tier.product_id }] : [])
  if (gifts.length === 0) return problems
  const products = await getProducts(gifts.map((gift) => gift.id))
  for (const { index, id } of gifts) {
    const product = products.get(id)
    if (product === undefined) problems[`rewards.tiers.${index}.product_id`] = `no product has the id ${id}`
    else if (product.type !== 'simple' || !isPurchasable(product)) problems[`rewards.tiers.${index}.product_id`] = `"${product.name}" cannot be given: the gift must be a simple product on sale to everyone`
  }
  return problems
}
