/** A line of the shop's own cart. */
export interface ShopLine {
  /** 32 hex digits, given when the line is created. */
  id: string
  productId: number
  /** The chosen variant's product id, or 0. */
  variantId: number
  /** The variant's attributes as chosen (`{pa_colour: 'black'}`). */
  attrs: Record<string, string>
  qty: number
  /**
   * The drawer's mark on a line it added, stored as given and given back (opaque to the shop): it keeps the line apart
   * from the shopper's own lines of the same product. `giftTierOf(mark)` says whether it is a reward tier's gift.
   */
  mark?: string
}

/** The shop's own cart as stored. */
export interface ShopCart {
  key: string
  /** The user the cart is bound to, or null for a guest's. */
  owner: number | null
  lines: ShopLine[]
  /** Applied coupon codes, lower case, in the order applied. */
  coupons: string[]
  version: number
  updatedAt: string
}

export function emptyCart (key: string): ShopCart {
  return { key, owner: null, lines: [], coupons: [], version: 0, updatedAt: new Date(0).toISOString() }
}
