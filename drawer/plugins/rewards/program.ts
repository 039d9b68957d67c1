import { conditionContext, evaluate, validateConditions } from '../../domain/conditions/index.ts'
import { isGiftLine } from '../../../kernel/domain/cart-view.ts'
import type { RewardProgram, RewardTier } from '../../../kernel/domain/rewards.ts'
import type { Settings } from '../../schemas/settings.ts'
import type { RewardTierSettings } from '../../schemas/settings-rewards.ts'
import type { Edition } from '../security/index.ts'
import type { Viewer } from '../../port/index.ts'

/** The tiers an edition acts on: every tier in Pro; in Free the first free-shipping tier alone. */
export function editionTiers (tiers: readonly RewardTierSettings[], edition: Edition): readonly RewardTierSettings[] {
  return edition === 'pro' ? tiers : tiers.filter((tier) => tier.reward === 'free_shipping').slice(0, 1)
}

/**
 * The settings' reward program for one viewer (conditions hold for a visitor), or null when none applies. A tier
 * whose conditions no longer validate (a stored document from another version) cannot be evaluated: it grants
 * nothing (the outcome lists it in `unevaluable`).
 */
export function rewardProgram (settings: Settings, edition: Edition, viewer: Viewer, now: Date): RewardProgram | null {
  const { rewards } = settings
  const tiers = rewards.enabled ? editionTiers(rewards.tiers, edition) : []
  if (tiers.length === 0) return null
  const visitor = { loggedIn: Boolean(viewer.userId), capabilities: viewer.capabilities ?? [] }
  return {
    basis: { measure: rewards.basis, afterDiscounts: rewards.after_discounts, includeTax: rewards.include_tax },
    tiers: tiers.map((tier): RewardTier => {
      const hasConditions = tier.conditions.conditions.length > 0
      const valid = !hasConditions || Object.keys(validateConditions(tier.conditions)).length === 0
      return {
        id: tier.id,
        label: tier.label,
        threshold: tier.threshold,
        kind: tier.reward,
        amount: tier.amount,
        productId: tier.reward === 'gift' ? tier.product_id : 0,
        ...(hasConditions
          ? { holds: (view) => valid ? evaluate(tier.conditions, conditionContext(view, visitor, now, (line) => !isGiftLine(line))) : 'error' as const }
          : {})
      }
    })
  }
}
