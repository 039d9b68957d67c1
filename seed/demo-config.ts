import { defaultShopConfig } from '../config/shop-config.ts'
import type { ShopConfig } from '../kernel/domain/types.ts'

/** The demo shop charges 10 % tax and a $5.00 flat shipping rate, so every total has something to show. */
export const demoShopConfig: ShopConfig = {
  ...defaultShopConfig,
  taxRatePercent: 10,
  taxLabel: 'Sales tax',
  shippingFlatRate: 500
}
