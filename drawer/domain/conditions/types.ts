/** What a condition is evaluated against: facts about the cart, the visitor and the time. */
export interface ConditionContext {
  /** Cart subtotal in minor units, after discounts, before tax. */
  subtotal: number
  /** Sum of the cart's quantities. */
  itemCount: number
  /** Product ids in the cart: each line's product, its parent and its variation. */
  productIds: ReadonlySet<number>
  categoryIds: ReadonlySet<number>
  loggedIn: boolean
  /** The visitor's capabilities (roles count as capabilities: `administrator`, `customer`…). */
  capabilities: readonly string[]
  now: Date
}

export interface Condition {
  type: string
  operator: string
  value: unknown
}

/** Conditions joined by AND (`all`) or OR (`any`); a group may hold groups of conditions (two levels). */
export interface ConditionGroup {
  match: 'all' | 'any'
  conditions: Array<Condition | ConditionGroup>
}
