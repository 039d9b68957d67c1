import type { Coupon, Product } from '../kernel/domain/types.ts'

/** The demo shop: at least one product for every catalog case the platform handles. */

export type ProductDraft = Partial<Product> & Pick<Product, 'id' | 'name' | 'regularPrice'>
type Draft = ProductDraft

/** A published, visible, in-stock simple product with the draft's fields on top. */
export function product (draft: Draft, homeUrl: string): Product {
  const slug = draft.slug ?? draft.name.toLowerCase().replace(/[^a-z0-9]+/g, '-').replace(/(^-|-$)/g, '')
  return {
    parentId: 0,
    type: 'simple',
    slug,
    sku: `SKU-${draft.id}`,
    shortDescription: '',
    description: '',
    status: 'publish',
    catalogVisibility: 'visible',
    salePrice: null,
    manageStock: false,
    stockQuantity: null,
    stockStatus: 'instock',
    backorders: 'no',
    backorderNotice: '',
    lowStockAmount: null,
    soldIndividually: false,
    quantityRules: {},
    images: [{ id: draft.id, src: `${homeUrl}/images/${slug}.svg`, thumbnail: `${homeUrl}/images/${slug}.svg`, alt: draft.name, name: slug }],
    categories: [],
    crossSellIds: [],
    upsellIds: [],
    attributes: [],
    variationIds: [],
    variationAttributes: {},
    ...draft
  }
}

const clothing = { id: 1, name: 'Clothing', slug: 'clothing' }
const accessories = { id: 2, name: 'Accessories', slug: 'accessories' }
const music = { id: 3, name: 'Music', slug: 'music' }

