import type { SettingsProblems } from './problems.ts'

type Json = Record<string, unknown>
const isObject = (value: unknown): value is Json => typeof value === 'object' && value !== null && !Array.isArray(value)

/**
 * What the schema cannot say of the reward tiers: each reward's own value (a percent from 1 to 100, a fixed amount
 * above zero, a gift product), and no two tiers that overlap — a second free-shipping tier, two discounts at one
 * threshold, a discount that gives less than a lower tier of the same kind (spending more would earn less), the same
 * gift twice at one threshold. Conditions and unique ids are checked with the other sections'.
 */
export function rewardProblems (rewards: unknown): SettingsProblems {
  const problems: SettingsProblems = {}
  if (!isObject(rewards) || !Array.isArray(rewards.tiers)) return problems
  const tiers = rewards.tiers.map((tier, index) => ({ tier: isObject(tier) ? tier : {}, index }))
  const at = (index: number, key: string) => `rewards.tiers.${index}.${key}`
  let freeShipping: number | undefined
  for (const { tier, index } of tiers) {
    const amount = typeof tier.amount === 'number' ? tier.amount : 0
    if (tier.reward === 'percent_discount' && (amount < 1 || amount > 100)) problems[at(index, 'amount')] = 'must be a percent from 1 to 100'
    if (tier.reward === 'fixed_discount' && amount < 1) problems[at(index, 'amount')] = 'must be an amount above zero'
    if (tier.reward === 'gift' && !(typeof tier.product_id === 'number' && tier.product_id >= 1)) problems[at(index, 'product_id')] = 'must name the gift product'
    if (tier.reward === 'free_shipping') {
      if (freeShipping !== undefined) problems[at(index, 'reward')] = `overlaps tier ${freeShipping + 1}: there is one free-shipping tier at most`
      freeShipping ??= index
    }
  }
  for (const a of tiers) {
    for (const b of tiers) {
      if (b.index <= a.index || typeof a.tier.threshold !== 'number' || typeof b.tier.threshold !== 'number') continue
      const sameThreshold = a.tier.threshold === b.tier.threshold
      const discount = (kind: unknown) => kind === 'percent_discount' || kind === 'fixed_discount'
      if (sameThreshold && discount(a.tier.reward) && discount(b.tier.reward)) {
        problems[at(b.index, 'threshold')] ??= `overlaps tier ${a.index + 1}: two discounts at the same threshold`
      } else if (a.tier.reward === b.tier.reward && discount(a.tier.reward) && a.tier.threshold !== b.tier.threshold) {
        const [low, high] = a.tier.threshold < b.tier.threshold ? [a, b] : [b, a]
        if (Number(high.tier.amount) <= Number(low.tier.amount)) {
          problems[at(high.index, 'amount')] ??= `must be more than tier ${low.index + 1}'s, which needs less`
        }
      } else if (sameThreshold && a.tier.reward === 'gift' && b.tier.reward === 'gift' && a.tier.product_id === b.tier.product_id) {
        problems[at(b.index, 'product_id')] ??= `overlaps tier ${a.index + 1}: the same gift at the same threshold`
      }
    }
  }
  return problems
}
