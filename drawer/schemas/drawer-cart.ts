import { Type, type Static } from 'typebox'
import { Amount, CurrencyBlockSchema } from '../../kernel/schemas/store-api-common.ts'
import { ItemPresentationSchema, SvcCouponSchema, SvcQuantityLimitsSchema } from './svc-extension.ts'

/**
 * The drawer's cart state (design §3.7; `drawer/domain/drawer-state.ts` builds it): the JSON inside the `.svc-cart-json`
 * fragment and the body of `GET svc/v1/cart` and of every cart-changing `svc/v1` route. Money is in minor units as
 * strings, with the Store API's currency block. Property order follows `drawerCartState`.
 */

export const DrawerCartItemSchema = Type.Object({
  key: Type.String({ description: 'The cart item key.' }),
  product_id: Type.Integer({ description: 'The product chosen: the parent for a variation.' }),
  variation_id: Type.Integer({ description: 'The variation, 0 for a simple product.' }),
  name: Type.String({ description: 'Product name (text: escape it before writing it into HTML).' }),
  sku: Type.String(),
  quantity: Type.Integer(),
  quantityLimits: SvcQuantityLimitsSchema,
  quantityEditable: Type.Boolean(),
  removable: Type.Boolean(),
  visible: Type.Boolean(),
  backorderNotice: Type.String({ description: 'Plain text, at most 500 bytes; empty when none.' }),
  variationSummary: Type.String({ description: 'The chosen attributes, e.g. `Color: blue, Size: large`.' }),
  variation: Type.Array(Type.Object({ attribute: Type.String(), value: Type.String() })),
  permalink: Type.String({ description: 'Product page URL.' }),
  image: Type.Union([
    Type.Object({ src: Type.String(), thumbnail: Type.String(), alt: Type.String() }),
    Type.Null()
  ], { description: 'The first image of the variation or product, or null.' }),
  prices: Type.Object({ price: Amount, regular_price: Amount, sale_price: Amount }, { description: 'Unit prices.' }),
  totals: Type.Object({
    line_subtotal: Amount,
    line_subtotal_tax: Amount,
    line_total: Amount,
    line_total_tax: Amount
  }, { description: 'Line totals before (`subtotal`) and after (`total`) coupon discounts.' }),
  presentation: Type.Union([ItemPresentationSchema, Type.Null()], {
    description: 'The line\'s row of `extensions.svc.item_presentations` (after `svc_cart_item_data`); null beyond the 100th line.'
  })
}, { title: 'SvcDrawerCartItem', description: 'A cart line as the drawer shows it.' })

export const DrawerCouponSchema = Type.Object({
  ...SvcCouponSchema.properties,
  discount: Amount,
  discountTax: Amount
}, { description: 'An applied coupon and the discount it gives.' })

export const DrawerFeeSchema = Type.Object({
  key: Type.String(),
  name: Type.String(),
  total: Amount,
  totalTax: Amount
})

const Count = Type.String({ pattern: '^[0-9]+$', description: 'Minor units, or items with `measure: item_count`, as a string of an integer.' })

export const DrawerRewardsSchema = Type.Object({
  measure: Type.Enum(['subtotal', 'item_count'], { description: 'What the thresholds count.' }),
  basis: Count,
  tiers: Type.Array(Type.Object({
    id: Type.String(),
    label: Type.String({ description: 'Plain text: what the tier gives.' }),
    kind: Type.Enum(['free_shipping', 'percent_discount', 'fixed_discount', 'gift']),
    threshold: Count,
    remaining: Count,
    progress: Type.Number({ minimum: 0, maximum: 1 }),
    reached: Type.Boolean({ description: 'The reward applies to this cart now (free shipping: only while shipping costs nothing).' })
  }), { description: 'In the order the settings list them.' })
}, { title: 'SvcDrawerRewards', description: 'Progress towards the reward tiers, from the evaluation that set the totals.' })

export const DrawerCartStateSchema = Type.Object({
  cartItems: Type.Array(DrawerCartItemSchema),
  cartCount: Type.Integer({ description: 'The sum of the quantities.' }),
  cartTotal: Amount,
  cartSubtotal: Amount,
  cartFees: Type.Array(DrawerFeeSchema),
  cartTax: Amount,
  coupons: Type.Array(DrawerCouponSchema),
  currency: CurrencyBlockSchema,
  optionalLockedKeys: Type.Array(Type.String(), { description: 'Keys of lines locked against changes (Pro); empty in Free.' }),
  cartHash: Type.String({ description: 'The classic cart hash; empty for an empty cart.' }),
  cartDiscount: Amount,
  cartShipping: Type.Union([Amount, Type.Null()], { description: 'Null while no shipping is needed.' }),
  errors: Type.Array(Type.Object({ code: Type.String(), message: Type.String() })),
  rewards: Type.Union([DrawerRewardsSchema, Type.Null()], { description: 'The reward tiers\' progress (settings `rewards`); null without tiers.' })
}, { title: 'SvcDrawerCart', description: 'The drawer\'s cart state.' })
export type DrawerCartStateBody = Static<typeof DrawerCartStateSchema>
