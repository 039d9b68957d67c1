import type { LineOrigin } from './types.ts'

/**
 * The drawer's mark on a cart line it added: one opaque string a host stores with the line and gives back, and the
 * only drawer field a host's line holds. A marked line is a line of its own (its key includes the mark), so it never
 * merges with the same product added another way. The drawer reads what a mark says; a host never needs to:
 *
 * - `addon:<id>`, `bundle:<id>`: an add-on's or a bundle's line (locked or priced by the drawer's adjustments);
 * - `reward:<tierId>`: a reward tier's gift line;
 * - `recommendation`, `spotlight`: a line the drawer's recommendations or spotlight added (order attribution).
 */
export const ADDON_MARK_PREFIX = 'addon:'
export const BUNDLE_MARK_PREFIX = 'bundle:'
export const REWARD_MARK_PREFIX = 'reward:'

export const bundleMark = (bundleId: string): string => `${BUNDLE_MARK_PREFIX}${bundleId}`
export const rewardMark = (tierId: string): string => `${REWARD_MARK_PREFIX}${tierId}`

/** The reward tier whose gift a line is, or undefined. */
export function giftTierOf (mark: string | undefined): string | undefined {
  return mark?.startsWith(REWARD_MARK_PREFIX) === true ? mark.slice(REWARD_MARK_PREFIX.length) : undefined
}

/** Whether a mark makes a line part of something the drawer manages (an add-on, a bundle, a gift). */
export function isManagedMark (mark: string | undefined): boolean {
  return mark !== undefined && (mark.startsWith(ADDON_MARK_PREFIX) || mark.startsWith(BUNDLE_MARK_PREFIX) || mark.startsWith(REWARD_MARK_PREFIX))
}

/** The drawer control a mark names, as orders record it (`OrderLine.origin`); undefined for a gift or no mark. */
export function markOrigin (mark: string | undefined): LineOrigin | undefined {
  if (mark === undefined) return undefined
  if (mark === 'recommendation' || mark === 'spotlight') return mark
  if (mark.startsWith(ADDON_MARK_PREFIX)) return 'addon'
  if (mark.startsWith(BUNDLE_MARK_PREFIX)) return 'bundle'
  return undefined
}
