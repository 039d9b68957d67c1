import type { Coupon, Currency, Product, ShopConfig } from '../../../kernel/domain/types.ts'

/** A published, visible, simple product priced $10.00 with unmanaged stock; every field set, `overrides` win. */
export function makeProduct (overrides: Partial<Product> = {}): Product {
  return {
    id: 1,
    parentId: 0,
    type: 'simple',
    name: 'Plain Mug',
    slug: 'plain-mug',
    sku: 'MUG-1',
    shortDescription: 'A mug.',
    description: 'A plain white mug.',
    status: 'publish',
    catalogVisibility: 'visible',
    regularPrice: 1000,
    salePrice: null,
    manageStock: false,
    stockQuantity: null,
    stockStatus: 'instock',
    backorders: 'no',
    backorderNotice: '',
    lowStockAmount: null,
    soldIndividually: false,
    quantityRules: {},
    images: [],
    categories: [],
    crossSellIds: [],
    upsellIds: [],
    attributes: [],
    variationIds: [],
    variationAttributes: {},
    ...overrides
  }
}

/** A variable T-shirt (id 10, no price of its own) with colour and size attributes. */
export function makeVariableParent (overrides: Partial<Product> = {}): Product {
  return makeProduct({
    id: 10,
    type: 'variable',
    name: 'T-shirt',
    slug: 't-shirt',
    sku: 'TEE',
    regularPrice: null,
    attributes: [
      { name: 'pa_color', label: 'Color', options: ['Red', 'Blue'] },
      { name: 'pa_size', label: 'Size', options: ['S', 'M'] }
    ],
    variationIds: [11, 12, 13],
    ...overrides
  })
}

/** A variation of the parent made by `makeVariableParent`. */
export function makeVariation (overrides: Partial<Product> = {}): Product {
  return makeProduct({
    id: 11,
    parentId: 10,
    type: 'variation',
    name: 'T-shirt - Red, S',
    slug: 't-shirt-red-s',
    sku: 'TEE-RED-S',
    regularPrice: 2000,
    variationAttributes: { pa_color: 'Red', pa_size: 'S' },
    ...overrides
  })
}

export function makeCoupon (overrides: Partial<Coupon> = {}): Coupon {
  return {
    code: 'save10',
    discountType: 'percent',
    amount: 10,
    freeShipping: false,
    expiresAt: null,
    usageLimit: null,
    usageCount: 0,
    minimumAmount: null,
    description: '',
    ...overrides
  }
}

export const USD: Currency = {
  code: 'USD',
  symbol: '$',
  minorUnit: 2,
  decimalSeparator: '.',
  thousandSeparator: ',',
  prefix: '$',
  suffix: ''
}

export const EUR_DE: Currency = {
  code: 'EUR',
  symbol: '€',
  minorUnit: 2,
  decimalSeparator: ',',
  thousandSeparator: '.',
  prefix: '',
  suffix: ' €'
}

/** No tax, no fees, no shipping, unless overridden. */
export function makeConfig (overrides: Partial<ShopConfig> = {}): ShopConfig {
  return {
    currency: USD,
    taxRatePercent: 0,
    taxLabel: 'Tax',
    shippingFlatRate: 0,
    fees: [],
    ...overrides
  }
}

export const NOW = new Date('2026-06-15T12:00:00Z')
