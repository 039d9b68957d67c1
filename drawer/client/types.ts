import type { Static } from 'typebox'
import type { DrawerCartStateBody } from '../schemas/drawer-cart.ts'
import type { RecommendationsSchema, RecommendedProductSchema } from '../schemas/svc-free.ts'
import type { ShippingMeterSchema, SmartAddonViewSchema, SpotlightViewSchema } from '../schemas/svc-pro.ts'
import type { BundleCompanionsSchema, BundleViewSchema } from '../schemas/svc-pro-bundles.ts'
import type { AnalyticsEventInput } from '../schemas/svc-pro-analytics.ts'

/** The server's shapes, taken from the schemas the routes answer with (types only: nothing of them is bundled). */
export type CartState = DrawerCartStateBody
export type CartItem = CartState['cartItems'][number]
export type Currency = CartState['currency']
export type Product = Static<typeof RecommendedProductSchema>
export type Recommendations = Static<typeof RecommendationsSchema>
export type ShippingMeter = Static<typeof ShippingMeterSchema>
export type SmartAddon = Static<typeof SmartAddonViewSchema>
export type Spotlight = Static<typeof SpotlightViewSchema>
export type Bundle = Static<typeof BundleViewSchema>
export type BundleCompanions = Static<typeof BundleCompanionsSchema>
export type AnalyticsEvent = AnalyticsEventInput

/** `GET drawer-data`: one key per requested section. */
export interface DrawerData {
  cart?: CartState
  recommendations?: Recommendations
  shipping_meter?: ShippingMeter
  smart_addons?: SmartAddon[]
  spotlight?: Spotlight
}