export function demoProducts (homeUrl: string): Product[] {
  const drafts: Draft[] = [
    { id: 101, name: 'Beanie', regularPrice: 2000, salePrice: 1800, categories: [accessories], shortDescription: 'A warm knitted beanie.', crossSellIds: [102, 103], upsellIds: [104] },
    { id: 102, name: 'Belt', regularPrice: 6500, salePrice: 5500, categories: [accessories], shortDescription: 'Leather belt.' },
    { id: 103, name: 'Cap', regularPrice: 1800, categories: [accessories], shortDescription: 'Cotton cap.', crossSellIds: [101] },
    { id: 104, name: 'Sunglasses', regularPrice: 9000, categories: [accessories], shortDescription: 'Polarised sunglasses.' },
    { id: 105, name: 'Hoodie with Logo', regularPrice: 4500, categories: [clothing], shortDescription: 'Soft hoodie.', crossSellIds: [101, 103] },
    {
      id: 106,
      name: 'Hoodie',
      type: 'variable',
      regularPrice: null,
      categories: [clothing],
      shortDescription: 'Choose a colour and a size.',
      attributes: [
        { name: 'pa_color', label: 'Color', options: ['blue', 'green', 'red'] },
        { name: 'pa_size', label: 'Size', options: ['small', 'large'] }
      ],
      variationIds: [1061, 1062, 1063, 1064]
    },
    { id: 1061, parentId: 106, type: 'variation', name: 'Hoodie - Blue, Small', slug: 'hoodie-blue-small', regularPrice: 4500, variationAttributes: { pa_color: 'blue', pa_size: 'small' }, images: [] },
    { id: 1062, parentId: 106, type: 'variation', name: 'Hoodie - Blue, Large', slug: 'hoodie-blue-large', regularPrice: 4800, variationAttributes: { pa_color: 'blue', pa_size: 'large' }, images: [] },
    { id: 1063, parentId: 106, type: 'variation', name: 'Hoodie - Green', slug: 'hoodie-green', regularPrice: 4500, salePrice: 4000, variationAttributes: { pa_color: 'green', pa_size: '' }, images: [] },
    { id: 1064, parentId: 106, type: 'variation', name: 'Hoodie - Red, Small', slug: 'hoodie-red-small', regularPrice: 4500, manageStock: true, stockQuantity: 0, stockStatus: 'outofstock', variationAttributes: { pa_color: 'red', pa_size: 'small' }, images: [] },
    { id: 107, name: 'T-Shirt', regularPrice: 1800, categories: [clothing], shortDescription: 'Plain T-shirt.', manageStock: true, stockQuantity: 25, lowStockAmount: 5 },
    { id: 108, name: 'Long Sleeve Tee', regularPrice: 2500, categories: [clothing], shortDescription: 'Only three left.', manageStock: true, stockQuantity: 3, lowStockAmount: 5 },
    { id: 109, name: 'Polo', regularPrice: 2000, categories: [clothing], shortDescription: 'Sold out.', manageStock: true, stockQuantity: 0, stockStatus: 'outofstock' },
    { id: 110, name: 'Vintage Jacket', regularPrice: 12000, categories: [clothing], shortDescription: 'Made to order: ships in three weeks.', manageStock: true, stockQuantity: 0, stockStatus: 'onbackorder', backorders: 'notify', backorderNotice: 'Made to order: ships in about three weeks.' },
    { id: 111, name: 'Rain Coat', regularPrice: 8000, categories: [clothing], shortDescription: 'Backorders allowed without notice.', manageStock: true, stockQuantity: 2, backorders: 'yes' },
    { id: 112, name: 'Album', regularPrice: 1500, categories: [music], shortDescription: 'One per customer.', soldIndividually: true },
    { id: 113, name: 'Single', regularPrice: 300, categories: [music], shortDescription: 'Sold in packs: 2 to 10, in steps of 2.', quantityRules: { minimum: 2, maximum: 10, multipleOf: 2 } },
    { id: 114, name: 'Poster', regularPrice: 1200, categories: [music], shortDescription: 'Draft: not for sale yet.', status: 'draft' },
    { id: 115, name: 'Signed Vinyl', regularPrice: 25000, categories: [music], shortDescription: 'Private: members only.', status: 'private' },
    { id: 116, name: 'Gift Wrap', regularPrice: 300, categories: [accessories], shortDescription: 'Hidden from the catalog; added from the cart.', catalogVisibility: 'hidden' },
    { id: 117, name: 'Sticker Pack', regularPrice: 500, categories: [accessories], shortDescription: 'Listed in the shop only, not in search.', catalogVisibility: 'catalog' },
    { id: 118, name: 'Guitar Pick', regularPrice: 200, categories: [music], shortDescription: 'Found by search only.', catalogVisibility: 'search' },
    { id: 119, name: 'Coming Soon Tote', regularPrice: null, categories: [accessories], shortDescription: 'No price yet: cannot be bought.' },
    { id: 120, name: 'Wallet <Limited> & "Special"', slug: 'wallet-limited', regularPrice: 3500, categories: [accessories], shortDescription: 'Its name has characters that must be escaped.' }
  ]
  return drafts.map((draft) => product(draft, homeUrl))
}

function coupon (draft: Partial<Coupon> & Pick<Coupon, 'code' | 'discountType' | 'amount'>): Coupon {
  return { freeShipping: false, expiresAt: null, usageLimit: null, usageCount: 0, minimumAmount: null, description: '', ...draft }
}

export const demoCoupons: Coupon[] = [
  coupon({ code: 'save10', discountType: 'percent', amount: 10, description: '10% off the whole cart.' }),
  coupon({ code: 'fiver', discountType: 'fixed_cart', amount: 500, description: '$5 off the cart.' }),
  coupon({ code: 'big50', discountType: 'fixed_cart', amount: 1500, minimumAmount: 5000, description: '$15 off a cart of $50 or more.' }),
  coupon({ code: 'freeship', discountType: 'fixed_cart', amount: 0, freeShipping: true, description: 'Free shipping.' }),
  coupon({ code: 'expired', discountType: 'percent', amount: 20, expiresAt: '2020-01-01T00:00:00.000Z', description: 'Expired in 2020.' }),
  coupon({ code: 'usedup', discountType: 'percent', amount: 15, usageLimit: 1, usageCount: 1, description: 'Its one use is taken.' })
]
