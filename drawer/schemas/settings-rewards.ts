import { Type, type Static } from 'typebox'
import { ConditionGroupSchema } from './settings-pro.ts'

/**
 * Reward tiers (kernel/domain/rewards.ts): thresholds the cart reaches that grant free shipping, a discount or a free gift.
 * The platform's totals apply them, and the drawer's progress bar and `GET shipping-meter` read the same outcome.
 * The Free edition acts on one free-shipping tier; Pro on up to five tiers of any kind.
 */

export const REWARD_KINDS = ['free_shipping', 'percent_discount', 'fixed_discount', 'gift'] as const
export const MAX_REWARD_TIERS = 5

export const RewardTierSchema = Type.Object({
  id: Type.String({ pattern: '^[a-z0-9][a-z0-9-]{0,39}$', description: 'Stable id of the tier.' }),
  label: Type.String({ minLength: 1, maxLength: 100, description: 'What the shopper is told they get, e.g. `Free shipping` or `10% off`.' }),
  reward: Type.Enum(REWARD_KINDS, {
    default: 'free_shipping',
    description: '`free_shipping`; `percent_discount` (`amount` percent off); `fixed_discount` (`amount` minor units off); `gift` (`product_id` added at zero price while the tier is reached).'
  }),
  threshold: Type.Integer({ minimum: 0, maximum: 100_000_000, description: 'Reached from this basis on: minor units, or items with `basis: item_count`.' }),
  amount: Type.Integer({ minimum: 0, maximum: 100_000_000, default: 0, description: 'Percent (1–100) for `percent_discount`; minor units for `fixed_discount`.' }),
  product_id: Type.Integer({ minimum: 0, default: 0, description: 'The gift: a simple product (`gift` tiers).' }),
  conditions: ConditionGroupSchema
}, { additionalProperties: false, title: 'SvcRewardTier' })
export type RewardTierSettings = Static<typeof RewardTierSchema>

export const RewardsSettingsSchema = Type.Object({
  enabled: Type.Boolean({ default: true, description: 'Whether the tiers apply (and the drawer shows their progress).' }),
  basis: Type.Enum(['subtotal', 'item_count'], { default: 'subtotal', description: 'What the thresholds measure: the subtotal, or the number of items.' }),
  after_discounts: Type.Boolean({ default: true, description: 'The subtotal after coupon and bundle discounts (a reward\'s own discount never counts).' }),
  include_tax: Type.Boolean({ default: false, description: 'The subtotal with its tax.' }),
  tiers: Type.Array(RewardTierSchema, { default: [], maxItems: MAX_REWARD_TIERS, description: 'At most five tiers (Pro); the Free edition has one free-shipping tier.' })
}, { additionalProperties: false, description: 'Rewards the cart unlocks as it grows: free shipping, a discount, a free gift.' })
export type RewardsSettings = Static<typeof RewardsSettingsSchema>
