import { DEFAULT_CURRENCY } from '../kernel/domain/money.ts'
import type { ShopConfig } from '../kernel/domain/types.ts'

export const defaultShopConfig: ShopConfig = {
  currency: { ...DEFAULT_CURRENCY },
  taxRatePercent: 0,
  taxLabel: 'Tax',
  shippingFlatRate: 0,
  fees: []
}
