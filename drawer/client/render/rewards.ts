import { h } from '../dom.ts'
import type { I18n } from '../i18n.ts'
import type { CartState } from '../types.ts'

type Rewards = NonNullable<CartState['rewards']>

/**
 * The reward tiers' progress: one bar with a mark per tier, the next goal in words, and the tiers unlocked. Every
 * figure comes from the cart state (the evaluation that set the totals): nothing is recomputed here, so the bar can
 * never say "free shipping" while the cart charges for it.
 */
export function renderRewards (rewards: CartState['rewards'] | undefined, cart: CartState | null, i18n: I18n): Node[] {
  if (!rewards || !cart || cart.cartItems.length === 0) return []
  const top = Math.max(1, ...rewards.tiers.map((tier) => Number(tier.threshold)))
  const basis = Number(rewards.basis)
  const text = rewardsText(rewards, cart.currency, i18n)
  const percent = Math.round(Math.min(1, basis / top) * 100)
  const bar = h('div', {
    class: 'svc-meter-bar',
    role: 'progressbar',
    'aria-label': i18n.t('rewardsProgress'),
    'aria-valuemin': 0,
    'aria-valuemax': 100,
    'aria-valuenow': percent,
    'aria-valuetext': text
  }, h('span', {}), ...rewards.tiers.map((tier) => {
    const mark = h('i', { class: tier.reached ? 'svc-tick svc-on' : 'svc-tick' })
    mark.style.insetInlineStart = `${Math.round(Math.min(1, Number(tier.threshold) / top) * 100)}%`
    return mark
  }))
  ;(bar.firstChild as HTMLElement).style.width = `${percent}%`
  const reached = rewards.tiers.filter((tier) => tier.reached)
  const nodes: Node[] = [h('p', { class: 'svc-meta', dir: 'auto' }, text), bar]
  if (reached.length > 0) nodes.push(h('ul', { class: 'svc-unlocked' }, ...reached.map((tier) => h('li', { dir: 'auto' }, i18n.t('rewardUnlocked', { reward: tier.label })))))
  return nodes
}

/**
 * The sentence over the bar: what the next tier still needs (the lowest threshold not yet met), or that every tier
 * is unlocked. A tier whose threshold is met but that does not apply (its conditions, or a paid shipping rate chosen)
 * is never announced as unlocked.
 */
export function rewardsText (rewards: Rewards, currency: CartState['currency'], i18n: I18n): string {
  const next = rewards.tiers.filter((tier) => !tier.reached && Number(tier.remaining) > 0)
    .sort((a, b) => Number(a.threshold) - Number(b.threshold))[0]
  if (next === undefined) return rewards.tiers.every((tier) => tier.reached) ? i18n.t('rewardsAllReached') : ''
  return rewards.measure === 'item_count'
    ? i18n.t('rewardsRemainingItems', { count: Number(next.remaining), reward: next.label })
    : i18n.t('rewardsRemaining', { amount: i18n.money(next.remaining, currency), reward: next.label })
}
