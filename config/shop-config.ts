import { DEFAULT_CURRENCY } from '../domain/money.ts'
import type { ShopConfig } from '../domain/types.ts'

export const defaultShopConfig: ShopConfig = {
  currency: { ...DEFAULT_CURRENCY },
  taxRatePercent: 0,
  taxLabel: 'Tax',
  shippingFlatRate: 0,
  fees: []
}
